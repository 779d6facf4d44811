/**
 * `startSandbox({ process: true })`: the sandbox as `udcli sandbox start` runs it, in a child process, on a
 * database file of its own folder, with the same handle as in-process. What lives in the server's memory (the clock,
 * the request log, a reset, a load, a worker's game) goes through its control routes; what the handle reads
 * (credentials, games, users) and snapshots are read and written on the database file, which a second connection
 * shares with the server (WAL), as `udcli sandbox snapshot` does.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { BIN_PATH } from '../../package-paths.js';
import { openDatabase, type SandboxDatabase } from '../database.js';
import { restoreSnapshot, saveSnapshot, snapshotFile } from '../snapshots.js';
import { control } from './control.js';
import { advanceOf, checkData, timeOf, type CheckedOptions } from './options.js';
import type { Sandbox, SandboxConnection, SandboxData, SandboxRequest } from './public.js';
import { asyncDispose, dataFile, heldAll, heldPart, type Held } from './held.js';
import { credentialsEnv, remoteWorker } from './workers.js';

function argsOf(checked: CheckedOptions, db: string, data: string | undefined): string[] {
  const args = ['sandbox', 'start', '--port', String(checked.port), '--db', db];
  if (data !== undefined) args.push('--data', data, '--reset');
  else args.push('--seed', checked.seed);
  if (checked.latencyMs > 0) args.push('--latency', `${checked.latencyMs}ms`);
  if (checked.faults !== undefined)
    args.push('--faults', checked.faults.spec.text, '--fault-seed', String(checked.faults.seed));
  if (checked.rateLimitPerSecond !== undefined) args.push('--rate-limit', `${checked.rateLimitPerSecond}/s`);
  if (checked.tokenTtlSeconds !== undefined) args.push('--token-ttl', String(checked.tokenTtlSeconds));
  return args;
}

/**
 * Resolves with the URL the child prints first and the game host its stderr names, or rejects with the last line it
 * said when it exits first.
 */
function listening(child: ChildProcess): Promise<{ url: string; gameUrl: string }> {
  return new Promise((done, fail) => {
    let said = '';
    let url = '';
    let gameUrl = '';
    const ready = () => {
      if (url !== '' && gameUrl !== '') done({ url, gameUrl });
    };
    createInterface({ input: child.stderr! }).on('line', (line) => {
      if (line.trim() !== '') said = line;
      gameUrl ||= /games are served from (\S+)/.exec(line)?.[1] ?? '';
      ready();
    });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      url = line.trim();
      ready();
    });
    child.once('exit', (code, signal) =>
      fail(
        new Error(
          `startSandbox({ process: true }): the sandbox exited (${signal ?? code}) before it listened: ${said}`,
        ),
      ),
    );
  });
}

