/** `udcli sandbox exec`'s options, checked before anything runs (a bad value: exit 2 naming it). */
import { isAbsolute, resolve } from 'node:path';
import { UsageError } from '../../../errors.js';
import {
  parsePort,
  parseServerOptions,
  seedOrData,
  type RawServerOptions,
  type ServerOptions,
  type SeedMode,
} from './options.js';

export interface ExecOptions extends ServerOptions {
  port: number;
  seed: SeedMode;
  data: string | undefined;
  /** Start from this saved snapshot instead of seeding. */
  snapshot: string | undefined;
  /** --log FILE: every request line of the run. */
  log: string | undefined;
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
    ...parseServerOptions(raw),
  };
}

function exclusiveSnapshot(raw: RawExecOptions): string | undefined {
  const snapshot = parseSnapshotOption(raw.snapshot);
  if (snapshot !== undefined && (raw.data !== undefined || raw.seed !== undefined)) {
    throw new UsageError('--snapshot cannot be used with --data or --seed: the snapshot is the whole starting state');
  }
  return snapshot;
}
