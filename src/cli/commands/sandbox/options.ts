/**
 * Option values of `udcli sandbox ...`, checked before anything runs: a bad value is a
 * UsageError (exit 2) naming the option. Pure, so it loads nothing of the server.
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { parseInteger, parseSandboxGameId } from '../../../ops/args.js';
import { contentUriProblem } from '../../../sandbox/content-uri.js';
import { DEMO } from '../../../domain/demo.js';
import type { GameSourceSetting } from '../../../sandbox/game-host/sources.js';
import {
  FaultSpecError,
  parseDuration,
  parseFaultSeed,
  parseFaultSpec,
  type FaultSpec,
} from '../../../sandbox/faults/spec.js';
import { jsonText } from '../../../printable.js';
import { redactUrl } from '../../../redact.js';

export type SeedMode = 'demo' | 'none';

export interface StartOptions {
  port: number;
  host: string;
  /** Absolute path or ':memory:'; undefined = the default database. */
  db: string | undefined;
  seed: SeedMode;
  /** Absolute path of a data file to start from, instead of the demo data. */
  data: string | undefined;
  /** --reset: replace what the database holds with the data file. */
  replace: boolean;
  tokenTtlSeconds: number | undefined;
  rateLimitPerSecond: number | undefined;
  detach: boolean;
  /** A host other than loopback, or a public URL, was asked for and allowed (--allow-remote or --yes). */
  remote: boolean;
  /** --public-url: the origin other machines reach the sandbox at (its Host is answered too). */
  publicUrl: string | undefined;
  faults: FaultOptions | undefined;
  gameSource: GameSourceOptions | undefined;
  /** --latency: how long every API reply is held, in ms; 0 = none. */
  latencyMs: number;
  /** --insecure-game-host: a dev server's https certificate is not checked. */
  insecureGameHost: boolean;
  /** --allow-game-dir (absolute paths): folders a game folder may later be set in over HTTP. */
  allowGameDirs: string[];
  /** --name: the sandbox's name on this machine (undefined: the default one, else `port-<port>`). */
  name?: string | undefined;
}

/** --game-dir or --game-url, --game and --no-connect, checked. */
export interface GameSourceOptions {
  /** undefined = the first game (start, exec) or the profile's (play). */
  gameId: string | undefined;
  setting: GameSourceSetting;
}

export interface RawGameSourceOptions {
  gameDir?: string;
  gameUrl?: string;
  game?: string;
  /** Commander's --no-connect: false when given. */
  connect?: boolean;
}

/**
 * The game source the options ask for; undefined when they ask for none. With `alone` (sandbox
 * play), --no-connect without a source means the content URI without the connect tag.
 */
export function parseGameSourceOptions(
  raw: RawGameSourceOptions,
  cwd: string = process.cwd(),
  alone = false,
): GameSourceOptions | undefined {
  const connect = raw.connect !== false;
  if (raw.gameDir !== undefined && raw.gameUrl !== undefined) {
    throw new UsageError(
      '--game-dir and --game-url cannot be used together: the game comes from a folder or from a server',
    );
  }
  const gameId = raw.game === undefined ? undefined : parseSandboxGameId(raw.game);
  if (raw.gameDir !== undefined) {
    if (raw.gameDir.trim() === '') throw new UsageError('--game-dir must be a folder');
    const root = isAbsolute(raw.gameDir) ? raw.gameDir : resolve(cwd, raw.gameDir);
    let isDir: boolean;
    try {
      isDir = statSync(root).isDirectory();
    } catch {
      throw new UsageError(`--game-dir ${root} does not exist`);
    }
    if (!isDir) throw new UsageError(`--game-dir ${root} is not a folder`);
    return { gameId, setting: { kind: 'dir', root, connect } };
  }
  if (raw.gameUrl !== undefined) {
    const problem = contentUriProblem(raw.gameUrl);
    if (problem !== null)
      throw new UsageError(`invalid --game-url ${jsonText(redactUrl(raw.gameUrl))}: ${problem}`, {
        hint: 'e.g. --game-url http://localhost:5173/',
      });
    return { gameId, setting: { kind: 'url', base: raw.gameUrl, connect } };
  }
  if (alone && !connect) return { gameId, setting: { kind: 'content-uri', connect } };
  if (raw.game !== undefined)
    throw new UsageError('--game needs --game-dir or --game-url: it names the game they serve');
  if (!connect) throw new UsageError('--no-connect needs --game-dir or --game-url');
  return undefined;
}

/** As startSandbox takes it. */
export function serverGameSource(source: GameSourceOptions): { gameId?: string; setting: GameSourceSetting } {
  return source.gameId === undefined ? { setting: source.setting } : { gameId: source.gameId, setting: source.setting };
}

