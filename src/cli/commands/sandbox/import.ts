/**
 * `udcli sandbox import FILE.har [DATAFILE]`: a data file of the state a recording shows (src/sandbox/diff/import.ts).
 */
import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import type * as Yaml from 'yaml';
import { dynamicImport } from '../../../dynamic-import.js';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { printable } from '../../../printable.js';
import { writeWhole } from '../../../write-whole.js';
import { refuseOpenDatabase, WAYS_ON_FILE } from './in-use.js';

export interface ImportOptions {
  keepPersonal?: boolean;
  force?: boolean;
}

export async function importCommand(
  factory: Factory,
  file: string,
  target: string | undefined,
  opts: ImportOptions,
): Promise<void> {
  if (target !== undefined && target !== '-' && existsSync(target) && !opts.force) {
    throw new UsageError(`${target} exists; not overwritten`, {
      hint: 'pass --force to replace it, or name another file',
    });
  }
  if (target !== undefined && target !== '-')
    await refuseOpenDatabase(factory.io.env, target, `cannot write ${target}`, WAYS_ON_FILE);
  const { importRecordings } = await import('../../../sandbox/diff/import.js');
  const { data, withoutBody } = await importRecordings([file], { keepPersonal: opts.keepPersonal === true });
  const json = target !== undefined && /\.json$/i.test(target);
  const header = `# made by udcli sandbox import from ${file.replace(/[\r\n]/g, ' ')}: the state the recording shows, as last seen\n# (new sandbox keys; recorded keys are never copied)\n`;
  const text = json
    ? `${JSON.stringify(data, null, 2)}\n`
    : header + (await dynamicImport<typeof Yaml>('yaml')).stringify(data, { lineWidth: 0 });
  if (target === undefined || target === '-') {
    factory.io.stdout.write(text);
  } else {
    try {
      await writeWhole(target, Readable.from([text]));
    } catch (error) {
      throw new UsageError(`cannot write ${target}: ${(error as Error).message}`);
    }
    const ids = (data.games ?? []).map((g) => g.id);
    const games = `${n(ids.length, 'game')}${ids.length > 0 ? ` (${ids.slice(0, 10).join(', ')}${ids.length > 10 ? ', …' : ''})` : ''}`;
    factory.io.stderr.write(
      printable(
        `wrote ${target}: ${games}, ${n((data.users ?? []).length, 'user')}; start it with: udcli sandbox start --data ${target}`,
      ) + '\n',
    );
  }
  if (withoutBody.length > 0) {
    const entries =
      withoutBody
        .slice(0, 10)
        .map((e) => `#${e.entry}`)
        .join(', ') + (withoutBody.length > 10 ? ', …' : '');
    factory.io.stderr.write(
      `not in it: what ${n(withoutBody.length, 'platform reply', 'platform replies')} showed, their bodies not recorded (entries ${entries})\n`,
    );
  }
}

const n = (count: number, word: string, plural = `${word}s`): string => `${count} ${count === 1 ? word : plural}`;
