/**
 * `udcli/sandbox` (docs/TESTING.md): startSandbox() runs the sandbox `udcli sandbox start` runs (server.ts), in
 * the caller's process, on a port and a database of its own (several at once), and hands back what a test needs:
 * its URL and credentials, and reset, load, snapshots, the clock and the request log, acted on directly (the same
 * functions as their `/_sandbox/...` routes), so none of them is a request in the log the test reads.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replaceContents } from '../contents.js';
import { readDataFile } from '../data/read.js';
import { REQUEST_LOG_CAPACITY } from '../http/request-log.js';
import { dataOrigin, fileSha256 } from '../origin.js';
import { keepBaseline } from '../repositories/baseline.js';
import type { LoadedData } from '../routes/reset.js';
import { startSandbox as startServer, type RunningSandbox } from '../server.js';
import { restoreSnapshot, saveSnapshot, snapshotFile } from '../snapshots.js';
import { freshWorkerGame, workerKeys } from '../workers.js';
import { advanceOf, checkData, checkOptions, timeOf } from './options.js';
import type { Sandbox, SandboxConnection, SandboxOptions, SandboxRemote } from './public.js';
import { asyncDispose, dataFile, heldAll, heldPart, type Held } from './held.js';
import { credentialsEnv, remoteWorker, workerHandle, workerIdOf } from './workers.js';

/**
 * The seeded databases of this process, by seed: a sandbox after the first starts as a copy of its first seeding
 * (a few ms) instead of seeding again (the demo data's 1,500 users: tens of ms). Seeding is deterministic, so the
 * copy is what a seeding would give. The first demo sandbox starts from the build's image (the server's choice for
 * any new database of the demo data).
 */
const images = new Map<'demo' | 'none', Buffer>();