/** --faults and --fault-seed, checked; no seed given means a random one, chosen at start. */
export interface FaultOptions {
  spec: FaultSpec;
  seed: number | undefined;
}

/** What `start` and `exec` both set on the sandbox they run (their shared options, index.ts). */
export interface RawServerOptions {
  tokenTtl?: string;
  rateLimit?: string;
  faults?: string;
  faultSeed?: string;
  gameDir?: string;
  gameUrl?: string;
  game?: string;
  connect?: boolean;
  latency?: string;
  insecureGameHost?: boolean;
  allowGameDir?: string[];
}

export interface RawStartOptions extends RawServerOptions {
  port?: string;
  host?: string;
  db?: string;
  seed?: string;
  data?: string;
  reset?: boolean;
  detach?: boolean;
  allowRemote?: boolean;
  publicUrl?: string;
  name?: string;
}

export interface SeedOptions {
  db: string | undefined;
  users: number;
  friends: number;
  achievements: number;
  products: number;
  seed: string;
  json: boolean;
}

export interface RawSeedOptions {
  db?: string;
  users?: string;
  friends?: string;
  achievements?: string;
  products?: string;
  seed?: string;
  json?: boolean;
}

export const SEED_DEFAULTS = { users: 1000, friends: 500, achievements: 10, products: 5, seed: '1' } as const;

export function parsePort(value: string): number {
  return parseInteger(value, '--port', { min: 0, max: 65_535 });
}

/** The longest --latency: a round trip beyond this is a hang, not a network. */
export const MAX_LATENCY_MS = 10_000;

/** --latency: `40ms`, `2s`, `0` (a plain number is ms), at most MAX_LATENCY_MS; undefined = none. */
export function parseLatency(value: string | undefined): number {
  if (value === undefined) return 0;
  const ms = parseDuration(value);
  if (ms === null || ms > MAX_LATENCY_MS) {
    const shownValue = JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
    throw new UsageError(
      `invalid --latency ${shownValue}: expected a duration like 40ms or 2s, from 0 to ${MAX_LATENCY_MS / 1000}s`,
    );
  }
  return ms;
}

/** What a started sandbox says on stderr about --latency (nothing for none). */
export function latencyLine(latencyMs: number): string | undefined {
  return latencyMs > 0
    ? `holding every /services/rest reply ${latencyMs} ms (--latency), as a network round trip would`
    : undefined;
}

/** `N/s` or `N`: requests per second per api_key. */
export function parseRateLimit(value: string): number {
  const m = /^\s*(\d+)\s*(?:\/\s*s(?:ec(?:ond)?)?)?\s*$/i.exec(value);
  if (!m || Number(m[1]) < 1 || Number(m[1]) > 1_000_000) {
    throw new UsageError(`--rate-limit must look like 10/s (requests per second, at least 1), got "${value}"`);
  }
  return Number(m[1]);
}

export function parseSeedMode(value: string): SeedMode {
  if (value === 'demo' || value === 'none') return value;
  throw new UsageError(`--seed must be demo or none, got "${value}"`);
}

export function parseFaultOptions(raw: { faults?: string; faultSeed?: string }): FaultOptions | undefined {
  const checked = <T>(option: string, parse: () => T): T => {
    try {
      return parse();
    } catch (error) {
      if (error instanceof FaultSpecError) throw new UsageError(`invalid ${option}: ${error.message}`);
      throw error;
    }
  };
  if (raw.faults === undefined) {
    if (raw.faultSeed !== undefined)
      throw new UsageError('--fault-seed needs --faults: it seeds the draws of the faults');
    return undefined;
  }
  const spec = checked('--faults', () => parseFaultSpec(raw.faults!));
  return {
    spec,
    seed: raw.faultSeed === undefined ? undefined : checked('--fault-seed', () => parseFaultSeed(raw.faultSeed!)),
  };
}

/** 127.0.0.0/8, ::1 and localhost: reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  return (
    host === 'localhost' ||
    host === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(host) ||
    /^::ffff:127(\.\d{1,3}){3}$/i.test(host)
  );
}

export const REMOTE_EXPOSURE = 'password-less login, the token generator and unsigned grants';

/** What --host (or --public-url) exposes beyond this machine, as the warning a started sandbox prints. */
export function remoteWarning(host: string, publicUrl?: string): string {
  const what = isLoopbackHost(host) && publicUrl !== undefined ? `--public-url ${publicUrl}` : `--host ${host}`;
  return `warning: ${what} lets other machines reach the sandbox: ${REMOTE_EXPOSURE}`;
}

