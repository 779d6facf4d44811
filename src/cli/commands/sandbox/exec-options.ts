/** `udcli sandbox exec`'s options, checked before anything runs (a bad value: exit 2 naming it). */
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import { parseInteger } from '../../../ops/args.js';
import {
  parseAllowGameDirs,
  parseFaultOptions,
  parseGameSourceOptions,
  parseLatency,
  parsePort,
  parseRateLimit,
  seedOrData,
  type FaultOptions,
  type GameSourceOptions,
  type RawServerOptions,
  type SeedMode,
} from './options.js';

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

/** A snapshot name for `sandbox exec --snapshot`. */
export function parseSnapshotOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/.test(value))
    throw new UsageError(`invalid --snapshot "${value}": letters, digits, - _ .`);
  return value;
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
