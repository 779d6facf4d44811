/**
 * Runs the sandbox: opens (and if asked, seeds) the database, builds the app and listens.
 * Quiet but for unexpected errors (one line each on stderr, which is sandbox.log when
 * detached) and, when asked, the request log's lines, and closes cleanly, so the CLI can also
 * run it embedded in-process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { dirname, resolve } from 'node:path';
import { DEMO } from '../domain/demo.js';
import { DEMO_IMAGE_PATH } from '../package-paths.js';
import { UdcliError, UsageError } from '../errors.js';
import { GameSourceError, type GameSourceSetting } from './game-host/index.js';
import { buildApp, controlsOf, gameHostOf, type GameHostListener, type SandboxControls } from './app.js';
import { forbiddenDirProblem } from './game-host/allowed-dirs.js';
import { forbiddenGameDirError } from './game-dir-refusal.js';
import { hostsOfUrl } from './http/host-check.js';
import type { FaultSpec } from './faults/spec.js';
import { ensureWritable, openDatabase, type SandboxDatabase } from './database.js';
import { dataDir, defaultDatabasePath, ensureDataDir } from './paths.js';
import {
  dataOrigin,
  dataStartDecision,
  fileSha256,
  originText,
  recordedOrigin,
  seedFrom,
  type SandboxOrigin,
} from './origin.js';
import type { DataFile } from './data/model.js';
import type { LoadedData } from './routes/reset.js';
import { printableLines } from '../printable.js';

export interface StartSandboxOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default defaultDatabasePath(); ':memory:' for a throw-away database. */
  dbPath?: string;
  /**
   * A database that does not exist yet (':memory:', or a file not made yet) starts as this copy (`serialize()`)
   * of one already migrated and seeded, and is seeded only if the copy is empty (`udcli/sandbox` keeps one of the
   * demo data per process). Without it, a new database for the demo data starts from the build's image.
   */
  image?: Buffer;
  /** 'demo' (default): seed the demo data when the database is empty. */
  seed?: 'demo' | 'none';
  /** A studio's data file, loaded at start instead of the demo data (and what `reset` returns to). */
  data?: string;
  /** With `data`: replace whatever the database holds with the file (`start --data FILE --reset`). */
  replace?: boolean;
  tokenTtlSeconds?: number;
  rateLimitPerSecond?: number;
  /** Told one line when the data file has old words it reads in the platform's (data/legacy.ts). */
  warn?: (line: string) => void;
  /** Where unexpected errors are told; default: a line on stderr. */
  log?: (line: string) => void;
  /** Where the request log's lines go (see buildApp); default: nowhere. */
  requestLines?: (text: string) => void;
  /** Absolute URLs in replies use this origin instead of the listening address (see buildApp). */
  publicOrigin?: string;
  /** Faults to inject (`--faults`) and the seed of their draws. */
  faults?: { spec: FaultSpec; seed: number };
  /** Where a game's files come from (`--game-dir` / `--game-url`); no gameId = the first game. */
  gameSource?: { gameId?: string; setting: GameSourceSetting };
  /** A game's dev server must send its reply headers within this (default 15 s). */
  upstreamTimeoutMs?: number;
  /** `--insecure-game-host`: a dev server's https certificate is not checked. */
  insecureGameHost?: boolean;
  /**
   * The game host's port (its own origin, see game-host/app.ts): default the sandbox's port + 1
   * when that is free (so a game's origin, and its localStorage, stay the same across restarts),
   * else any free port; 0: any free port.
   */
  gamePort?: number;
  /** `--allow-game-dir`: folders `/_sandbox/game-sources` may set a game folder in, besides --game-dir's. */
  allowGameDirs?: readonly string[];
  /**
   * udcli's own folders (config, data), never served as a game folder; default: the data folder of this process's
   * environment.
   */
  ownDirs?: readonly string[];
  /** `--latency`: every API reply is held this many ms (see buildApp); default 0. */
  latencyMs?: number;
  /**
   * The URL other machines reach the sandbox at (`--public-url`, e.g. behind a tunnel or a
   * name): its Host is answered beside the loopback names and `host`, and avatar URLs name it.
   */
  publicUrl?: string;
}

/** The game a source is for: the one named, else the database's first. */
function sourceGameId(db: { repos: { games: { list(): Array<{ id: string }> } } }, wanted: string | undefined): string {
  if (wanted !== undefined) return wanted;
  const first = db.repos.games.list()[0];
  if (first === undefined)
    throw new UsageError('--game-dir and --game-url need a game, and the sandbox database has none');
  return first.id;
}

/** `start --data FILE` over a database that holds something else: one line, the two ways on. */
export function dataOverOtherContents(dbPath: string, file: string, holds: string): UsageError {
  return new UsageError(`${dbPath} holds ${holds}, not ${file}; nothing was loaded`, {
    hint: `replace it with the file: udcli sandbox start --data ${file} --reset, or keep it and use another database: --db FILE`,
  });
}

