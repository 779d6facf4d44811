/**
 * Runs the sandbox: opens (and if asked, seeds) the database, builds the app and listens.
 * Quiet but for unexpected errors (one line each on stderr, which is sandbox.log when
 * detached) and, when asked, the request log's lines, and closes cleanly, so the CLI can also
 * run it embedded in-process.
 */
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import { DEMO } from '../domain/demo.js';
import { UdcliError, UsageError } from '../errors.js';
import { GameSourceError, type GameSourceSetting } from './game-host/index.js';
import { buildApp } from './app.js';
import { hostsOfUrl } from './http/host-check.js';
import type { FaultSpec } from './faults/spec.js';
import { ensureWritable, openDatabase } from './database.js';
import { defaultDatabasePath } from './paths.js';
import { recordedOrigin, seedFrom } from './origin.js';

export interface StartSandboxOptions {
  /** Default 8787; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default defaultDatabasePath(); ':memory:' for a throw-away database. */
  dbPath?: string;
  /** 'demo' (default): seed the demo data when the database is empty. */
  seed?: 'demo' | 'none';
  /** A studio's data file, loaded at start instead of the demo data (and what `reset` returns to). */
  data?: string;
  tokenTtlSeconds?: number;
  rateLimitPerSecond?: number;
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
  if (first === undefined) throw new UsageError('--game-dir and --game-url need a game, and the sandbox database has none');
  return first.id;
}

export interface RunningSandbox {
  /** http://HOST:PORT (the base URL and the site URL) */
  url: string;
  port: number;
  host: string;
  dbPath: string;
  /** Stops listening and closes the database. Safe to call more than once. */
  close(): Promise<void>;
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}

export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? DEMO.host;
  const requestedPort = options.port ?? DEMO.port;
  const dbPath = options.dbPath ?? defaultDatabasePath();
  // A data file is read and checked before anything is opened or changed: a bad one stops here.
  const data = options.data === undefined ? undefined : (await import('./data/read.js')).readDataFile(options.data);
  if (dbPath !== ':memory:') mkdirSync(dirname(dbPath), { recursive: true });

  const db = openDatabase(dbPath);
  let app;
  try {
    // A read-only database would answer reads and fail every write: refuse to start instead.
    ensureWritable(db);
    if (options.data !== undefined) await seedFrom(db, { kind: 'data', file: options.data }, data);
    else if (db.isEmpty() && recordedOrigin(db) === undefined) await seedFrom(db, { kind: options.seed ?? 'demo' });
    app = buildApp({
      db,
      ...(options.tokenTtlSeconds === undefined ? {} : { tokenTtlSeconds: options.tokenTtlSeconds }),
      ...(options.rateLimitPerSecond === undefined ? {} : { rateLimitPerSecond: options.rateLimitPerSecond }),
      log: options.log ?? ((line) => void process.stderr.write(`udcli sandbox: ${line}\n`)),
      ...(options.publicOrigin === undefined ? {} : { publicOrigin: options.publicOrigin }),
      ...(options.publicUrl === undefined || options.publicOrigin !== undefined ? {} : { publicOrigin: new URL(options.publicUrl).origin }),
      hostNames: { names: [host], hosts: options.publicUrl === undefined ? [] : hostsOfUrl(options.publicUrl) },
      ...(options.requestLines === undefined ? {} : { requestLines: options.requestLines }),
      ...(options.faults === undefined ? {} : { faults: options.faults }),
      ...(options.gameSource === undefined
        ? {}
        : { gameSources: [[sourceGameId(db, options.gameSource.gameId), options.gameSource.setting]] as Array<[string, GameSourceSetting]> }),
      ...(options.upstreamTimeoutMs === undefined ? {} : { upstreamTimeoutMs: options.upstreamTimeoutMs }),
    });
    await app.listen({ port: requestedPort, host });
  } catch (error) {
    await app?.close().catch(() => undefined);
    const ids = error instanceof GameSourceError ? db.repos.games.list().map((g) => g.id) : [];
    db.close();
    if (error instanceof GameSourceError) {
      throw new UsageError(`cannot serve the game: ${error.message}`, ids.length > 0 ? { hint: `its games: ${ids.slice(0, 20).join(', ')}` } : {});
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new UdcliError(`cannot start the sandbox: ${host}:${requestedPort} is already in use`, {
        hint: 'is a sandbox already running? try `udcli sandbox status`, or pick another port with --port (0 = any free port)',
        cause: error,
      });
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new UdcliError(`cannot start the sandbox on ${host}:${requestedPort}: ${(error as Error).message}`, { cause: error });
    }
    throw error;
  }

  const port = (app.server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    host,
    dbPath,
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
