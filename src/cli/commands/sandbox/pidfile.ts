/**
 * The record of the running sandbox (`<dataDir>/sandbox.pid`, JSON), written by `sandbox start`
 * once it listens and removed when it stops. `status`, `stop`, `reset` and `info` read it, and
 * trust it only when the process is alive and answers on the URL with the same pid.
 */
import { readFileSync, rmSync } from 'node:fs';
import { writeWholeSync } from '../../../write-whole.js';
import { dirname } from 'node:path';
import { ensureDataDir, pidFilePath } from '../../../sandbox/paths.js';
import { isAlive } from '../../../lock-file.js';

/** A URL a client can reach from this machine: a sandbox bound to every address answers on loopback. */
export function reachableUrl(url: string): string {
  return url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
}

export interface PidRecord {
  pid: number;
  port: number;
  host: string;
  url: string;
  /** The game host's origin (absent in records of an older udcli). */
  gameUrl?: string;
  db: string;
  startedAt: string;
  detached: boolean;
  log?: string;
  /** --latency in ms; absent = none. */
  latencyMs?: number;
}

export type SandboxState =
  | { state: 'none' }
  /** The pid file names a process that is gone (or a zombie, or a pid reused by another program). */
  | { state: 'stale'; record: PidRecord }
  /** The process is alive but does not answer as the sandbox. */
  | { state: 'unresponsive'; record: PidRecord }
  | { state: 'running'; record: PidRecord };

export function readPidFile(path: string): PidRecord | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value = JSON.parse(text) as Partial<PidRecord>;
    if (typeof value.pid === 'number' && typeof value.url === 'string' && typeof value.db === 'string') {
      return value as PidRecord;
    }
  } catch {
    // A torn or hand-edited file: treat as no record.
  }
  return undefined;
}

/** Written to a temp file and renamed, so readers never see half a record. */
export function writePidFile(path: string, record: PidRecord): void {
  ensureDataDir(dirname(path));
  writeWholeSync(path, `${JSON.stringify(record, null, 2)}\n`, 0o600);
}

/** Removes the pid file, but only if it still names `pid` (another sandbox may own it now). */
export function removePidFile(path: string, pid?: number): void {
  if (pid !== undefined && readPidFile(path)?.pid !== pid) return;
  rmSync(path, { force: true });
}

export { isAlive } from '../../../lock-file.js';

/**
 * False when the pid now belongs to something that is no udcli sandbox (the pid was reused
 * after the sandbox died); undefined when that cannot be told (not Linux, or unreadable).
 */
function runsUdcli(pid: number): boolean | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    // `... udcli.js sandbox start ...` (or any launcher of it: the arguments are what tell).
    return cmdline.includes('sandbox') && cmdline.includes('start');
  } catch {
    return undefined;
  }
}

/** The pid the sandbox at `url` reports, or null when nothing (or something else) answers. */
export async function probe(url: string, timeoutMs = 1500): Promise<number | null> {
  // Loaded here, not above: the built-in profile reads the pid file on every command without probing.
  const { sandboxStatus } = await import('../../../client/sandbox-admin.js');
  return (await sandboxStatus(url, timeoutMs))?.pid ?? null;
}

/**
 * Inside `sandbox exec`: the sandbox the command runs against (its URL and database), from the environment exec set.
 */
export function execSandbox(env: NodeJS.ProcessEnv): { url: string; db: string } | undefined {
  return env.UDCLI_SANDBOX_DB && env.UDCLI_BASE_URL
    ? { url: env.UDCLI_BASE_URL.replace(/\/+$/, ''), db: env.UDCLI_SANDBOX_DB }
    : undefined;
}

export async function sandboxState(env: NodeJS.ProcessEnv): Promise<SandboxState> {
  const record = readPidFile(pidFilePath(env));
  if (!record) return { state: 'none' };
  if (!isAlive(record.pid)) return { state: 'stale', record };
  if ((await probe(record.url)) === record.pid) return { state: 'running', record };
  return runsUdcli(record.pid) === false ? { state: 'stale', record } : { state: 'unresponsive', record };
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}
