/**
 * Where the sandbox keeps its files: the database, the pid file of a running sandbox and the
 * log of a detached one. Pure functions of the environment, so tests point them at a temp dir;
 * and the one way udcli creates such a directory (ensureDataDir).
 */
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PlatformInfo {
  platform: NodeJS.Platform;
  home: string;
}

const currentPlatform = (): PlatformInfo => ({ platform: process.platform, home: homedir() });

/**
 * `$UDCLI_DATA_DIR` if set, else `$XDG_DATA_HOME/udcli`, else the platform's per-user data
 * directory: `~/.local/share/udcli`, `~/Library/Application Support/udcli` (macOS) or
 * `%LOCALAPPDATA%/udcli` (Windows).
 */
export function dataDir(env: NodeJS.ProcessEnv = process.env, platform: PlatformInfo = currentPlatform()): string {
  if (env.UDCLI_DATA_DIR) return env.UDCLI_DATA_DIR;
  if (env.XDG_DATA_HOME) return join(env.XDG_DATA_HOME, 'udcli');
  switch (platform.platform) {
    case 'darwin':
      return join(platform.home, 'Library', 'Application Support', 'udcli');
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(platform.home, 'AppData', 'Local'), 'udcli');
    default:
      return join(platform.home, '.local', 'share', 'udcli');
  }
}

/** `<dataDir>/sandbox.db` */
export function defaultDatabasePath(env: NodeJS.ProcessEnv = process.env, platform?: PlatformInfo): string {
  return join(dataDir(env, platform), 'sandbox.db');
}

/** JSON record of the running sandbox (pid, port, url, db), written by `udcli sandbox start`. */
export function pidFilePath(env: NodeJS.ProcessEnv = process.env, platform?: PlatformInfo): string {
  return join(dataDir(env, platform), 'sandbox.pid');
}

/** Output of a sandbox started with `--detach`. */
export function logFilePath(env: NodeJS.ProcessEnv = process.env, platform?: PlatformInfo): string {
  return join(dataDir(env, platform), 'sandbox.log');
}

/**
 * The name of the sandbox whose files keep the paths above (`sandbox.pid`, `.db`, `.log`); every
 * other sandbox on the machine has its own beside them, under `sandboxes/` (issue 53).
 */
export const DEFAULT_SANDBOX = 'default';

/** `<dataDir>/sandboxes`: the records, databases and logs of the sandboxes besides the default one. */
export function namedSandboxesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(dataDir(env), 'sandboxes');
}

const named = (env: NodeJS.ProcessEnv, name: string, ext: string, fallback: string): string =>
  name === DEFAULT_SANDBOX ? fallback : join(namedSandboxesDir(env), `${name}.${ext}`);

/** The record of the sandbox called `name`. */
export function recordPath(env: NodeJS.ProcessEnv, name: string): string {
  return named(env, name, 'json', pidFilePath(env));
}

/** The database a sandbox called `name` uses unless --db names one: two sandboxes never share one unasked. */
export function namedDatabasePath(env: NodeJS.ProcessEnv, name: string): string {
  return named(env, name, 'db', defaultDatabasePath(env));
}

/** The log of the detached sandbox called `name`. */
export function namedLogPath(env: NodeJS.ProcessEnv, name: string): string {
  return named(env, name, 'log', logFilePath(env));
}

/**
 * Creates a directory for the sandbox's files (and its missing parents) readable by its owner
 * only, 0700 like the config directory: the database holds the games' signing secrets. A
 * directory that exists already is left as its owner made it.
 */
export function ensureDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}
