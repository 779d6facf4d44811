// Over 400 lines: the journal's lines, the checks that refuse a wrong one on reading and its writer are one contract.
/**
 * The batch journal: an append-only NDJSON file that makes an interrupted batch resumable
 * without doing anything twice.
 *
 * Line 1 is a header naming the command (operation and arguments) and the target it was written
 * for (server without userinfo, game, profile); a journal written by another command, or for
 * another target (a sandbox rehearsal's journal reused on production), is refused before anything
 * is sent. A complete line that is not a record (a truncated one) is refused too: the journal
 * would not say what was done. Only a torn last line, without its newline, is ignored: that is
 * what `kill -9` mid-write leaves. Each later line is one record `{line, input, uid, status, at, before?}`
 * (an item is its line of the list); the last record of an item wins. An `ok` record also keeps
 * what the run printed for it (`result`: before, after, undo; `resolved`), so a rerun's skipped
 * line says what was done; it reads them from the file as it goes, never all at once. A journal
 * of an earlier udcli has no `result`: its skipped lines say so. Of earlier runs only
 * what resuming needs is kept in memory: the finished lines as runs with a checksum of their text
 * (finished-lines.ts), and the few items that did not finish, so memory stays flat however long
 * the list. A resume checks, line by line as it reads the list, that it is the list the journal
 * was written for. Records are durable (written and fdatasync'ed) before the item is
 * reported, so `kill -9` at any moment loses at most the items in flight. Records finishing
 * together share one write and one sync (group commit), so journaling costs little throughput.
 *
 * For operations that are not safe to repeat, the runner also writes a `started` record before
 * sending, with the user's state read just before (`before`): an item killed in flight is then
 * decided on resume from that state (applied, not applied, or unknown), never sent blindly again.
 *
 * A journal is one run's: a run holds `<journal>.lock` from before it reads the journal (so it
 * never cuts off a record another run is writing) until it closes it. A second run refuses to
 * start; a lock left by a run that died on this host is taken over.
 */
