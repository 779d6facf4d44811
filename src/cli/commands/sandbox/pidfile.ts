/**
 * The records of the running sandboxes (JSON), written by `sandbox start` once it listens and
 * removed when it stops: the default sandbox's at `<dataDir>/sandbox.pid` (where an older udcli
 * wrote its one record, so its running sandbox is still found), every other one's at
 * `<dataDir>/sandboxes/<name>.json` (issue 53). `status`, `stop`, `reset` and `info` read them,
 * and trust one only when its process is alive and answers on its URL with the same pid.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { writeWholeSync } from '../../../write-whole.js';
import { dirname } from 'node:path';
import { DEFAULT_SANDBOX, ensureDataDir, namedSandboxesDir, pidFilePath, recordPath } from '../../../sandbox/paths.js';
import { DEMO } from '../../../domain/demo.js';
import { isAlive } from '../../../lock-file.js';

/** A URL a client can reach from this machine: a sandbox bound to every address answers on loopback. */
export function reachableUrl(url: string): string {
  return url.replace('://0.0.0.0:', '://127.0.0.1:').replace('://[::]:', '://[::1]:');
}

export interface PidRecord {
  /** `default`, `--name`, or `port-<port>` (absent in records of an older udcli: the default one). */
  name?: string;
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

async function stateOf(record: PidRecord | undefined): Promise<SandboxState> {
  if (!record) return { state: 'none' };
  if (!isAlive(record.pid)) return { state: 'stale', record };
  if ((await probe(record.url)) === record.pid) return { state: 'running', record };
  return runsUdcli(record.pid) === false ? { state: 'stale', record } : { state: 'unresponsive', record };
}

/** The sandbox's name: the one its record gives, else the default's (an older udcli's record). */
export const nameOf = (record: Pick<PidRecord, 'name'>): string => record.name ?? DEFAULT_SANDBOX;

/** Every record on this machine's data dir, the default one first, each with its name (alive or not). */
export function sandboxRecords(env: NodeJS.ProcessEnv): PidRecord[] {
  const records: PidRecord[] = [];
  const first = readPidFile(pidFilePath(env));
  if (first) records.push({ ...first, name: DEFAULT_SANDBOX });
  let files: string[] = [];
  try {
    files = readdirSync(namedSandboxesDir(env)).filter((f) => f.endsWith('.json'));
  } catch {
    // No sandbox beside the default one was ever started.
  }
  for (const file of files.sort()) {
    const name = file.slice(0, -'.json'.length);
    const record = readPidFile(recordPath(env, name));
    if (record) records.push({ ...record, name });
  }
  return records;
}

/** The state of the sandbox named `name` (its record alone). */
export async function namedSandboxState(env: NodeJS.ProcessEnv, name: string): Promise<SandboxState> {
  const record = readPidFile(recordPath(env, name));
  return stateOf(record && { ...record, name });
}

/** Every sandbox whose process is alive (running, or silent), the default one first, each with its state. */
export async function liveSandboxes(env: NodeJS.ProcessEnv): Promise<SandboxState[]> {
  const states = await Promise.all(sandboxRecords(env).map((r) => (isAlive(r.pid) ? stateOf(r) : undefined)));
  return states.filter(
    (s): s is SandboxState => s !== undefined && (s.state === 'running' || s.state === 'unresponsive'),
  );
}

/** The port the built-in profile looks at: UDCLI_SANDBOX_PORT, else 8787. */
export function defaultPort(env: NodeJS.ProcessEnv): number {
  const port = Number(env.UDCLI_SANDBOX_PORT);
  return Number.isInteger(port) && port > 0 ? port : DEMO.port;
}

/**
 * Of several live records, "the" sandbox: the one on UDCLI_SANDBOX_PORT when set, else the
 * default one, else the one on 8787, else the first; undefined when there is none.
 */
export function preferred<T extends Pick<PidRecord, 'name' | 'port'>>(
  records: T[],
  env: NodeJS.ProcessEnv,
): T | undefined {
  const asked = env.UDCLI_SANDBOX_PORT ? records.find((r) => r.port === defaultPort(env)) : undefined;
  return (
    asked ??
    records.find((r) => nameOf(r) === DEFAULT_SANDBOX) ??
    records.find((r) => r.port === DEMO.port) ??
    records[0]
  );
}

/** The one line on stderr that says which of several running sandboxes a command chose. */
export function choiceLine(
  chosen: PidRecord,
  all: readonly Pick<PidRecord, 'name' | 'url'>[],
  env: NodeJS.ProcessEnv,
): string {
  const others = all.filter((r) => nameOf(r) !== nameOf(chosen)).map((r) => `${nameOf(r)} at ${reachableUrl(r.url)}`);
  return `udcli: ${all.length} sandboxes are running; using ${nameOf(chosen)} at ${reachableUrl(chosen.url)} (others: ${others.join(', ')}; pick one with UDCLI_SANDBOX_PORT=N)${dataDirNote(env)}\n`;
}

function dataDirNote(env: NodeJS.ProcessEnv): string {
  return env.UDCLI_DATA_DIR ? ` [data dir ${env.UDCLI_DATA_DIR}]` : '';
}

/**
 * "The" running sandbox of the commands that find one (info, reset, play, clock…), of those whose
 * process is alive: preferred() above. When several are alive, `note` gets the line that says
 * which was chosen. With none alive: the default record's state (none, or stale).
 */
export async function sandboxState(env: NodeJS.ProcessEnv, note?: (line: string) => void): Promise<SandboxState> {
  const alive = sandboxRecords(env).filter((r) => isAlive(r.pid));
  const chosen = preferred(alive, env);
  if (chosen === undefined) {
    const own = readPidFile(pidFilePath(env));
    return stateOf(own && { ...own, name: DEFAULT_SANDBOX });
  }
  if (alive.length > 1) note?.(choiceLine(chosen, alive, env));
  return stateOf(chosen);
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !isAlive(pid);
}

/** `--port 9090`, or `--name NAME` for a sandbox started with one: what picks this sandbox in status, stop and logs. */
export function selector(record: Pick<PidRecord, 'name' | 'port'>): string {
  const name = nameOf(record);
  return name === DEFAULT_SANDBOX || name === `port-${record.port}` ? `--port ${record.port}` : `--name ${name}`;
}

/**
 * A command line about this sandbox that works in a new shell: `udcli sandbox stop --port 9090`,
 * with UDCLI_DATA_DIR=… before it when that is set (the record is found through it).
 */
export function commandFor(env: NodeJS.ProcessEnv, verb: string, record: Pick<PidRecord, 'name' | 'port'>): string {
  const dir = env.UDCLI_DATA_DIR;
  const prefix = dir ? `UDCLI_DATA_DIR=${/^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, "'\\''")}'`} ` : '';
  return `${prefix}udcli sandbox ${verb} ${selector(record)}`;
}