/** --public-url: an http(s) origin (a path of `/` at most), the way other machines reach the sandbox. */
export function parsePublicUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  const problem =
    url === undefined || !/^https?:$/.test(url.protocol)
      ? 'expected an http(s) URL, e.g. http://sandbox.example.com:8787'
      : url.username !== '' || url.password !== ''
        ? 'it must not carry a user name or password'
        : url.pathname !== '/' || url.search !== '' || url.hash !== ''
          ? 'give the origin only (scheme, host and port), no path or query'
          : null;
  if (problem !== null)
    throw new UsageError(
      `invalid --public-url ${jsonText(redactUrl(value.length > 80 ? `${value.slice(0, 77)}...` : value))}: ${problem}`,
    );
  return url!.origin;
}

export function parseHost(value: string): string {
  if (!/^[A-Za-z0-9.:[\]%-]{1,255}$/.test(value))
    throw new UsageError(`--host must be a host name or address, got "${value}"`);
  return value.replace(/^\[(.*)\]$/, '$1');
}

/** ':memory:' stays; any other path is made absolute (it is recorded in the pid file). */
export function parseDbPath(value: string | undefined, cwd: string = process.cwd()): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--db must be a file path or :memory:');
  if (value === ':memory:') return value;
  return isAbsolute(value) ? value : resolve(cwd, value);
}

/** --seed or --data (a file path made absolute), never both. */
export function seedOrData(
  raw: { seed?: string; data?: string },
  cwd: string = process.cwd(),
): { seed: SeedMode; data: string | undefined } {
  if (raw.data !== undefined) {
    if (raw.seed !== undefined)
      throw new UsageError('--data and --seed cannot be used together: the data file replaces the demo data');
    if (raw.data.trim() === '') throw new UsageError('--data must be a file path');
    return { seed: 'none', data: isAbsolute(raw.data) ? raw.data : resolve(cwd, raw.data) };
  }
  return { seed: raw.seed === undefined ? 'demo' : parseSeedMode(raw.seed), data: undefined };
}

/** A snapshot name for `sandbox exec --snapshot`. */
export function parseSnapshotOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/.test(value))
    throw new UsageError(`invalid --snapshot "${value}": letters, digits, - _ .`);
  return value;
}

/**
 * Without --port, the sandbox listens where the built-in profile looks for it: UDCLI_SANDBOX_PORT
 * when set, else 8787.
 */
/** `start --reset` replaces the database's contents with the data file: it needs one, and a database that lasts. */
function startReplace(raw: RawStartOptions): boolean {
  if (raw.reset !== true) return false;
  if (raw.data === undefined)
    throw new UsageError('--reset needs --data FILE: it replaces what the database holds with the file', {
      hint: 'to start over with the demo data: udcli sandbox reset',
    });
  return true;
}

export function parseStartOptions(raw: RawStartOptions, env: NodeJS.ProcessEnv = {}, yes = false): StartOptions {
  const port = raw.port ?? env.UDCLI_SANDBOX_PORT;
  const host = raw.host === undefined ? DEMO.host : parseHost(raw.host);
  const publicUrl = raw.publicUrl === undefined ? undefined : parsePublicUrl(raw.publicUrl);
  const remote = !isLoopbackHost(host) || publicUrl !== undefined;
  if (remote && raw.allowRemote !== true && !yes) {
    const what = publicUrl === undefined ? `--host ${host}` : `--public-url ${publicUrl}`;
    throw new UsageError(`${what} would let other machines reach the sandbox: ${REMOTE_EXPOSURE}`, {
      hint: 'pass --allow-remote (or --yes) if that is what you want; 127.0.0.1 keeps it on this machine',
    });
  }
  return {
    port: port === undefined || port === '' ? DEMO.port : parsePort(port),
    host,
    remote,
    publicUrl,
    db: parseDbPath(raw.db),
    ...seedOrData(raw),
    replace: startReplace(raw),
    tokenTtlSeconds:
      raw.tokenTtl === undefined ? undefined : parseInteger(raw.tokenTtl, '--token-ttl', { min: 1, max: 30 * 86_400 }),
    rateLimitPerSecond: raw.rateLimit === undefined ? undefined : parseRateLimit(raw.rateLimit),
    detach: raw.detach === true,
    faults: parseFaultOptions(raw),
    gameSource: parseGameSourceOptions(raw),
    latencyMs: parseLatency(raw.latency),
    insecureGameHost: raw.insecureGameHost === true,
    allowGameDirs: parseAllowGameDirs(raw.allowGameDir),
    name: raw.name === undefined ? undefined : parseSandboxName(raw.name),
  };
}

/** A sandbox's name: it names files in the data dir, so letters, digits, `.`, `_` and `-` only. */
export function parseSandboxName(raw: string): string {
  if (/^[a-z0-9][a-z0-9._-]{0,62}$/i.test(raw)) return raw.toLowerCase();
  throw new UsageError(
    `invalid --name ${JSON.stringify(raw.slice(0, 70))}: expected 1-63 letters, digits, '.', '_' or '-', starting with a letter or digit`,
  );
}

