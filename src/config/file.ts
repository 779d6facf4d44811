/**
 * The config file: `{ "current_profile": "work", "profiles": { "work": { ...keys } } }`.
 *
 * Reading parses the file directly (every API command reads it). Writing goes through the one
 * atomic writer (src/write-whole.ts), with mode 0600: a link planted at the file's name is
 * replaced, never written through. A file that cannot be parsed is a usage error naming the
 * file: it is never overwritten or cleared.
 *
 * Every read-modify-write holds `config.json.lock`, so commands run in parallel (ten `profile
 * add` from a script) keep each other's changes.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { writeWholeSync } from '../write-whole.js';
import { acquireLock, describeHolder, LockBusyError, type HeldLock } from '../lock-file.js';
import { PROFILE_KEYS, validateValue, type ProfileKey, type RawValue } from './keys.js';
import { configFilePath } from './paths.js';
import type { StoredProfile } from './types.js';

export const CONFIG_FILE_MODE = 0o600;

export type ConfigData = {
  current_profile?: string;
  profiles: Record<string, StoredProfile>;
  /**
   * Per profile, the keys `profile import` installed and from which file: `profile show` names
   * it as their source until a `config set` changes one.
   */
  imported?: Record<string, ImportRecord>;
};

export interface ImportRecord {
  from: string;
  at: string;
  keys: string[];
}

export interface LoadedConfig {
  path: string;
  /** False when the file does not exist yet (nothing was ever written). */
  exists: boolean;
  data: ConfigData;
}

function brokenFile(path: string, why: string): UsageError {
  return new UsageError(`config file ${path} ${why}`, {
    hint: 'fix it in an editor or move it away; udcli does not overwrite it',
  });
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Checks the shape and every known value of parsed file content. Unknown keys are kept as
 * they are (a newer udcli may have written them).
 */
export function parseConfigData(raw: unknown, path: string): ConfigData {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw brokenFile(path, 'does not hold a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  const data: ConfigData = { ...obj, profiles: {} };
  if (obj.current_profile !== undefined) {
    if (typeof obj.current_profile !== 'string') throw brokenFile(path, 'has a current_profile that is not a string');
    data.current_profile = obj.current_profile;
  }
  const profiles = obj.profiles ?? {};
  if (typeof profiles !== 'object' || profiles === null || Array.isArray(profiles)) {
    throw brokenFile(path, 'has "profiles" that is not an object');
  }
  for (const [name, value] of Object.entries(profiles as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw brokenFile(path, `has profile ${JSON.stringify(name)} that is not an object`);
    }
    const profile: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const key of PROFILE_KEYS) {
      const v = profile[key];
      if (v === undefined) continue;
      if (typeof v !== 'string' && typeof v !== 'boolean' && typeof v !== 'number' && !Array.isArray(v)) {
        throw brokenFile(path, `has profile ${JSON.stringify(name)} with a ${key} that is not a string`);
      }
      try {
        profile[key] = validateValue(key as ProfileKey, v as RawValue);
      } catch (error) {
        throw brokenFile(path, `has profile ${JSON.stringify(name)} with ${errorMessage(error)}`);
      }
    }
    data.profiles[name] = profile as StoredProfile;
  }
  return data;
}

/** Reads the config file without `conf`. A missing file is an empty config. */
export function readConfig(env: NodeJS.ProcessEnv): LoadedConfig {
  const path = configFilePath(env);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, exists: false, data: { profiles: {} } };
    throw brokenFile(path, `cannot be read: ${errorMessage(error)}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw brokenFile(path, `is not valid JSON: ${errorMessage(error)}`);
  }
  return { path, exists: true, data: parseConfigData(raw, path) };
}

/** How long a write waits for another udcli process to finish its own. */
export const CONFIG_LOCK_TIMEOUT_MS = 10_000;

async function lockConfig(path: string, timeoutMs: number): Promise<HeldLock> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return await acquireLock(path, { timeoutMs });
  } catch (error) {
    if (error instanceof LockBusyError) {
      throw new UsageError(
        `config file ${path} stayed locked by ${describeHolder(error.holder)} for ${timeoutMs / 1000}s; nothing was changed`,
        { hint: `if no other udcli is running, remove ${error.lockPath} and try again` },
      );
    }
    throw new UsageError(`cannot lock config file ${path}: ${errorMessage(error)}`);
  }
}

/** Removes the temp files of writes that were killed before their rename (we hold the lock). */
function removeTornWrites(path: string): void {
  const prefix = `${basename(path)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dirname(path));
  } catch {
    return;
  }
  for (const name of names) if (name.startsWith(prefix)) rmSync(join(dirname(path), name), { force: true });
}

/**
 * Reads the file, lets `change` edit the data, and writes it back (mode 0600),
 * all under the config lock. Returns what was written.
 */
export async function updateConfig(
  env: NodeJS.ProcessEnv,
  change: (data: ConfigData) => void,
  options: { lockTimeoutMs?: number } = {},
): Promise<LoadedConfig> {
  const path = configFilePath(env);
  const lock = await lockConfig(path, options.lockTimeoutMs ?? CONFIG_LOCK_TIMEOUT_MS);
  try {
    removeTornWrites(path);
    return writeLocked(env, path, change);
  } finally {
    lock.release();
  }
}

function writeLocked(env: NodeJS.ProcessEnv, path: string, change: (data: ConfigData) => void): LoadedConfig {
  // A file that cannot be parsed stops here (readConfig's error): it is never overwritten.
  const { data } = readConfig(env);
  change(data);
  try {
    // The one writer (src/write-whole.ts): a fresh temporary file, no link followed, 0600 exactly,
    // so also an older file that was looser ends 0600. Tab-indented, as `conf` wrote it.
    writeWholeSync(path, JSON.stringify(data, undefined, '\t'), CONFIG_FILE_MODE);
  } catch (error) {
    throw new UsageError(`cannot write config file ${path}: ${errorMessage(error)}`);
  }
  return { path, exists: true, data };
}
