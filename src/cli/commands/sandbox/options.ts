/**
 * Option values several `udcli sandbox ...` verbs share (game source, faults, latency, port, the
 * database, seed or data), checked before anything runs: a bad value is a UsageError (exit 2)
 * naming the option. Pure, so it loads nothing of the server. A verb's own options are in its
 * `<verb>-options.ts` (start, exec, seed).
 */
import { statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { parseInteger, parseSandboxGameId } from '../../../ops/args.js';
import { contentUriProblem } from '../../../sandbox/content-uri.js';
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

/** What `start` and `exec` both set on the sandbox they run (their shared options, verb-options.ts). */
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

/** What the options `start` and `exec` share set on the sandbox they run, checked. */
export interface ServerOptions {
  tokenTtlSeconds: number | undefined;
  rateLimitPerSecond: number | undefined;
  faults: FaultOptions | undefined;
  gameSource: GameSourceOptions | undefined;
  /** --latency: how long every API reply is held, in ms; 0 = none. */
  latencyMs: number;
  /** --insecure-game-host: a dev server's https certificate is not checked. */
  insecureGameHost: boolean;
  /** --allow-game-dir (absolute paths): folders a game folder may later be set in over HTTP. */
  allowGameDirs: string[];
}

export function parseServerOptions(raw: RawServerOptions): ServerOptions {
  return {
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
