/**
 * The batch journal: an append-only NDJSON file that makes an interrupted batch resumable
 * without doing anything twice.
 *
 * Line 1 is a header naming the command (operation and arguments); a journal written by another
 * command is refused. Each later line is one record `{input, n?, uid, status, at}`; the last
 * record of an item wins. Records are durable (written and fdatasync'ed) before the item is
 * reported, so `kill -9` at any moment loses at most the items in flight. Records finishing
 * together share one write and one sync (group commit), so journaling costs little throughput.
 *
 * For operations that are not safe to repeat, the runner also writes a `started` record before
 * sending: an item killed in flight is then `unknown` on resume, never sent blindly again.
 *
 * A journal is one run's: a run holds `<journal>.lock` from before it reads the journal (so it
 * never cuts off a record another run is writing) until it closes it. A second run refuses to
 * start; a lock left by a run that died on this host is taken over.
 */
import { closeSync, createReadStream, fsyncSync, ftruncateSync, openSync, readSync, statSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { describeHolder, LockBusyError, tryLock, type HeldLock } from '../lock-file.js';

export type JournalStatus = 'started' | 'ok' | 'failed' | 'unknown';

/** What the journal belongs to: a rerun must name the same operation with the same arguments. */
export interface JournalCommand {
  /** e.g. `achievements reset` */
  operation: string;
  /** The arguments other than the users and the batch options, e.g. [`FIRST_WIN`]. */
  args: string[];
}

export interface JournalHeader {
  udcli_journal: 1;
  operation: string;
  args: string[];
  created: string;
}

export interface JournalRecord {
  input: string;
  /** The occurrence of this input line in the list when it appears more than once (2, 3, ...). */
  n?: number;
  uid: string | null;
  status: JournalStatus;
  at: string;
}

export interface JournalEntry {
  uid: string | null;
  status: JournalStatus;
}

const HEADER_PREFIX = '{"udcli_journal"';

/** The key of the n-th occurrence of an input line. */
export function journalKey(input: string, n = 1): string {
  return n > 1 ? `${input}\u0000${n}` : input;
}

function describeCommand(c: { operation: string; args: string[] }): string {
  return ['udcli', c.operation, ...c.args].join(' ');
}

function sameCommand(h: JournalHeader, c: JournalCommand): boolean {
  return h.operation === c.operation && JSON.stringify(h.args) === JSON.stringify(c.args);
}

/** Byte length of the file up to and including its last newline (0 when it has none). */
function completeLength(fd: number, size: number): number {
  const chunk = Buffer.alloc(4096);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const n = readSync(fd, chunk, 0, end - start, start);
    const i = chunk.subarray(0, n).lastIndexOf(0x0a);
    if (i >= 0) return start + i + 1;
    end = start;
  }
  return 0;
}