import { closeSync, constants, fsyncSync, ftruncateSync, lstatSync, openSync, readSync, writeSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { printable } from '../printable.js';
import { FinishedLines, lineHash, type LineRun } from './finished-lines.js';
import { describeHolder, LockBusyError, tryLock, type HeldLock } from '../lock-file.js';
import { openAppend, openNoFollow } from '../write-whole.js';

export type JournalStatus = 'started' | 'ok' | 'failed' | 'unknown';

const JOURNAL_STATUSES: ReadonlySet<string> = new Set<JournalStatus>(['started', 'ok', 'failed', 'unknown']);

/** Where a journal's changes went: a rerun must go to the same place. */
export interface JournalTarget {
  /** The base URL, userinfo removed. */
  server: string;
  /** The profile's game (null: none); the command's own `--game` is in its arguments. */
  game: string | null;
  profile: string;
}

/** What the journal belongs to: a rerun must name the same operation with the same arguments, on the same target. */
export interface JournalCommand {
  /** e.g. `achievements reset` */
  operation: string;
  /** The arguments other than the users and the batch options, e.g. [`FIRST_WIN`]. */
  args: string[];
  /** Absent only where no target applies (the runner's own tests); a command always names one. */
  target?: JournalTarget;
  /** Why the run was made (`--reason`, `--ticket`): kept in the header, not compared. */
  reason?: string;
  ticket?: string;
}

export const JOURNAL_FORMAT = 3;

export interface JournalHeader {
  udcli_journal: typeof JOURNAL_FORMAT;
  operation: string;
  args: string[];
  target?: JournalTarget;
  reason?: string;
  ticket?: string;
  created: string;
}

export interface JournalRecord {
  /** The item's line in the list (1-based, as read: blank lines and comments count). */
  line: number;
  input: string;
  uid: string | null;
  status: JournalStatus;
  at: string;
  /** With `started`: the user's state read just before sending (what a resume decides from). */
  before?: unknown;
  /** With `ok`: what the run printed as the item's result (null: none); absent in journals of udcli before 54. */
  result?: unknown;
  /** With `ok`: the lost reply it was decided from. */
  resolved?: { how: 'applied' | 'sent'; detail: string };
}

/** A line an earlier run finished, as its `ok` record says. */
export interface FinishedRecord {
  line: number;
  input: string;
  uid: string | null;
  at: string | null;
  /** Absent: the journal does not keep it (written by an earlier udcli). */
  result?: unknown;
  resolved?: { how: 'applied' | 'sent'; detail: string };
}

/** An item of an earlier run that did not finish. */
export interface JournalEntry {
  input: string;
  uid: string | null;
  status: Exclude<JournalStatus, 'ok'>;
  before?: unknown;
}

/** What an earlier run left for an item: finished, an entry, or nothing. */
export type PriorOutcome = 'finished' | JournalEntry | undefined;

const HEADER_PREFIX = '{"udcli_journal"';

function describeCommand(c: { operation: string; args: string[] }): string {
  return ['udcli', c.operation, ...c.args].join(' ');
}

function sameCommand(h: JournalHeader, c: JournalCommand): boolean {
  return h.operation === c.operation && JSON.stringify(h.args) === JSON.stringify(c.args);
}

/** The first difference between two commands, in words: the operation, an option's value, or an argument. */
function whatDiffers(h: JournalHeader, c: JournalCommand): string {
  if (h.operation !== c.operation) return `it is a journal of \`udcli ${h.operation}\`, not \`udcli ${c.operation}\``;
  const option = (args: string[], name: string) => {
    const i = args.indexOf(name);
    return i === -1 ? undefined : args[i + 1];
  };
  for (const [name, what] of [
    ['--game', 'game'],
    ['--type', 'type'],
  ] as const) {
    const was = option(h.args, name);
    const now = option(c.args, name);
    if (was !== now) return `it was written for ${what} ${was ?? '(none)'}, not ${now ?? '(none)'}`;
  }
  const n = Math.max(h.args.length, c.args.length);
  for (let i = 0; i < n; i++) {
    if (h.args[i] !== c.args[i])
      return `it was written with ${h.args[i] ?? '(nothing)'} where this run has ${c.args[i] ?? '(nothing)'}`;
  }
  return 'its arguments differ';
}

function describeTarget(t: JournalTarget): string {
  return `profile ${t.profile} on ${t.server}${t.game !== null ? ` (game ${t.game})` : ''}`;
}

/** What differs between the target a journal was written for and this run's: `the server and the profile`. */
function targetDiffers(was: JournalTarget, now: JournalTarget): string[] {
  const out: string[] = [];
  if (was.server !== now.server) out.push('the server');
  if (was.game !== now.game) out.push('the game');
  if (was.profile !== now.profile) out.push('the profile');
  return out;
}

function isTarget(v: unknown): v is JournalTarget {
  if (!v || typeof v !== 'object') return false;
  const t = v as Record<string, unknown>;
  return (
    typeof t.server === 'string' && typeof t.profile === 'string' && (t.game === null || typeof t.game === 'string')
  );
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

interface Prior {
  finished: FinishedLines;
  kept: Map<number, JournalEntry>;
}

export class Journal {
  readonly path: string;
  private readonly prior: Prior;
  /** The bytes of complete records when it was opened: what earlier runs wrote. */
  private readonly earlierBytes: number;
  private fh: FileHandle | null;
  private queue: string[] = [];
  private waiters: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private flushing: Promise<void> | null = null;
  private failure: unknown = null;
  private lock: HeldLock | null;

  private constructor(path: string, prior: Prior, earlierBytes: number, fh: FileHandle | null, lock: HeldLock | null) {
    this.path = path;
    this.prior = prior;
    this.earlierBytes = earlierBytes;
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
    if (options.readOnly) return Journal.openLocked(path, command, null, options.notice);
    const lock = Journal.lock(path);
    if (lock.tookOver) {
      const { pid, since } = lock.tookOver;
      options.notice?.(
        `took over the journal lock of pid ${pid}${since ? ` (a run started ${since})` : ''}: that process is gone`,
      );
    }
    try {
      return await Journal.openLocked(path, command, lock, options.notice);
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
        throw new UsageError(
          `journal ${path} is in use by another udcli run (${describeHolder(error.holder)}${since})`,
          {
            hint: `wait for that run to end, or give --journal another file; if no run uses it, remove ${error.lockPath}`,
          },
        );
      }
      throw new UsageError(`cannot lock journal ${path}: ${(error as Error).message}`);
    }
  }

  private static async openLocked(
    path: string,
    command: JournalCommand,
    lock: HeldLock | null,
    notice: ((message: string) => void) | undefined,
  ): Promise<Journal> {
    const options = { readOnly: lock === null };
    let size: number | null = null;
    try {
      // lstat: a link at the journal's name is refused, never written through (issue 40, 3).
      const st = lstatSync(path);
      if (st.isSymbolicLink()) throw new UsageError(`journal is a symbolic link: ${path}; name the journal itself`);
      if (!st.isFile()) throw new UsageError(`journal is not a file: ${path}`);
      size = st.size;
    } catch (e) {
      if (e instanceof UsageError) throw e;
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        throw new UsageError(`cannot read journal ${path}: ${(e as Error).message}`);
    }

    let prior: Prior = { finished: new FinishedLines(), kept: new Map() };
    let earlierBytes = 0;
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
          const wfd = openNoFollow(path, constants.O_RDWR);
          try {
            ftruncateSync(wfd, 0);
          } finally {
            closeSync(wfd);
          }
        }
      } else {
        prior = Journal.load(path, command, complete);
        earlierBytes = complete;
        if (complete < size!)
          notice?.(`ignored the torn last line of journal ${path}: the run writing it was killed mid-write`);
        if (!options.readOnly && complete < size!) {
          // A record torn by a crash: cut it off so the next record starts on a line of its own.
          const wfd = openNoFollow(path, constants.O_RDWR);
          try {
            ftruncateSync(wfd, complete);
            fsyncSync(wfd);
          } finally {
            closeSync(wfd);
          }
        }
      }
    }

    if (options.readOnly) return new Journal(path, prior, earlierBytes, null, null);

    if (fresh) {
      const header: JournalHeader = {
        udcli_journal: JOURNAL_FORMAT,
        operation: command.operation,
        args: command.args,
        ...(command.target ? { target: command.target } : {}),
        ...(command.reason !== undefined ? { reason: command.reason } : {}),
        ...(command.ticket !== undefined ? { ticket: command.ticket } : {}),
        created: new Date().toISOString(),
      };
      let fd: number;
      try {
        fd = openAppend(path, 0o600);
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
    const fh = await open(path, constants.O_WRONLY | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0));
    return new Journal(path, prior, earlierBytes, fh, lock);
  }

  /**
   * Reads the complete records (streaming, up to `complete` bytes); the last record of each item
   * wins. A complete line that is not a record is a UsageError naming it: what it said was done
   * is lost, and a resume would send that user again.
   */
  private static load(path: string, command: JournalCommand, complete: number): Prior {
    const prior: Prior = { finished: new FinishedLines(), kept: new Map() };
    if (complete === 0) return prior;
    // Read synchronously in chunks: every record is parsed and dropped before the next chunk,
    // so a journal of a million records leaves no garbage behind to grow the heap.
    let lineNo = 0;
    const onLine = (line: string) => {
      lineNo++;
      if (lineNo === 1) {
        checkHeader(path, line, command);
        return;
      }
      let rec: Partial<JournalRecord> | null;
      try {
        rec = JSON.parse(line) as Partial<JournalRecord> | null;
      } catch {
        rec = null;
      }
      if (
        !rec ||
        typeof rec.input !== 'string' ||
        !JOURNAL_STATUSES.has(rec.status as string) ||
        !Number.isSafeInteger(rec.line) ||
        rec.line! < 1
      ) {
        throw new UsageError(
          `journal ${path} line ${lineNo} is not a journal record (truncated or edited?): it cannot say what was done there`,
          {
            hint: 'restore the journal from a copy, or check the users by hand and give --journal a new file',
          },
        );
      }
      const at = rec.line!;
      if (rec.status === 'ok') {
        prior.kept.delete(at);
        prior.finished.add(at, rec.input);
      } else if (rec.status === 'started' || rec.status === 'failed' || rec.status === 'unknown') {
        const earlier = prior.kept.get(at);
        // An unknown after a started keeps the state read before sending.
        const before = 'before' in rec ? rec.before : earlier?.before;
        prior.kept.set(at, {
          input: rec.input,
          uid: typeof rec.uid === 'string' ? rec.uid : null,
          status: rec.status,
          ...(before === undefined ? {} : { before }),
        });
      }
    };
    for (const line of journalLines(path, complete)) onLine(line);
    return prior;
  }

  /**
   * The lines earlier runs finished, as their `ok` records say, in the order they were written:
   * read from the file one record at a time, so a million finished lines cost no memory.
   */
  *finished(): Generator<FinishedRecord> {
    let first = true;
    for (const text of journalLines(this.path, this.earlierBytes)) {
      if (first) {
        first = false;
        continue;
      }
      const rec = JSON.parse(text) as Partial<JournalRecord>;
      if (rec.status !== 'ok') continue;
      const out: FinishedRecord = {
        line: rec.line!,
        input: rec.input!,
        uid: typeof rec.uid === 'string' ? rec.uid : null,
        at: typeof rec.at === 'string' ? rec.at : null,
      };
      if ('result' in rec) out.result = rec.result;
      if (rec.resolved) out.resolved = rec.resolved;
      yield out;
    }
  }

  /** Items recorded by earlier runs. */
  get size(): number {
    return this.prior.finished.size + this.prior.kept.size;
  }

  /**
   * Walks the list in line order beside the journal: what an earlier run did to each item, and a
   * UsageError as soon as the list is not the one the journal was written for.
   */
  cursor(): ListCursor {
    return new ListCursor(this.path, this.prior);
  }

  /** Appends a record; resolves once it is on disk. */
  record(rec: Omit<JournalRecord, 'at'> & { at?: string }): Promise<void> {
    if (!this.fh) return Promise.reject(new Error('journal opened read-only'));
    if (this.failure) return Promise.reject(this.failure);
    const line: JournalRecord = {
      line: rec.line,
      input: rec.input,
      uid: rec.uid,
      status: rec.status,
      at: rec.at ?? new Date().toISOString(),
      ...(rec.before === undefined ? {} : { before: rec.before }),
      ...(rec.status === 'ok' ? { result: rec.result ?? null } : {}),
      ...(rec.resolved === undefined ? {} : { resolved: rec.resolved }),
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

/**
 * The journal's lines up to `complete` bytes, one at a time. Read synchronously in chunks, and
 * line by line rather than split into an array: thousands of lines alive at each scavenge would
 * be promoted, and the old generation would grow with the journal.
 */
function* journalLines(path: string, complete: number): Generator<string> {
  if (complete === 0) return;
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(64 * 1024);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    for (let offset = 0; offset < complete; ) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, complete - offset), offset);
      if (n === 0) break;
      offset += n;
      const text = pending + decoder.write(chunk.subarray(0, n));
      let start = 0;
      for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
        yield text.slice(start, end);
        start = end + 1;
      }
      pending = text.slice(start);
    }
    pending += decoder.end();
    if (pending !== '') yield pending;
  } finally {
    closeSync(fd);
  }
}