/**
 * Loads `file` (read and checked as `data`) as `start --data` does: into an empty database, or
 * over anything with `replace`; a database loaded from the same bytes keeps its state; any other
 * contents refuse (nothing changes).
 */
async function startWithData(
  db: SandboxDatabase,
  file: string,
  data: DataFile,
  replace: boolean,
): Promise<SandboxOrigin> {
  const origin = dataOrigin(file, fileSha256(file), data);
  if (replace) {
    const { replaceContents } = await import('./contents.js');
    replaceContents(db, origin, data);
    return origin;
  }
  const decision = dataStartDecision(db, file, (origin as { sha256: string }).sha256);
  if (decision.action === 'refuse') throw dataOverOtherContents(db.path, file, decision.holds);
  if (decision.action === 'load') await seedFrom(db, origin, data);
  return recordedOrigin(db) ?? origin;
}

/** Checks, without starting anything, that `start --data FILE` would not refuse this database (for --detach). */
export async function checkStartData(dbPath: string, file: string, warn?: (line: string) => void): Promise<void> {
  if (dbPath === ':memory:' || !existsSync(dbPath)) return;
  const { readDataFile } = await import('./data/read.js');
  readDataFile(file, warn);
  const db = openDatabase(dbPath);
  try {
    const decision = dataStartDecision(db, file, fileSha256(file));
    if (decision.action === 'refuse') throw dataOverOtherContents(dbPath, file, decision.holds);
  } finally {
    db.close();
  }
}

export interface RunningSandbox {
  /** http://HOST:PORT (the base URL and the site URL) */
  url: string;
  port: number;
  /** http://HOST:PORT of the game host, the origin game content runs on (no /_sandbox, no site). */
  gameUrl: string;
  gamePort: number;
  host: string;
  dbPath: string;
  /** What the database holds, as recorded when it started (e.g. "the demo data", "qa.yaml (sha256 …)"). */
  holds: string;
  /**
   * For a caller in this process (the `udcli/sandbox` API): the open database, what a bare reset returns to, and
   * the clock and request log its routes act on.
   */
  parts: SandboxParts;
  /** Stops listening and closes the database. Safe to call more than once. */
  close(): Promise<void>;
}

export interface SandboxParts extends SandboxControls {
  db: SandboxDatabase;
  startedWith: LoadedData;
}

/** The game host listens on `wanted`, else the sandbox's port + 1 if free, else any free port. */
async function listenGameHost(
  listener: GameHostListener,
  host: string,
  mainPort: number,
  wanted: number | undefined,
): Promise<number> {
  if (wanted !== undefined) return listener.listen(wanted, host);
  if (mainPort < 65535) {
    try {
      return await listener.listen(mainPort + 1, host);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' && (error as NodeJS.ErrnoException).code !== 'EACCES')
        throw error;
    }
  }
  return listener.listen(0, host);
}

/** The build's image, read once a process (null: there is none). */
let shippedDemo: Buffer | null | undefined;

/**
 * The build's image of the demo data, for a database about to be made and seeded with it (in memory, or a
 * file not made yet): copying it is a few ms where seeding 1,500 users was about a tenth of a CPU-second
 * of each first start (seeding is deterministic, so the copy is what seeding would give). Undefined when
 * the file exists, another seed or a data file was asked for, or the build has no image: seeded then.
 */
function newDemoImage(
  dbPath: string,
  dataFile: string | undefined,
  seed: 'demo' | 'none' | undefined,
): Buffer | undefined {
  if (dataFile !== undefined || (seed ?? 'demo') !== 'demo') return undefined;
  if (dbPath !== ':memory:' && existsSync(dbPath)) return undefined;
  if (shippedDemo === undefined) {
    try {
      shippedDemo = readFileSync(DEMO_IMAGE_PATH);
    } catch {
      shippedDemo = null; // a checkout not built yet
    }
  }
  return shippedDemo ?? undefined;
}

/**
 * Holds host:port until the app listens on it, so that a start that cannot listen fails before
 * its database is opened or changed (`start --data FILE --reset` on a port in use changed the
 * data, then failed). Port 0 holds nothing: any free port will do.
 */
function holdPort(host: string, port: number): Promise<Server | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen({ port, host, exclusive: true }, () => done(server));
  });
}