function fsyncDir(path: string): void {
  try {
    const fd = openSync(dirname(path), 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported everywhere (Windows); the file itself is synced.
  }
}

export class Journal {
  readonly path: string;
  private readonly entries: Map<string, JournalEntry>;
  private fh: FileHandle | null;
  private queue: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing: Promise<void> | null = null;
  private failure: unknown = null;
  private lock: HeldLock | null;

  private constructor(path: string, entries: Map<string, JournalEntry>, fh: FileHandle | null, lock: HeldLock | null) {
    this.path = path;
    this.entries = entries;
    this.fh = fh;
    this.lock = lock;
  }

  /**
   * Opens (or creates) the journal for `command`. A journal of another command is a UsageError.
   * `readOnly` (for --dry-run) reads an existing journal and never creates or writes one (nor
   * locks it). A journal locked by another run is a UsageError naming the holder's pid; `notice`
   * hears of a stale lock taken over.
   */
  static async open(
    path: string,
    command: JournalCommand,
    options: { readOnly?: boolean; notice?: (message: string) => void } = {},
  ): Promise<Journal> {
    if (options.readOnly) return Journal.openLocked(path, command, null);
    const lock = Journal.lock(path);
    if (lock.tookOver) {
      const { pid, since } = lock.tookOver;
      options.notice?.(`took over the journal lock of pid ${pid}${since ? ` (a run started ${since})` : ''}: that process is gone`);
    }
    try {
      return await Journal.openLocked(path, command, lock);
    } catch (error) {
      lock.release();
      throw error;
    }
  }

  private static lock(path: string): HeldLock {
    try {
      return tryLock(path);
    } catch (error) {
      if (error instanceof LockBusyError) {
        const since = error.holder?.since ? ` since ${error.holder.since}` : '';
        throw new UsageError(`journal ${path} is in use by another udcli run (${describeHolder(error.holder)}${since})`, {
          hint: `wait for that run to end, or give --journal another file; if no run uses it, remove ${error.lockPath}`,
        });
      }
      throw new UsageError(`cannot lock journal ${path}: ${(error as Error).message}`);
    }
  }

  private static async openLocked(path: string, command: JournalCommand, lock: HeldLock | null): Promise<Journal> {
    const options = { readOnly: lock === null };
    let size: number | null = null;
    try {
      const st = statSync(path);
      if (!st.isFile()) throw new UsageError(`journal is not a file: ${path}`);
      size = st.size;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`cannot read journal ${path}: ${(e as Error).message}`);
    }

    let entries = new Map<string, JournalEntry>();
    let fresh = size === null || size === 0;
    if (!fresh) {
      const fd = openSync(path, 'r');
      let complete: number;
      let head: string;
      try {
        complete = completeLength(fd, size!);
        const buf = Buffer.alloc(Math.min(size!, HEADER_PREFIX.length));
        readSync(fd, buf, 0, buf.length, 0);
        head = buf.toString('utf8');
      } finally {
        closeSync(fd);
      }
      if (complete === 0 && HEADER_PREFIX.startsWith(head.slice(0, HEADER_PREFIX.length)) && head.length > 0) {
        // Only a torn header was ever written: nothing was done under it.
        fresh = true;
        if (!options.readOnly) {
          const wfd = openSync(path, 'r+');
          try {
            ftruncateSync(wfd, 0);
          } finally {
            closeSync(wfd);
          }
        }
      } else {
        entries = await Journal.load(path, command);
        if (!options.readOnly && complete < size!) {
          // A record torn by a crash: cut it off so the next record starts on a line of its own.
          const wfd = openSync(path, 'r+');
          try {
            ftruncateSync(wfd, complete);
            fsyncSync(wfd);
          } finally {
            closeSync(wfd);
          }
        }
      }
    }

    if (options.readOnly) return new Journal(path, entries, null, null);

    if (fresh) {
      const header: JournalHeader = {
        udcli_journal: 1,
        operation: command.operation,
        args: command.args,
        created: new Date().toISOString(),
      };
      let fd: number;
      try {
        fd = openSync(path, 'a', 0o600);
      } catch (e) {
        throw new UsageError(`cannot create journal ${path}: ${(e as Error).message}`);
      }
      try {
        writeSync(fd, `${JSON.stringify(header)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      fsyncDir(path);
    }
    const fh = await open(path, 'a');
    return new Journal(path, entries, fh, lock);
  }

  /** Reads every record (streaming); the last record of each item wins. Torn or foreign lines are skipped. */
  private static async load(path: string, command: JournalCommand): Promise<Map<string, JournalEntry>> {
    const entries = new Map<string, JournalEntry>();
    const stream = createReadStream(path, { encoding: 'utf8' });
    const rl = createInterface({ input: stream, crlfDelay: Infinity });
    let first = true;
    try {
      for await (const line of rl) {
        if (first) {
          first = false;
          let header: Partial<JournalHeader> | null = null;
          try {
            header = JSON.parse(line) as Partial<JournalHeader>;
          } catch {
            header = null;
          }
          if (!header || header.udcli_journal !== 1 || typeof header.operation !== 'string' || !Array.isArray(header.args)) {
            throw new UsageError(`${path} is not a udcli journal`, {
              hint: 'Give --journal a new file name (it is created), or the journal of an earlier run of this command.',
            });
          }
          if (!sameCommand(header as JournalHeader, command)) {
            throw new UsageError(
              `journal ${path} belongs to another command: \`${describeCommand(header as JournalHeader)}\`, not \`${describeCommand(command)}\``,
              { hint: 'Use a new journal file for this command, or rerun the command the journal was written by.' },
            );
          }
          continue;
        }
        let rec: Partial<JournalRecord>;
        try {
          rec = JSON.parse(line) as Partial<JournalRecord>;
        } catch {
          continue; // torn by a crash mid-write
        }
        if (typeof rec.input !== 'string' || typeof rec.status !== 'string') continue;
        const uid = typeof rec.uid === 'string' ? (rec.uid === rec.input ? rec.input : rec.uid) : null;
        entries.set(journalKey(rec.input, typeof rec.n === 'number' ? rec.n : 1), { uid, status: rec.status });
      }
    } finally {
      rl.close();
      stream.destroy();
    }
    return entries;
  }

  /** The last record of the item, from earlier runs (records of this run are not looked up). */
  lookup(key: string): JournalEntry | undefined {
    return this.entries.get(key);
  }

  /** Number of items recorded by earlier runs. */
  get size(): number {
    return this.entries.size;
  }

  /** Appends a record; resolves once it is on disk. */
  record(rec: Omit<JournalRecord, 'at'> & { at?: string }): Promise<void> {
    if (!this.fh) return Promise.reject(new Error('journal opened read-only'));
    if (this.failure) return Promise.reject(this.failure);
    const line: JournalRecord = {
      input: rec.input,
      ...(rec.n && rec.n > 1 ? { n: rec.n } : {}),
      uid: rec.uid,
      status: rec.status,
      at: rec.at ?? new Date().toISOString(),
    };
    return new Promise<void>((resolve, reject) => {
      this.queue.push(`${JSON.stringify(line)}\n`);
      this.waiters.push({ resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  private async flush(): Promise<void> {
    const fh = this.fh!;
    while (this.queue.length > 0) {
      const data = Buffer.from(this.queue.join(''), 'utf8');
      const waiters = this.waiters;
      this.queue = [];
      this.waiters = [];
      try {
        let off = 0;
        while (off < data.length) {
          const { bytesWritten } = await fh.write(data, off, data.length - off);
          off += bytesWritten;
        }
        await fh.datasync();
        for (const w of waiters) w.resolve();
      } catch (e) {
        this.failure = new Error(`cannot write journal ${this.path}: ${(e as Error).message}`);
        for (const w of waiters) w.reject(this.failure);
        for (const w of this.waiters) w.reject(this.failure);
        this.waiters = [];
        this.queue = [];
      }
    }
    this.flushing = null;
  }

  async close(): Promise<void> {
    try {
      if (this.flushing) await this.flushing;
      if (this.fh) {
        const fh = this.fh;
        this.fh = null;
        await fh.close();
      }
    } finally {
      this.lock?.release();
      this.lock = null;
    }
  }
}