function checkHeader(path: string, line: string, command: JournalCommand): void {
  let header: Partial<JournalHeader> | null = null;
  try {
    header = JSON.parse(line) as Partial<JournalHeader>;
  } catch {
    header = null;
  }
  const format = header?.udcli_journal as unknown;
  if (!header || typeof format !== 'number' || typeof header.operation !== 'string' || !Array.isArray(header.args)) {
    throw new UsageError(`${path} is not a udcli journal`, {
      hint: 'Give --journal a new file name (it is created), or the journal of an earlier run of this command.',
    });
  }
  if (format !== JOURNAL_FORMAT) {
    throw new UsageError(
      `journal ${path} is in format ${format}, which this udcli cannot resume (it writes format ${JOURNAL_FORMAT})`,
      {
        hint: 'finish it with the udcli that wrote it, or give --journal a new file',
      },
    );
  }
  if (!sameCommand(header as JournalHeader, command)) {
    throw new UsageError(
      `journal ${path} belongs to another command: ${whatDiffers(header as JournalHeader, command)} (\`${describeCommand(header as JournalHeader)}\`, not \`${describeCommand(command)}\`)`,
      { hint: 'Use a new journal file for this command, or rerun the command the journal was written by.' },
    );
  }
  if (command.target) {
    const was = header.target;
    if (!isTarget(was)) {
      throw new UsageError(
        `journal ${path} does not name the target it was written for, so it cannot be resumed against ${printable(describeTarget(command.target))}`,
        {
          hint: 'give --journal a new file',
        },
      );
    }
    const differs = targetDiffers(was, command.target);
    if (differs.length > 0) {
      const what = differs.length === 1 ? differs[0]! : `${differs.slice(0, -1).join(', ')} and ${differs.at(-1)!}`;
      throw new UsageError(
        printable(
          `journal ${path} was written for another target: ${describeTarget(was)}, not ${describeTarget(command.target)} (${what} ${differs.length === 1 ? 'differs' : 'differ'}); nothing was sent`,
        ),
        { hint: 'a journal resumes the run it was written by: give this run a new --journal file' },
      );
    }
  }
}

