/**
 * A lock file beside a file that several udcli processes may change (a batch journal, the
 * config): `<file>.lock` holds `{pid, host, since, nonce}` of its holder.
 *
 * The lock appears complete or not at all: its content is written to a temp file first and
 * hard-linked into place, and link() fails when the lock exists. A lock whose holder is a dead
 * pid on this host is stale and taken over; a lock from another host is never judged (its pid
 * means nothing here), only reported.
 */
import { linkSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, closeSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { nodeCrypto } from './domain/node-crypto.js';

export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

export interface HeldLock {
  readonly path: string;
  /** The dead holder whose stale lock was taken over, if there was one. */
  readonly tookOver?: LockHolder;
  /** Removes the lock if it is still ours. */
  release(): void;
}

/** The lock is held: by `holder`, or by someone whose lock cannot be read (null). */
export class LockBusyError extends Error {
  readonly lockPath: string;
  readonly holder: LockHolder | null;
  constructor(lockPath: string, holder: LockHolder | null) {
    super(holder ? `locked by pid ${holder.pid} on ${holder.host}` : `locked (${lockPath} cannot be read)`);
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

export function lockPathFor(file: string): string {
  return `${file}.lock`;
}

/** How a lock's holder is named in messages: `pid 123` on this host, `pid 123 on host h` elsewhere. */
export function describeHolder(holder: LockHolder | null): string {
  if (!holder) return 'another process';
  return holder.host === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on host ${holder.host}`;
}

/**
 * True while `pid` runs on this host (EPERM: it runs, as another user). A process killed with
 * `kill -9` whose parent never reaps it (a detached sandbox is reparented to init, and a
 * container's init often reaps nothing) stays a zombie, which `kill(pid, 0)` still reports: on
 * Linux, /proc says whether it is one.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** From /proc/<pid>/stat on Linux; false elsewhere or when it cannot be read. */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return false;
  }
  // "pid (comm) S ...": comm may hold spaces and parentheses, so read after the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}

function readLock(path: string): { raw: string; holder: LockHolder | null } | null {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return { raw: '', holder: null };
  }
  try {
    const v = JSON.parse(raw) as Partial<LockHolder>;
    if (typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0 && typeof v.host === 'string') {
      return { raw, holder: { pid: v.pid, host: v.host, since: typeof v.since === 'string' ? v.since : '' } };
    }
  } catch {
    // hand-edited or foreign: cannot be judged
  }
  return { raw, holder: null };
}

/** Creates the lock with its full content, or returns false when it exists. */
function create(path: string, content: string): boolean {
  const temp = `${path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temp, content, { mode: 0o600, flag: 'wx' }); // a fresh name: never through a link planted there
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw error;
    // No hard links on this file system: exclusive create (a reader may briefly see it empty).
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw e;
    }
    try {
      writeSync(fd, content);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Removes a stale lock, but only the one that was judged stale: it is first renamed aside (an
 * atomic step), and put back if it turns out to be a newer lock another process just took.
 */
function removeStale(path: string, staleRaw: string): void {
  const aside = `${path}.${process.pid}.${nodeCrypto().randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readFileSync(aside, 'utf8') !== staleRaw) {
      try {
        linkSync(aside, path);
      } catch {
        // someone locked in between; theirs stands
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Takes the lock now, or throws LockBusyError naming its holder. */
export function tryLock(file: string): HeldLock {
  const path = lockPathFor(file);
  const me: LockHolder & { nonce: string } = {
    pid: process.pid,
    host: hostname(),
    since: new Date().toISOString(),
    nonce: nodeCrypto().randomBytes(8).toString('hex'),
  };
  const content = `${JSON.stringify(me)}\n`;
  let tookOver: LockHolder | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (create(path, content)) {
      return {
        path,
        ...(tookOver ? { tookOver } : {}),
        release: () => {
          if (readLock(path)?.raw === content) rmSync(path, { force: true });
        },
      };
    }
    const found = readLock(path);
    if (!found) continue; // released in between
    const { holder } = found;
    if (!holder || holder.host !== me.host || isAlive(holder.pid) || holder.pid === process.pid) {
      throw new LockBusyError(path, holder);
    }
    removeStale(path, found.raw);
    tookOver = holder;
  }
  throw new LockBusyError(path, readLock(path)?.holder ?? null);
}

/** Takes the lock, waiting up to `timeoutMs` for its holder to release it. */
export async function acquireLock(file: string, options: { timeoutMs: number; pollMs?: number }): Promise<HeldLock> {
  const deadline = Date.now() + options.timeoutMs;
  const poll = options.pollMs ?? 20;
  for (;;) {
    try {
      return tryLock(file);
    } catch (error) {
      if (!(error instanceof LockBusyError) || Date.now() >= deadline) throw error;
    }
    // A little jitter so waiters do not retry in lockstep.
    await new Promise((resolve) => setTimeout(resolve, poll + Math.floor(Math.random() * poll)));
  }
}
