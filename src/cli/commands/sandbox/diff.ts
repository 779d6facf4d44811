/**
 * `udcli sandbox diff FILE.har…` and `--live USER`: wires the pipeline of src/sandbox/diff/run.ts
 * (read → seed → replay → compare → report) to the command line and prints its report: one
 * block per differing exchange and a summary line on a terminal, one JSON object with --json.
 * Exit 0 when nothing differs, 1 when something does, 2 for bad input.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NetworkError, UdcliError, UsageError } from '../../../errors.js';
import type { Factory } from '../../../ops/factory.js';
import { parseGameId, parseUserArg } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { printable } from '../../../printable.js';
import { redactQuery } from '../../../redact.js';
import type { DataFile } from '../../../sandbox/data/model.js';
import type { DiffResult } from '../../../sandbox/diff/run.js';
import { wantsJson } from './json.js';
import { packageVersion } from '../../../package-paths.js';

export interface DiffOptions {
  json?: boolean;
  ignore?: string[];
  strict?: boolean;
  data?: string;
  live?: string;
  saveKey?: string;
  game?: string;
}

/** A printed value: JSON, cut to a width a terminal line can hold, every outside byte escaped. */
function shown(value: unknown): string {
  const text =
    value === null || value === undefined
      ? '(absent)'
      : typeof value === 'string'
        ? JSON.stringify(value)
        : (JSON.stringify(value) ?? String(value));
  return printable(text.length > 60 ? `${text.slice(0, 59)}…` : text);
}

const IGNORE_PATH = /^[A-Za-z0-9_$-]*(\[\])*(\.[A-Za-z0-9_$ -]+(\[\])*)*$/;

function checkIgnore(paths: readonly string[]): string[] {
  return paths.map((p) => {
    const path = p.trim();
    if (path === '' || !IGNORE_PATH.test(path))
      throw new UsageError(
        `invalid --ignore ${JSON.stringify(p)}: expected a path such as payload.premium or payload[].percent_complete`,
      );
    return path;
  });
}

export function reportText(result: DiffResult, files: number): string {
  const lines: string[] = [];
  let last = '';
  for (const d of result.differences) {
    const id = `${d.file}\u0000${d.entry}`;
    if (id !== last) {
      last = id;
      const query = d.query ? `?${redactQuery(d.query)}` : '';
      lines.push('', printable(`${files > 1 ? `${d.file} ` : ''}#${d.entry} ${d.method} ${d.path}${query}`));
    }
    const at = d.at === '' ? '(body)' : d.at;
    // A representation's values are spellings: shown as written, `55.0`, not as the string "55.0".
    const show = (v: unknown): string =>
      d.kind === 'representation' && typeof v === 'string' && /^[-+.\w]+$/.test(v) ? printable(v) : shown(v);
    lines.push(`  ${d.kind.padEnd(7)} ${printable(at)}: recorded ${show(d.recorded)}, sandbox ${show(d.sandbox)}`);
  }
  if (result.omitted > 0)
    lines.push(`… and ${result.omitted} more differences (only the first ${result.differences.length} are listed)`);
  lines.push(...skipLines(result, files));
  lines.push(
    `${lines.length > 0 ? '\n' : ''}${result.compared} compared: ${result.same} same, ${result.differing} differing; ${result.skipped} skipped`,
  );
  return `${lines.join('\n').replace(/^\n/, '')}\n`;
}

/**
 * The skipped entries, one line per file and reason (a browser's recording skips hundreds of
 * page and asset requests for the same reason): their entry numbers, and the hosts of entries
 * that were not platform exchanges.
 */
function skipLines(result: DiffResult, files: number): string[] {
  const groups = new Map<string, { file: string; reason: string; entries: number[]; hosts: Set<string> }>();
  for (const s of result.skips) {
    const id = `${s.file}\u0000${s.reason}`;
    const group = groups.get(id) ?? { file: s.file, reason: s.reason, entries: [], hosts: new Set<string>() };
    group.entries.push(s.entry);
    if (s.host !== undefined) group.hosts.add(s.host);
    groups.set(id, group);
  }
  const lines: string[] = [];
  for (const g of groups.values()) {
    const shownEntries =
      g.entries
        .slice(0, 8)
        .map((e) => `#${e}`)
        .join(' ') + (g.entries.length > 8 ? ' …' : '');
    const hosts = [...g.hosts];
    const where =
      hosts.length === 0
        ? ''
        : ` (${hosts.slice(0, 3).join(', ')}${hosts.length > 3 ? `, ${hosts.length - 3} more hosts` : ''})`;
    const count = g.entries.length === 1 ? '' : `${g.entries.length} `;
    lines.push(printable(`skipped ${count}${files > 1 ? `${g.file} ` : ''}${shownEntries}: ${g.reason}${where}`));
  }
  const unlisted = result.skipped - result.skips.length;
  if (unlisted > 0) lines.push(`… and ${unlisted} more skipped (only the first ${result.skips.length} are listed)`);
  return lines;
}