export async function startChildSandbox(checked: CheckedOptions): Promise<Sandbox> {
  const dir = mkdtempSync(join(tmpdir(), 'udcli-sandbox-child-'));
  const dbFile = checked.db === ':memory:' ? join(dir, 'sandbox.db') : resolve(checked.db);
  let files = 0;
  const fileOf = (data: string | SandboxData): string => dataFile(data, dir, ++files);
  const child = spawn(
    process.execPath,
    [BIN_PATH, ...argsOf(checked, dbFile, checked.data === undefined ? undefined : fileOf(checked.data))],
    // Its own data folder: no other sandbox of the user's is seen, listed or stopped by it.
    { env: { ...process.env, UDCLI_DATA_DIR: dir, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  // A test run that ends without stop() leaves no sandbox behind.
  const orphaned = () => child.kill('SIGTERM');
  process.once('exit', orphaned);
  const exited = new Promise<void>((done) =>
    child.once('exit', () => {
      process.off('exit', orphaned);
      done();
    }),
  );
  let where: { url: string; gameUrl: string };
  let db: SandboxDatabase;
  try {
    where = await listening(child);
    db = openDatabase(dbFile);
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const { url, gameUrl } = where;
  const port = Number(new URL(url).port);
  const startClock = checked.clock;
  const setClock = async (fields: Record<string, string>): Promise<Date> =>
    new Date((await control<{ now: string }>(url, 'POST', '/clock', fields)).now);
  if (startClock !== undefined) await setClock({ set: new Date(startClock).toISOString() });

  /** What reset() sends: the data of the last load(), else nothing (what it started with). */
  let loaded: Record<string, string> | undefined;
  let since = 0;
  let stopping: Promise<void> | undefined;
  const lastId = async (): Promise<number> =>
    (await control<{ requests: SandboxRequest[] }>(url, 'GET', '/requests?limit=1000')).requests.at(-1)?.id ?? 0;
  const live = <T>(what: string, fn: () => T | Promise<T>): Promise<T> => {
    if (stopping !== undefined) return Promise.reject(new Error(`sandbox.${what}: the sandbox was stopped`));
    return Promise.resolve(fn());
  };
  /** What it held when it stopped (read before the file is closed). */
  let last: Held | undefined;
  const held = <K extends keyof Held>(part: K): Held[K] => (last === undefined ? heldPart(db, part) : last[part]);
  const primary = () => held('primary');

  const sandbox: Sandbox = {
    url,
    gameUrl,
    port,
    get gameId() {
      return primary().gameId;
    },
    get apiKey() {
      return primary().apiKey;
    },
    get signingSecret() {
      return primary().signingSecret;
    },
    get games() {
      return held('games');
    },
    get users() {
      return held('users');
    },
    faultSeed: checked.faults?.seed,
    clock: {
      now: () => live('clock.now()', async () => new Date((await control<{ now: string }>(url, 'GET', '/clock')).now)),
      set: (time) =>
        live('clock.set()', async () => {
          const at = new Date(timeOf(time, 'clock.set()'));
          await setClock({ set: at.toISOString() });
          return at;
        }),
      advance: (by) => live('clock.advance()', () => setClock({ advance: `${Math.ceil(advanceOf(by) / 1000)}s` })),
      reset: () => live('clock.reset()', () => setClock({ reset: '1' })),
    },
    reset: () =>
      live('reset()', async () => {
        await control(url, 'POST', '/reset', loaded);
        await (startClock === undefined
          ? setClock({ reset: '1' })
          : setClock({ set: new Date(startClock).toISOString() }));
        since = await lastId();
      }),
    load: (data) =>
      live('load()', async () => {
        const file = fileOf(checkData(data));
        const fields = {
          data: readFileSync(file, 'utf8'),
          file: basename(file),
          format: /\.json$/i.test(file) ? 'json' : 'yaml',
        };
        await control(url, 'POST', '/reset', fields);
        loaded = fields;
      }),
    snapshot: (name) => live('snapshot()', async () => void (await saveSnapshot(db, dir, name))),
    restore: (name) => live('restore()', () => restoreSnapshot(db, snapshotFile(dir, name))),
    requests: () =>
      live('requests()', async () =>
        // The handle's own control calls are requests to this server: none of /_sandbox is listed (the in-process
        // handle makes none).
        (
          await control<{ requests: SandboxRequest[] }>(url, 'GET', `/requests?since=${since}&limit=1000`)
        ).requests.filter((r) => !r.path.startsWith('/_sandbox/')),
      ),
    env: () => ({ ...credentialsEnv(sandbox.connection), UDCLI_SANDBOX_DB: dbFile }),
    get connection(): SandboxConnection {
      return { url, gameUrl, ...primary() };
    },
    worker: (id) => live(`worker(${String(id)})`, () => remoteWorker(sandbox.connection, id)),
    stop() {
      stopping ??= (async () => {
        last = heldAll(db);
        db.close();
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopping;
    },
    [asyncDispose]() {
      return sandbox.stop();
    },
  };
  return sandbox;
}