/** A refusal of a list that is not the journal's: `what` says what differs, the hint the way out. */
export function listDiffers(path: string, what: string, hint?: string): UsageError {
  return new UsageError(`journal ${path} was written for another user list: ${what}`, {
    hint: hint ?? 'resume with the list the journal was written for, or give --journal a new file',
  });
}

/**
 * A run of finished lines whose checksum the list fails: some line in it changed. A list that can
 * be read again is then compared line by line to name it (list-diff.ts).
 */
export class RunDiffersError extends UsageError {
  constructor(
    readonly path: string,
    readonly run: { first: number; last: number },
    what: string,
  ) {
    super(listDiffers(path, what).message, { hint: listDiffers(path, what).hint! });
  }
}

/**
 * The list read in line order against the journal. Unfinished items are compared line by line;
 * a run of finished lines by its checksum once its last line has been read (a changed or missing
 * line in it cannot slip through, and nothing in it is sent meanwhile: finished lines are skipped).
 */
export class ListCursor {
  private readonly runs: LineRun[];
  private index = 0;
  private sum = 0;
  private lastLine = 0;

  constructor(
    private readonly path: string,
    private readonly prior: Prior,
  ) {
    this.runs = prior.finished.runs();
  }

  private differs(what: string): UsageError {
    return listDiffers(this.path, what);
  }

