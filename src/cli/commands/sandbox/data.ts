/**
 * `udcli sandbox init | schema | load | export`: a studio's own game in the sandbox, as a data
 * file (YAML or JSON). Load is one transaction (all or nothing); export writes a temporary file
 * and renames it, so a failed or interrupted export never leaves half a file.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { dataWarning } from './data-warning.js';
import { databasePath, runningSandbox } from './game.js';
import { wantsJson } from './json.js';
import { writeWhole } from '../../../write-whole.js';
import { refuseOpenDatabase, WAYS_ON_FILE } from './in-use.js';
import { ensureDataDir } from '../../../sandbox/paths.js';
import { jsonText, printable } from '../../../printable.js';

export interface InitOptions {
  force?: boolean;
}

export interface LoadOptions {
  db?: string;
  json?: boolean;
}

export interface ExportOptions {
  db?: string;
  format?: string;
}

export async function schemaCommand(factory: Factory): Promise<void> {
  const { DATA_SCHEMA } = await import('../../../sandbox/data/schema.js');
  factory.io.stdout.write(`${JSON.stringify(DATA_SCHEMA, null, 2)}\n`);
}

export async function initCommand(factory: Factory, file: string | undefined, opts: InitOptions): Promise<void> {
  const { STARTER_FILE } = await import('../../../sandbox/data/starter.js');
  const target = file ?? 'sandbox-data.yaml';
  if (target === '-') {
    factory.io.stdout.write(STARTER_FILE);
    return;
  }
  // The schema beside it, so that editors complete and check the file offline. Neither file is
  // replaced without --force, and both are checked before either is written.
  const { DATA_SCHEMA, SCHEMA_FILE_NAME } = await import('../../../sandbox/data/schema.js');
  const schemaPath = join(dirname(target), SCHEMA_FILE_NAME);
  for (const path of [target, schemaPath]) {
    await refuseOpenDatabase(factory.io.env, path, `cannot write ${path}`, WAYS_ON_FILE);
    if (existsSync(path) && !opts.force) {
      throw new UsageError(`${path} exists; not overwritten`, {
        hint: 'pass --force to replace it, or name another file',
      });
    }
  }
  await writeWhole(target, Readable.from([STARTER_FILE]));
  await writeWhole(schemaPath, Readable.from([`${JSON.stringify(DATA_SCHEMA, null, 2)}\n`]));
  factory.io.stderr.write(`wrote ${target} and ${schemaPath}; try it: udcli sandbox start --data ${target}\n`);
}

export async function loadCommand(factory: Factory, file: string, opts: LoadOptions): Promise<void> {
  const { readDataFile } = await import('../../../sandbox/data/read.js');
  const data = readDataFile(file, dataWarning(factory.io.stderr));
  const dbPath = databasePath(factory, opts.db);
  ensureDataDir(dirname(dbPath));
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { loadData } = await import('../../../sandbox/data/load.js');
  const db = openDatabase(dbPath);
  let summary;
  let chosen: { game: string | null; choices: string[] };
  let before: string | null;
  try {
    const { followed: followedBefore } = await import('../../../sandbox/loaded.js');
    before = followedBefore(db).primary?.game_id ?? null;
    summary = loadData(db, data, Math.floor(Date.now() / 1000), file);
    // What the sandbox holds is always said: the file joins what the database was loaded from.
    const { fileSha256, recordAddition } = await import('../../../sandbox/origin.js');
    recordAddition(
      db,
      `${file} (sha256 ${fileSha256(file).slice(0, 12)}…)`,
      (data.games ?? []).map((g) => g.id),
    );
    const { followed } = await import('../../../sandbox/loaded.js');
    const now = followed(db);
    chosen = { game: now.primary?.game_id ?? null, choices: now.choices };
  } finally {
    db.close();
  }
  const running = await runningSandbox(factory, dbPath);
  if (wantsJson(factory, opts.json)) {
    factory.io.stdout.write(
      `${jsonText({ file, database: dbPath, ...summary, sandbox_running: running?.same === true, default_game: chosen.game, choices: chosen.choices }, 2)}\n`,
    );
    return;
  }
  const n = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  factory.io.stdout.write(
    `loaded ${file} into ${dbPath}: ${n(summary.games, 'game')}, ${n(summary.users, 'user')}, ${n(summary.friendships, 'friendship')}\n`,
  );
  if (running?.same) factory.io.stderr.write(`the sandbox at ${running.url} uses this database and sees it now\n`);
  // Which game the built-in profile's commands now use (src/sandbox/loaded.ts), when they use this database.
  const { defaultDatabasePath } = await import('../../../sandbox/paths.js');
  if (!(running === null ? dbPath === defaultDatabasePath(factory.io.env) : running.same)) return;
  if (chosen.choices.length > 1) {
    factory.io.stderr.write(
      `${printable(`loaded games ${chosen.choices.join(', ')}: commands use ${chosen.game ?? 'none'} unless told (UDCLI_GAME_ID=${chosen.choices[0]})`)}\n`,
    );
  } else if (chosen.game !== null && (data.games ?? []).some((g) => g.id === chosen.game)) {
    // The default game changed under the user's feet: said, with the way back.
    const back =
      before !== null && before !== chosen.game
        ? `; for game ${before} as before: --game ${before} or UDCLI_GAME_ID=${before}`
        : '';
    factory.io.stderr.write(
      `${printable(`commands of the built-in sandbox profile now use game ${chosen.game}, the only game loaded${back}`)}\n`,
    );
  }
}

function formatOf(file: string, raw: string | undefined): 'yaml' | 'json' {
  if (raw !== undefined) {
    if (raw !== 'yaml' && raw !== 'json') throw new UsageError(`invalid --format "${raw}": expected yaml or json`);
    return raw;
  }
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

export async function exportCommand(factory: Factory, file: string | undefined, opts: ExportOptions): Promise<void> {
  const target = file ?? '-';
  const format = formatOf(target, opts.format);
  const dbPath = databasePath(factory, opts.db);
  if (!existsSync(dbPath)) {
    throw new UsageError(`there is no sandbox database at ${dbPath}`, {
      hint: 'start the sandbox once (udcli sandbox start) or pass --db FILE',
    });
  }
  if (target !== '-') await refuseOpenDatabase(factory.io.env, target, `cannot write ${target}`, WAYS_ON_FILE);
  const { openDatabase } = await import('../../../sandbox/database.js');
  const { exportChunks } = await import('../../../sandbox/data/export.js');
  const db = openDatabase(dbPath);
  try {
    if (target === '-') {
      // Chunk by chunk with backpressure; stops when the reader goes away (`| head`).
      const { isClosed, write } = await import('../../../output/pipe.js');
      for (const chunk of exportChunks(db, format)) {
        if (isClosed(factory.io.stdout)) break;
        await write(factory.io.stdout, chunk);
      }
    } else {
      await writeWhole(target, Readable.from(exportChunks(db, format)));
    }
  } finally {
    db.close();
  }
  if (target !== '-') factory.io.stderr.write(`exported ${dbPath} to ${target}\n`);
}
