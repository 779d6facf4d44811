/**
 * A sandbox for one test file: the real app on port 0 over a temporary SQLite file seeded with
 * the demo data, a movable clock, and small HTTP helpers that build exact query strings.
 */
import { localhostLookup } from '../../localhost-names.js';
import type { HostNames } from '../../../src/sandbox/http/host-check.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, gameHostOf } from '../../../src/sandbox/app.js';
import { gameOrigin as ownGameOrigin } from '../../../src/sandbox/game-host/addressing.js';
import { openDatabase, type SandboxDatabase } from '../../../src/sandbox/database.js';
import type { ChallengeStore } from '../../../src/sandbox/http/challenges.js';
import type { FaultSpec } from '../../../src/sandbox/faults/spec.js';
import type { GameSourceSetting } from '../../../src/sandbox/game-host/index.js';
import { demoDatabaseAt } from './demo-file.js';
import { checkRepliesAgainstDescription } from './described-replies.js';
import { canonicalString, hmacSha256Hex, rfc3986 } from '../../../src/domain/signing.js';
import { DEMO } from '../../../src/domain/demo.js';
import { API_PREFIX, type Envelope } from '../../../src/domain/types.js';

export type Params = Array<[string, string]>;

export interface Clock {
  ms: number;
  advance(seconds: number): void;
}

export interface TestSandbox {
  url: string;
  /** The game host's port on 127.0.0.1: the one origin all games shared before issue 40 (now it redirects). */
  gameUrl: string;
  /** A game's own origin on the game host, `http://g1001.localhost:PORT` (game-host/game-names.ts). */
  gameOrigin(gameId: string): string;
  db: SandboxDatabase;
  app: FastifyInstance;
  clock: Clock;
  dir: string;
  close(): Promise<void>;
}