function warn(line: string): void {
  process.emitWarning(line, 'UdcliSandboxWarning');
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const checked = checkOptions(options);
  if (checked.process) return (await import('./child.js')).startChildSandbox(checked);
  // The sandbox's own folder: its snapshots and data given as objects, gone when it stops.
  const dir = mkdtempSync(join(tmpdir(), 'udcli-sandbox-api-'));
  let files = 0;
  let running: RunningSandbox;
  try {
    const image = checked.data === undefined && checked.db === ':memory:' ? images.get(checked.seed) : undefined;
    running = await startServer({
      port: checked.port,
      host: '127.0.0.1',
      dbPath: checked.db,
      seed: checked.seed,
      ...(image === undefined ? {} : { image }),
      ...(checked.data === undefined ? {} : { data: dataFile(checked.data, dir, ++files), replace: true }),
      ...(checked.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: checked.tokenTtlSeconds }),
      ...(checked.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: checked.rateLimitPerSecond }),
      ...(checked.faults === undefined ? {} : { faults: checked.faults }),
      latencyMs: checked.latencyMs,
      warn,
      // No folder of the test's machine is served as a game's: the API starts no game host source.
      ownDirs: [dir],
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  const { db, clock, requestLog } = running.parts;
  if (checked.data === undefined && checked.db === ':memory:' && !images.has(checked.seed))
    images.set(checked.seed, db.sqlite.serialize());
  // What reset() puts back, table by table: only those written since.
  const baseline = keepBaseline(db.sqlite);
  baseline.capture();
  const startClock = checked.clock;
  if (startClock !== undefined) clock.set(startClock);

  /** requests() lists what came after this id. */
  let since = 0;
  const lastId = (): number => requestLog.list(0, 1).at(-1)?.id ?? 0;
  /** What it held when it stopped: read from the database while it runs (which any request may change). */
  let lastHeld: Held | undefined;
  let stopping: Promise<void> | undefined;

  /** Runs a change of the handle's, refused once stop() was called. */
  const change = async (what: string, fn: () => void | Promise<void>): Promise<void> => {
    if (stopping !== undefined) throw new Error(`sandbox.${what}: the sandbox was stopped`);
    await fn();
  };
  const live = <K extends keyof Held>(part: K): Held[K] =>
    lastHeld === undefined ? heldPart(db, part) : lastHeld[part];
  const at = (ms: number): Date => new Date(ms);
  const moved = async (fn: () => number): Promise<Date> => {
    if (stopping !== undefined) throw new Error('sandbox.clock: the sandbox was stopped');
    return at(fn());
  };

  const sandbox: Sandbox = {
    url: running.url,
    gameUrl: running.gameUrl,
    port: running.port,
    get gameId() {
      return live('primary').gameId;
    },
    get apiKey() {
      return live('primary').apiKey;
    },
    get signingSecret() {
      return live('primary').signingSecret;
    },
    get games() {
      return live('games');
    },
    get users() {
      return live('users');
    },
    faultSeed: checked.faults?.seed,
    clock: {
      now: () => moved(() => clock.now()),
      // The time set, not the clock read back a moment later.
      set: (time) =>
        moved(() => {
          const ms = timeOf(time, 'clock.set()');
          clock.set(ms);
          return ms;
        }),
      advance: (by) => moved(() => clock.advance(advanceOf(by))),
      reset: () => moved(() => clock.reset()),
    },
    reset: () =>
      change('reset()', () => {
        baseline.restore();
        if (startClock === undefined) clock.reset();
        else clock.set(startClock);
        since = lastId();
      }),
    load: (data) =>
      change('load()', () => {
        const file = dataFile(checkData(data), dir, ++files);
        const read = readDataFile(file, warn);
        const loaded: LoadedData = { origin: dataOrigin(file, fileSha256(file), read), data: read };
        replaceContents(db, loaded.origin, loaded.data);
        baseline.capture();
      }),
    snapshot: (name) =>
      change('snapshot()', async () => {
        await saveSnapshot(db, dir, name);
      }),
    restore: (name) => change('restore()', () => restoreSnapshot(db, snapshotFile(dir, name))),
    requests: async () => requestLog.list(since, REQUEST_LOG_CAPACITY),
    env() {
      return {
        ...credentialsEnv(sandbox.connection),
        ...(running.dbPath === ':memory:' ? {} : { UDCLI_SANDBOX_DB: running.dbPath }),
      };
    },
    get connection(): SandboxConnection {
      const primary = live('primary');
      return { url: running.url, gameUrl: running.gameUrl, ...primary };
    },
    async worker(given) {
      const id = workerIdOf(given);
      const connection = sandbox.connection;
      const fresh = () => change(`worker(${id})`, () => void freshWorkerGame(db, id, Math.floor(clock.now() / 1000)));
      await fresh();
      return workerHandle(
        connection,
        id,
        workerKeys(connection.gameId, connection.signingSecret, id),
        () => sandbox.users,
        fresh,
      );
    },
    stop() {
      stopping ??= (async () => {
        lastHeld = heldAll(db);
        try {
          baseline.dispose();
          await running.close();
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      })();
      return stopping;
    },
    [asyncDispose]() {
      return sandbox.stop();
    },
  };
  return sandbox;
}

export function connectSandbox(connection: SandboxConnection): SandboxRemote {
  const checked = checkConnection(connection);
  return {
    url: checked.url,
    gameUrl: checked.gameUrl,
    gameId: checked.gameId,
    apiKey: checked.apiKey,
    signingSecret: checked.signingSecret,
    env: () => credentialsEnv(checked),
    worker: (id) => remoteWorker(checked, id),
  };
}

function checkConnection(value: unknown): SandboxConnection {
  const c = value as Record<string, unknown> | null;
  const fields = ['url', 'gameUrl', 'gameId', 'apiKey', 'signingSecret', 'signingScheme'] as const;
  if (typeof c !== 'object' || c === null || fields.some((f) => typeof c[f] !== 'string'))
    throw new TypeError(`connectSandbox: give a sandbox's connection (sandbox.connection: ${fields.join(', ')})`);
  const url = new URL(c.url as string);
  if (url.protocol !== 'http:' || url.pathname !== '/')
    throw new TypeError("connectSandbox: connection.url must be a sandbox's http://host:port");
  return { ...(c as unknown as SandboxConnection), url: url.origin };
}