export function reportJson(result: DiffResult): string {
  return `${JSON.stringify(
    {
      compared: result.compared,
      same: result.same,
      differing: result.differing,
      skipped: result.skipped,
      differences: result.differences.map((d) => ({
        file: d.file,
        entry: d.entry,
        method: d.method,
        path: d.path,
        kind: d.kind,
        at: d.at,
        recorded: d.recorded ?? null,
        sandbox: d.sandbox ?? null,
      })),
      ...(result.omitted > 0 ? { omitted: result.omitted } : {}),
      skips: result.skips,
    },
    null,
    2,
  )}\n`;
}

async function print(factory: Factory, result: DiffResult, files: number, json: boolean): Promise<void> {
  factory.io.stdout.write(json ? reportJson(result) : reportText(result, files));
  if (result.differing > 0) {
    throw new UdcliError(
      `${result.differing} of ${result.compared} exchanges differ between the recording and the sandbox`,
      {
        hint: 'see docs/FIDELITY.md: what a difference means, --ignore PATH for what does not matter to you',
      },
    );
  }
}

export async function diffCommand(factory: Factory, files: string[], opts: DiffOptions): Promise<void> {
  const ignore = checkIgnore(opts.ignore ?? []);
  const json = wantsJson(factory, opts.json);
  if (opts.live !== undefined) {
    if (files.length > 0) throw new UsageError("--live reads from the profile's server: give it no recording");
    await liveCommand(factory, opts.live, {
      ignore,
      strict: opts.strict === true,
      json,
      ...(opts.saveKey !== undefined ? { saveKey: opts.saveKey } : {}),
      ...(opts.game !== undefined ? { game: opts.game } : {}),
    });
    return;
  }
  if (opts.saveKey !== undefined) throw new UsageError('--save-key goes with --live USER');
  if (opts.game !== undefined) throw new UsageError('--game goes with --live USER: a recording names its own games');
  if (files.length === 0)
    throw new UsageError('name the recordings to compare: udcli sandbox diff FILE.har… (or --live USER)');
  const [{ diffRecordings }, data] = await Promise.all([import('../../../sandbox/diff/run.js'), readData(opts.data)]);
  const result = await diffRecordings({ files, ignore, strict: opts.strict === true, ...(data ? { data } : {}) });
  await print(factory, result, files.length, json);
}

async function readData(file: string | undefined): Promise<{ file: string; data: DataFile } | undefined> {
  if (file === undefined) return undefined;
  const { readDataFile } = await import('../../../sandbox/data/read.js');
  return { file, data: readDataFile(file) };
}

const SAVE_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * `--live USER`: reads only (the user, the first page of friends, the quest definitions and list,
 * the products, one save), from the profile's server, recorded, then diffed as a recording. USER
 * is a uid or a username (looked up with one more read, recorded and compared too), the game
 * `--game` or the profile's, as for every other command.
 */
async function liveCommand(
  factory: Factory,
  userArg: string,
  opts: { ignore: string[]; strict: boolean; json: boolean; saveKey?: string; game?: string },
): Promise<void> {
  const userRef = parseUserArg(userArg, 'user', 'sandbox diff --live');
  if (opts.saveKey !== undefined && !SAVE_KEY.test(opts.saveKey))
    throw new UsageError(`invalid --save-key ${JSON.stringify(printable(opts.saveKey))}: 1 to 64 of A-Z a-z 0-9 _ . -`);
  const named = opts.game === undefined ? undefined : parseGameId(opts.game, '--game');
  const dir = mkdtempSync(join(tmpdir(), 'udcli-live-'));
  const file = join(dir, 'live.har');
  try {
    const { openHarRecorder } = await import('../../../har/writer.js');
    const recorder = openHarRecorder(file, { creator: { name: 'udcli', version: packageVersion() } });
    const settings = await factory.settings();
    const client = await factory.client({ record: (exchange) => recorder.record(exchange) });
    // A name nobody has is the service's 404, as for every other command.
    const user = await resolveUid(client, userRef);
    const game = named ?? (settings.gameId || undefined);
    const reads: Array<{ path: string; query?: Array<[string, string]> }> = [
      { path: `/services/rest/v1/users/${user}.json` },
      { path: `/services/rest/v1/friends/${user}.json` },
      ...(game ? [{ path: `/services/rest/v1/achievements/${game}.json` }] : []),
      { path: `/services/rest/v1/achievements/user/${user}.json` },
      ...(game
        ? [
            {
              path: `/services/rest/v1/products/user/${user}.json`,
              query: [['game_id', game]] as Array<[string, string]>,
            },
          ]
        : []),
      ...(opts.saveKey !== undefined
        ? [
            {
              path: `/services/rest/v1/gamesave/${user}.json`,
              query: [['key', opts.saveKey]] as Array<[string, string]>,
            },
          ]
        : []),
    ];
    for (const read of reads) {
      try {
        // GET only, never signed: nothing this sends can change state, whatever the profile.
        await client.request({
          method: 'GET',
          path: read.path,
          idempotent: true,
          ...(read.query ? { query: read.query } : {}),
        });
      } catch (error) {
        // An error reply is an answer to compare too (it is recorded); no answer at all is not.
        if (error instanceof NetworkError) throw error;
      }
    }
    recorder.flush();
    const { diffRecordings } = await import('../../../sandbox/diff/run.js');
    const result = await diffRecordings({ files: [file], ignore: opts.ignore, strict: opts.strict });
    for (const d of result.differences) d.file = 'live';
    for (const s of result.skips) s.file = 'live';
    await print(factory, result, 1, opts.json);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