function portInUse(host: string, port: number, error: unknown, before: boolean): UdcliError {
  return new UdcliError(
    `cannot start the sandbox: ${host}:${port} is already in use${before ? '; nothing was changed' : ''}`,
    {
      hint: 'is a sandbox already running? try `udcli sandbox status`, or pick another port with --port (0 = any free port)',
      cause: error,
    },
  );
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? DEMO.host;
  const requestedPort = options.port ?? DEMO.port;
  const dbPath = options.dbPath ?? defaultDatabasePath();
  // A data file is read and checked before anything is opened or changed: a bad one stops here.
  // Recorded by its absolute path, so `reset` finds it from any directory.
  const dataFile = options.data === undefined ? undefined : resolve(options.data);
  const data =
    dataFile === undefined ? undefined : (await import('./data/read.js')).readDataFile(dataFile, options.warn);
  if (dbPath !== ':memory:') ensureDataDir(dirname(dbPath));

  // The caller names the folders of its own environment; this process's only when it names none.
  const ownDirs = options.ownDirs ?? [dataDir()];
  const allowedDirs = [
    ...(options.gameSource?.setting.kind === 'dir' ? [options.gameSource.setting.root] : []),
    ...(options.allowGameDirs ?? []),
  ];
  for (const dir of allowedDirs) {
    const problem = forbiddenDirProblem(resolve(dir), { own: ownDirs });
    if (problem !== null) throw forbiddenGameDirError(dir, problem);
  }
  let held: Server | undefined;
  try {
    held = await holdPort(host, requestedPort);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw portInUse(host, requestedPort, error, true);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL')
      throw new UdcliError(`cannot start the sandbox on ${host}:${requestedPort}: ${(error as Error).message}`, {
        cause: error,
      });
    throw error;
  }
  const release = (): Promise<void> => {
    const server = held;
    held = undefined;
    return server === undefined ? Promise.resolve() : new Promise<void>((done) => server.close(() => done()));
  };
  let db: SandboxDatabase;
  try {
    db = openDatabase(dbPath, options.image ?? newDemoImage(dbPath, dataFile, options.seed));
  } catch (error) {
    await release();
    throw error;
  }
  let app;
  let gamePort = 0;
  let startedWith: LoadedData;
  try {
    // A read-only database would answer reads and fail every write: refuse to start instead.
    ensureWritable(db);
    if (dataFile !== undefined && data !== undefined)
      startedWith = { origin: await startWithData(db, dataFile, data, options.replace === true), data };
    else {
      if (db.isEmpty() && recordedOrigin(db) === undefined) await seedFrom(db, { kind: options.seed ?? 'demo' });
      startedWith = { origin: recordedOrigin(db) ?? { kind: options.seed ?? 'demo' } };
    }
    app = buildApp({
      db,
      startedWith,
      ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
      ...(options.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: options.rateLimitPerSecond }),
      // A line may quote a request (its target, an error's message): the one rule applies.
      log: options.log ?? ((line) => void process.stderr.write(`udcli sandbox: ${printableLines(line)}\n`)),
      ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
      ...(options.publicUrl === undefined || options.publicOrigin !== undefined
        ? {}
        : { publicOrigin: new URL(options.publicUrl).origin }),
      hostNames: { names: [host], hosts: options.publicUrl === undefined ? [] : hostsOfUrl(options.publicUrl) },
      ...(options.requestLines === undefined ? {} : { requestLines: options.requestLines }),
      ...(options.faults === undefined ? {} : { faults: options.faults }),
      ...(options.gameSource === undefined
        ? {}
        : {
            gameSources: [[sourceGameId(db, options.gameSource.gameId), options.gameSource.setting]] as Array<
              [string, GameSourceSetting]
            >,
          }),
      ...(options.upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs: options.upstreamTimeoutMs }),
      ...(options.latencyMs === undefined ? {} : { latencyMs: options.latencyMs }),
      insecureGameHost: options.insecureGameHost === true,
      gameDirs: { allowed: allowedDirs.map((dir) => resolve(dir)), own: ownDirs },
    });
    await release();
    await app.listen({ port: requestedPort, host });
    gamePort = await listenGameHost(
      gameHostOf(app),
      host,
      (app.server.address() as AddressInfo).port,
      options.gamePort,
    );
  } catch (error) {
    await release();
    await app?.close().catch(() => undefined);
    const ids = error instanceof GameSourceError ? db.repos.games.list().map((g) => g.id) : [];
    db.close();
    if (error instanceof GameSourceError) {
      throw new UsageError(
        `cannot serve the game: ${error.message}`,
        ids.length > 0 ? { hint: `its games: ${ids.slice(0, 20).join(', ')}` } : {},
      );
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw portInUse(host, requestedPort, error, false);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new UdcliError(`cannot start the sandbox on ${host}:${requestedPort}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    throw error;
  }

  const port = (app.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    gameUrl: `http://${urlHost(host)}:${gamePort}`,
    gamePort,
    host,
    dbPath,
    holds: originText(recordedOrigin(db)),
    parts: { db, startedWith, ...controlsOf(app) },
    close() {
      closing ??= (async () => {
        try {
          await app.close();
        } finally {
          db.close();
        }
      })();
      return closing;
    },
  };
}