  /** Closes the runs that end before `line`: each must have had all its lines, unchanged. */
  private closeRunsBefore(line: number): void {
    while (this.index < this.runs.length && this.runs[this.index]!.last < line) {
      const run = this.runs[this.index]!;
      if (this.sum !== run.sum) {
        if (run.first === run.last) throw this.differs(`line ${run.first} is not the user it finished`);
        throw new RunDiffersError(
          this.path,
          run,
          `some of lines ${run.first}–${run.last} are not the users it finished (which ones cannot be told without reading the list again)`,
        );
      }
      this.index++;
      this.sum = 0;
    }
  }

  /** What an earlier run did to the item on `line` (lines must come in increasing order). */
  next(line: number, input: string): PriorOutcome {
    this.lastLine = line;
    this.closeRunsBefore(line);
    const run = this.runs[this.index];
    if (run && run.first <= line) {
      this.sum = (this.sum + lineHash(line, input)) >>> 0;
      if (line === run.last) this.closeRunsBefore(line + 1);
      return 'finished';
    }
    const entry = this.prior.kept.get(line);
    if (entry && entry.input !== input)
      throw this.differs(`line ${line} was ${JSON.stringify(entry.input)}, now ${JSON.stringify(input)}`);
    return entry;
  }

  /** At the end of the list: the journal must not know of lines past it. */
  end(): void {
    this.closeRunsBefore(this.lastLine + 1);
    const run = this.runs[this.index];
    let beyond = run ? Math.max(run.first, this.lastLine + 1) : Number.POSITIVE_INFINITY;
    for (const line of this.prior.kept.keys()) if (line > this.lastLine) beyond = Math.min(beyond, line);
    if (Number.isFinite(beyond))
      throw this.differs(`the journal has line ${beyond}, the list ends at line ${this.lastLine}`);
  }
}