/** --allow-game-dir, each an existing folder, made absolute. */
export function parseAllowGameDirs(values: readonly string[] | undefined, cwd: string = process.cwd()): string[] {
  return (values ?? []).map((value) => {
    if (value.trim() === '') throw new UsageError('--allow-game-dir must be a folder');
    const dir = isAbsolute(value) ? value : resolve(cwd, value);
    let isDir: boolean;
    try {
      isDir = statSync(dir).isDirectory();
    } catch {
      throw new UsageError(`--allow-game-dir ${dir} does not exist`);
    }
    if (!isDir) throw new UsageError(`--allow-game-dir ${dir} is not a folder`);
    return dir;
  });
}

export function parseSeedOptions(raw: RawSeedOptions): SeedOptions {
  const users =
    raw.users === undefined ? SEED_DEFAULTS.users : parseInteger(raw.users, '--users', { min: 0, max: 5_000_000 });
  const friendsDefault = Math.min(SEED_DEFAULTS.friends, users);
  const friends =
    raw.friends === undefined ? friendsDefault : parseInteger(raw.friends, '--friends', { min: 0, max: 5_000_000 });
  if (friends > users)
    throw new UsageError(
      `--friends (${friends}) cannot be more than --users (${users}): the friends are generated users`,
    );
  const seed = raw.seed ?? SEED_DEFAULTS.seed;
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(seed))
    throw new UsageError(`--seed must be 1-32 letters, digits, - or _, got "${seed}"`);
  const db = parseDbPath(raw.db);
  if (db === ':memory:') throw new UsageError('--db :memory: would be thrown away at once; give a file');
  return {
    db,
    users,
    friends,
    achievements:
      raw.achievements === undefined
        ? SEED_DEFAULTS.achievements
        : parseInteger(raw.achievements, '--achievements', { min: 0, max: 10_000 }),
    products:
      raw.products === undefined
        ? SEED_DEFAULTS.products
        : parseInteger(raw.products, '--products', { min: 0, max: 10_000 }),
    seed,
    json: raw.json === true,
  };
}

export interface ExecOptions {
  port: number;
  seed: SeedMode;
  data: string | undefined;
  /** Start from this saved snapshot instead of seeding. */
  snapshot: string | undefined;
  /** --log FILE: every request line of the run. */
  log: string | undefined;
  tokenTtlSeconds: number | undefined;
  rateLimitPerSecond: number | undefined;
  faults: FaultOptions | undefined;
  gameSource: GameSourceOptions | undefined;
  /** --latency in ms; 0 = none. */
  latencyMs: number;
  insecureGameHost: boolean;
  allowGameDirs: string[];
}

export interface RawExecOptions extends RawServerOptions {
  port?: string;
  seed?: string;
  data?: string;
  snapshot?: string;
  log?: string;
}

function parseLogPath(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError('--log must be a file path');
  return isAbsolute(value) ? value : resolve(value);
}

/** `sandbox exec` runs a fresh sandbox: any free port unless --port says otherwise. */
export function parseExecOptions(raw: RawExecOptions): ExecOptions {
  return {
    port: raw.port === undefined ? 0 : parsePort(raw.port),
    ...seedOrData(raw),
    snapshot: exclusiveSnapshot(raw),
    log: parseLogPath(raw.log),
    tokenTtlSeconds:
      raw.tokenTtl === undefined ? undefined : parseInteger(raw.tokenTtl, '--token-ttl', { min: 1, max: 30 * 86_400 }),
    rateLimitPerSecond: raw.rateLimit === undefined ? undefined : parseRateLimit(raw.rateLimit),
    faults: parseFaultOptions(raw),
    gameSource: parseGameSourceOptions(raw),
    latencyMs: parseLatency(raw.latency),
    insecureGameHost: raw.insecureGameHost === true,
    allowGameDirs: parseAllowGameDirs(raw.allowGameDir),
  };
}

function exclusiveSnapshot(raw: RawExecOptions): string | undefined {
  const snapshot = parseSnapshotOption(raw.snapshot);
  if (snapshot !== undefined && (raw.data !== undefined || raw.seed !== undefined)) {
    throw new UsageError('--snapshot cannot be used with --data or --seed: the snapshot is the whole starting state');
  }
  return snapshot;
}

/** A content URI for `sandbox game set-uri`: an absolute http(s) URL, kept as written. */
export function parseContentUri(value: string): string {
  const text = value.trim();
  const problem = contentUriProblem(text);
  if (problem !== null) {
    throw new UsageError(`invalid content URI ${jsonText(redactUrl(value))}: ${problem}`, {
      hint: 'give the http(s) URL of your game server, e.g. http://localhost:3000/',
    });
  }
  return text;
}