export function tempDir(prefix = 'udcli-sandbox-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A new temporary folder with a folder of files for each game named: roots for `gameSources` of kind 'dir'. */
export function gameFolders<Name extends string>(
  prefix: string,
  games: Record<Name, Record<string, string>>,
): Record<Name, string> {
  const dir = tempDir(prefix);
  const roots = {} as Record<Name, string>;
  for (const [name, files] of Object.entries(games) as Array<[Name, Record<string, string>]>) {
    const root = join(dir, name);
    mkdirSync(root, { recursive: true });
    for (const [file, text] of Object.entries(files)) writeFileSync(join(root, file), text);
    roots[name] = root;
  }
  return roots;
}

export async function startTestSandbox(
  options: {
    rateLimitPerSecond?: number;
    tokenTtlSeconds?: number;
    seed?: 'demo' | 'none';
    startMs?: number;
    challenges?: ChallengeStore;
    /** The request log's lines (see buildApp). */
    requestLines?: (text: string) => void;
    /** How long a challenge's line waits for its retry's (see buildApp). */
    challengeHoldMs?: number;
    faults?: { spec: FaultSpec; seed: number };
    gameSources?: ReadonlyArray<[string, GameSourceSetting]>;
    upstreamTimeoutMs?: number;
    /** Further Host values answered (see buildApp). */
    hostNames?: HostNames;
    /** The folders games may be served from (see buildApp). */
    gameDirs?: { allowed: readonly string[]; own: readonly string[]; home?: string };
    insecureGameHost?: boolean;
    /** The game host's port (0: any free one). */
    gamePort?: number;
    /** The origin replies use whatever the Host (see buildApp). */
    publicOrigin?: string;
  } = {},
): Promise<TestSandbox> {
  const dir = tempDir();
  const path = join(dir, 'sandbox.db');
  if ((options.seed ?? 'demo') === 'demo') await demoDatabaseAt(path, 'seedDemo');
  const db = openDatabase(path);
  const clock: Clock = {
    ms: options.startMs ?? Date.now(),
    advance(seconds) {
      this.ms += seconds * 1000;
    },
  };
  const app = buildApp({
    db,
    nowMs: () => clock.ms,
    ...(options.rateLimitPerSecond ? { rateLimitPerSecond: options.rateLimitPerSecond } : {}),
    ...(options.tokenTtlSeconds ? { tokenTtlSeconds: options.tokenTtlSeconds } : {}),
    ...(options.challenges ? { challenges: options.challenges } : {}),
    ...(options.requestLines ? { requestLines: options.requestLines } : {}),
    ...(options.challengeHoldMs === undefined ? {} : { challengeHoldMs: options.challengeHoldMs }),
    ...(options.faults ? { faults: options.faults } : {}),
    ...(options.gameSources ? { gameSources: options.gameSources } : {}),
    ...(options.upstreamTimeoutMs ? { upstreamTimeoutMs: options.upstreamTimeoutMs } : {}),
    ...(options.hostNames ? { hostNames: options.hostNames } : {}),
    ...(options.gameDirs ? { gameDirs: options.gameDirs } : {}),
    ...(options.insecureGameHost ? { insecureGameHost: true } : {}),
    ...(options.publicOrigin ? { publicOrigin: options.publicOrigin } : {}),
  });
  // Every API reply of every test is checked against the OpenAPI description (faults break replies on purpose).
  if (!options.faults) checkRepliesAgainstDescription(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const gamePort = await gameHostOf(app).listen(options.gamePort ?? 0, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    gameUrl: `http://127.0.0.1:${gamePort}`,
    gameOrigin: (gameId) => ownGameOrigin(gameId, gamePort),
    db,
    app,
    clock,
    dir,
    async close() {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** RFC 3986-encoded query string, pairs in the given order. */
export function queryString(params: Params): string {
  return params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
}

/** Adds timestamp and the hmac-sha256-v1 signature (of the effective method) to params. */
export function sign(
  httpMethod: string,
  path: string,
  params: Params,
  secret: string,
  timestampSeconds: number,
): Params {
  const withTs: Params = [...params, ['timestamp', String(timestampSeconds)]];
  const signature = hmacSha256Hex(secret, canonicalString(httpMethod, path, withTs));
  return [...withTs, ['signature', signature]];
}

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  text: string;
  body: Envelope<T>;
}

export async function call<T = unknown>(
  base: string,
  method: string,
  path: string,
  params: Params = [],
  init: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Reply<T>> {
  const qs = queryString(params);
  const response = await fetch(`${base}${path}${qs ? `?${qs}` : ''}`, {
    method,
    headers: init.headers,
    body: init.body,
  });
  const text = await response.text();
  let body: Envelope<T>;
  try {
    body = JSON.parse(text) as Envelope<T>;
  } catch {
    body = { version: 0, code: -1, message: `not JSON: ${text.slice(0, 200)}`, payload: null };
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** GET/PUT/... on /services/rest/v1<path> with the demo game's key first. */
export function api<T = unknown>(
  base: string,
  method: string,
  path: string,
  params: Params = [],
  key: string = DEMO.game.apiKey,
) {
  return call<T>(base, method, `${API_PREFIX}${path}`, [['api_key', key], ...params]);
}

/** A player's records of one achievement as the game holding `key` lists them: `[]` when it was never started. */
export async function achievementRecords(
  base: string,
  path: string,
  developerId: string,
  key: string = DEMO.game.apiKey,
): Promise<unknown[] | null> {
  return (await api<unknown[]>(base, 'GET', path, [['developer_id', developerId]], key)).body.payload;
}

/**
 * A fresh nonce (SERVICE.md: hmac-sha256-v1, 5): what lets a test send the same signed change twice in one second, as
 * udcli's signer does.
 */
export function freshNonce(): string {
  return randomBytes(16).toString('base64url');
}

/**
 * A signed request with the demo game's key and secret at the sandbox clock's second, with a fresh
 * nonce unless `nonce: false` (a client that sends none) or a nonce of the caller's.
 */
export function signedApi<T = unknown>(
  sb: TestSandbox,
  method: string,
  path: string,
  params: Params,
  options: { key?: string; secret?: string; timestamp?: number; sentAs?: string; nonce?: string | false } = {},
) {
  const full = `${API_PREFIX}${path}`;
  const sentAs = options.sentAs ?? method;
  const nonce = options.nonce === false ? [] : ([['nonce', options.nonce ?? freshNonce()]] as Params);
  const unsigned: Params = [['api_key', options.key ?? DEMO.game.apiKey], ...params, ...nonce];
  const signed = sign(
    sentAs,
    full,
    unsigned,
    options.secret ?? DEMO.game.signingSecret,
    options.timestamp ?? Math.floor(sb.clock.ms / 1000),
  );
  return call<T>(sb.url, sentAs, full, signed);
}

/** A raw request written to the socket as is (for junk that fetch would refuse to send). */
export function rawRequest(base: string, data: string | Buffer): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ port: Number(port), host: hostname, lookup: localhostLookup }, () => socket.end(data));
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (received += d));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
  });
}

/** A request through node:http with the path exactly as given (no URL normalisation). */
export function exactRequest(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: Buffer | string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: hostname, port: Number(port), method, path, headers, lookup: localhostLookup },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
