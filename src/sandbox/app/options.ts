/**
 * What buildApp is given (BuildAppOptions), its defaults, and the settings it derives from them,
 * checked before anything is built: a bad value throws here, the app never half made.
 */
import type { SandboxDatabase } from '../database.js';
import type { FaultSpec } from '../faults/spec.js';
import type { ChallengeStore } from '../http/challenges.js';
import type { HostNames } from '../http/host-check.js';
import type { SlowBodyBounds } from '../http/slow-bodies.js';
import { GameSourceError, type GameSourceSetting } from '../game-host/index.js';
import type { LoadedData } from '../routes/reset.js';

export interface BuildAppOptions {
  db: SandboxDatabase;
  /** Lifetime of tokens from the token generator; default 900 s. */
  tokenTtlSeconds?: number;
  /** Requests per second per api_key (or per client address without a key); unset = no limit. */
  rateLimitPerSecond?: number;
  /**
   * The real clock (ms since the epoch) under the virtual one that `/_sandbox/clock` moves: tests
   * move it to check expiry and the timestamp window.
   */
  nowMs?: () => number;
  /** Faults to inject into /services/rest/v1 replies (`--faults`), drawn from a PRNG with this seed. */
  faults?: { spec: FaultSpec; seed: number };
  /** Fastify's logger (pino, to stdout). Off by default: the sandbox also runs embedded in the CLI. */
  logger?: boolean;
  /**
   * Where unexpected errors (the 500s) are told, one line each: method, path (never the query,
   * which holds keys and signatures) and the error. Default: nowhere (startSandbox passes stderr).
   */
  log?: (line: string) => void;
  /**
   * Where the request log's lines go (one per request: time, method, path, status, ms, the
   * failure reason; secrets redacted), a batch of whole lines at a time. Default: nowhere (the
   * log is still kept for `GET /_sandbox/requests`).
   */
  requestLines?: (text: string) => void;
  /** How long a challenge's line waits for its signed retry's (request-log.ts, CHALLENGE_HOLD_MS: the default). */
  challengeHoldMs?: number;
  /** A request must arrive whole (headers and body) within this; else 408 and the socket is closed. Default 30 s. */
  requestTimeoutMs?: number;
  /**
   * Open connections at most, so slow or idle clients cannot use up file descriptors; a new one
   * beyond closes the longest idle, else the one whose body has been arriving the longest
   * (http/connections.ts). Default 256.
   */
  maxConnections?: number;
  /**
   * A request body still arriving after this long must have come at minBodyBytesPerSecond on
   * average, else 408 (http/slow-bodies.ts). Default 10 s.
   */
  bodyGraceMs?: number;
  /** See bodyGraceMs. Default 1024 bytes/s; 0: no minimum (only requestTimeoutMs bounds a body). */
  minBodyBytesPerSecond?: number;
  /**
   * The database `udcli sandbox game set-uri` uses without --db (for the play page's hint); default from the
   * environment.
   */
  defaultDbPath?: string;
  /** The agi challenge store; tests hand in one that issues the worked examples' sessions and keys. */
  challenges?: ChallengeStore;
  /**
   * The origin of absolute URLs in replies (avatars), e.g. the configured base URL when the sandbox
   * runs embedded on a throw-away port; default: the origin each request came to.
   */
  publicOrigin?: string;
  /**
   * Where games' files come from at start (`--game-dir` / `--game-url`), per game id; a game
   * without one is served from its content URI. Changed later through `/_sandbox/game-sources`.
   */
  gameSources?: ReadonlyArray<[string, GameSourceSetting]>;
  /** A game's dev server must send its reply headers within this; else a 504 page. Default 15 s. */
  upstreamTimeoutMs?: number;
  /** `--insecure-game-host`: a dev server's https certificate is not checked (a self-signed one). */
  insecureGameHost?: boolean;
  /**
   * The folders a game may be served from (game-host/allowed-dirs.ts): `allowed`, the ones given
   * at start (`--game-dir`, `--allow-game-dir`), within which `/_sandbox/game-sources` may set
   * one; `own`, udcli's config and data folders, never served. Default: the start's game dirs,
   * and no own folders beyond the home rule.
   */
  gameDirs?: { allowed: readonly string[]; own: readonly string[]; home?: string };
  /**
   * Further Host header values answered besides localhost, 127.0.0.1, [::1] and the address a
   * request came to (http/host-check.ts): the bound --host, and --public-url's.
   */
  hostNames?: HostNames;
  /**
   * What `POST /_sandbox/reset` without fields returns to (with a data file's checked contents); default: the recorded
   * origin.
   */
  startedWith?: LoadedData;
  /** `--latency`: every API reply is held this many ms before it goes out (http/latency.ts); default 0. */
  latencyMs?: number;
}

export const DEFAULT_TOKEN_TTL_SECONDS = 900;
export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_CONNECTIONS = 256;
export const DEFAULT_BODY_GRACE_MS = 10_000;
export const DEFAULT_MIN_BODY_BYTES_PER_SECOND = 1024;
export const MAX_PARAM_LENGTH = 256;

/** The options' values with their defaults, checked. */
export interface AppSettings {
  tokenTtlSeconds: number;
  rateLimitPerSecond: number | undefined;
  requestTimeoutMs: number;
  slowBodies: SlowBodyBounds;
  maxConnections: number;
  log: (line: string) => void;
}

export function settingsOf(options: BuildAppOptions): AppSettings {
  const rateLimit = options.rateLimitPerSecond;
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit > 0)) {
    throw new RangeError(`rateLimitPerSecond must be a positive integer, got ${rateLimit}`);
  }
  const tokenTtlSeconds = options.tokenTtlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
  if (!(Number.isInteger(tokenTtlSeconds) && tokenTtlSeconds > 0)) {
    throw new RangeError(`tokenTtlSeconds must be a positive integer, got ${tokenTtlSeconds}`);
  }
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const slowBodies = slowBodyBounds(options);
  for (const [gameId] of options.gameSources ?? []) {
    if (!options.db.repos.games.find(gameId))
      throw new GameSourceError(404, `no game ${JSON.stringify(gameId)} in the sandbox database`);
  }
  return {
    tokenTtlSeconds,
    rateLimitPerSecond: rateLimit,
    requestTimeoutMs,
    slowBodies,
    maxConnections: options.maxConnections ?? DEFAULT_MAX_CONNECTIONS,
    log: options.log ?? (() => undefined),
  };
}

function slowBodyBounds(options: Pick<BuildAppOptions, 'bodyGraceMs' | 'minBodyBytesPerSecond'>): SlowBodyBounds {
  const graceMs = options.bodyGraceMs ?? DEFAULT_BODY_GRACE_MS;
  const minBytesPerSecond = options.minBodyBytesPerSecond ?? DEFAULT_MIN_BODY_BYTES_PER_SECOND;
  if (!(Number.isFinite(graceMs) && graceMs > 0)) throw new RangeError(`bodyGraceMs must be positive, got ${graceMs}`);
  if (!(Number.isFinite(minBytesPerSecond) && minBytesPerSecond >= 0)) {
    throw new RangeError(`minBodyBytesPerSecond must be 0 or more, got ${minBytesPerSecond}`);
  }
  return { graceMs, minBytesPerSecond };
}
