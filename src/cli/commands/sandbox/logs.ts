/**
 * `udcli sandbox logs [-n N|all] [--follow] [--json] [--status …] [--path TEXT] [--since …]`:
 * the detached sandbox's log file (its start-up messages and one line per request), like tail:
 * the last 10 lines, `--follow` from the end on. A filter keeps only the request lines that
 * match it. An agi challenge answered by a signed retry is shown in the retry's line (marked
 * "after signature challenge") and its own line is left out unless `--challenges`, filtered or
 * not: a signed change is one request, and `--status 4xx` shows real failures only (a challenge
 * no retry answered has no mark and stays). `--json` prints only the request lines, each as the
 * JSON object `GET /_sandbox/requests` gives without its ids (`id` starts again with each
 * sandbox; a retry's `challengeId` is one of them). `--follow` keeps printing what is appended
 * until Ctrl-C, like `tail -F`: it waits for a file not there yet, and reads from the top a file
 * truncated or replaced (another inode).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { UdcliError, UsageError } from '../../../errors.js';
import { isClosed, write } from '../../../output/pipe.js';
import type { Factory } from '../../../ops/factory.js';
import { namedLogPath } from '../../../sandbox/paths.js';
import { nameOf, sandboxState } from './pidfile.js';
import { parseSelection, selectedRecord, type RawSelection } from './select.js';
import { parseRequestLine, type RequestRecord } from '../../../sandbox/request-line.js';
import { jsonText, printable } from '../../../printable.js';
import { wantsJson } from './json.js';
import { waitForSignal } from './signals.js';

export interface LogsOptions extends RawSelection {
  follow?: boolean;
  json?: boolean;
  /** -n: how many of the last lines, or `all`. */
  lines?: string;
  status?: string;
  path?: string;
  since?: string;
  /** Also the challenges answered by a signed retry (their own lines). */
  challenges?: boolean;
}

/** What `-n` and the filters ask for, checked. */
export interface LogSelection {
  /** The last this many lines (of those that match); `all` for every one. */
  count: number | 'all';
  /** Null when nothing filters: every line is shown, start-up messages too. */
  match: ((record: RequestRecord) => boolean) | null;
  /** Whether the lines of challenges answered by a signed retry are shown. */
  challenges: boolean;
}

export const DEFAULT_LOG_LINES = 10;
/** -n beyond this is `all` in disguise, kept in memory: refused. */
const MAX_LOG_LINES = 1_000_000;

function parseCount(raw: string | undefined): number | 'all' {
  if (raw === undefined) return DEFAULT_LOG_LINES;
  if (raw.trim().toLowerCase() === 'all') return 'all';
  const value = /^\+?\d{1,7}$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!(value >= 0 && value <= MAX_LOG_LINES))
    throw new UsageError(
      `invalid -n ${JSON.stringify(raw.slice(0, 40))}: expected a number of lines from 0 to ${MAX_LOG_LINES}, or all`,
    );
  return value;
}

/** `--status 4xx,401`: statuses and classes, any of which matches. */
function parseStatus(raw: string): (status: number) => boolean {
  const tests = raw.split(/[,|]/).map((part) => {
    const t = part.trim().toLowerCase();
    if (/^[1-5]xx$/.test(t)) return (status: number) => Math.floor(status / 100) === Number(t[0]);
    if (/^[1-5]\d\d$/.test(t)) return (status: number) => status === Number(t);
    throw new UsageError(
      `invalid --status ${JSON.stringify(raw.slice(0, 40))}: expected statuses or classes like 4xx, 401 or 5xx,429`,
    );
  });
  return (status) => tests.some((test) => test(status));
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since 10m` (s, m, h, d before now) or an ISO date-time: the earliest time shown (ms). */
function parseSince(raw: string, nowMs: number): number {
  const t = raw.trim();
  const m = /^(\d{1,9})([smhd])$/.exec(t);
  if (m) return nowMs - Number(m[1]) * UNIT_MS[m[2]!]!;
  const ms = /^\d{4}-\d\d-\d\d/.test(t)
    ? Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) || t.length === 10 ? t : `${t}Z`)
    : NaN;
  if (Number.isNaN(ms))
    throw new UsageError(
      `invalid --since ${JSON.stringify(raw.slice(0, 40))}: expected a duration like 10m, 2h, 1d, or an ISO date-time like 2030-01-01T12:00:00Z`,
    );
  return ms;
}

export function parseLogSelection(raw: LogsOptions, nowMs: number = Date.now()): LogSelection {
  const count = parseCount(raw.lines);
  const tests: Array<(record: RequestRecord) => boolean> = [];
  if (raw.status !== undefined) {
    const status = parseStatus(raw.status);
    tests.push((r) => status(r.status));
  }
  if (raw.path !== undefined) {
    if (raw.path === '') throw new UsageError('--path needs a text to look for in the request paths');
    const text = raw.path;
    tests.push((r) => r.path.includes(text));
  }
  if (raw.since !== undefined) {
    const since = parseSince(raw.since, nowMs);
    tests.push((r) => Date.parse(r.time) >= since);
  }
  return {
    count,
    match: tests.length === 0 ? null : (record) => tests.every((test) => test(record)),
    challenges: raw.challenges === true,
  };
}

export interface LogsDeps {
  /** Resolves when --follow should stop; default: SIGINT, SIGTERM or SIGHUP. */
  waitForStop?: () => Promise<unknown>;
  /** How often --follow looks for new lines. */
  pollMs?: number;
}

const DEFAULT_POLL_MS = 200;
const CHUNK_BYTES = 64 * 1024;

/** Reads a growing file from where it last stopped, handing on whole lines only. */
class LineReader {
  private offset = 0;
  private ino: number | undefined;
  private carry = '';
  private decoder = new StringDecoder('utf8');

  constructor(private readonly path: string) {}

  /**
   * Hands on the whole lines written since the last call, a chunk at a time (a big log is never
   * held at once); false when the file is absent (no sandbox detached yet).
   */
  async read(onLines: (lines: string[]) => Promise<void> | undefined): Promise<boolean> {
    let file: FileHandle;
    try {
      file = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const { size, ino } = await file.stat();
      if (size < this.offset || ino !== this.ino) {
        // The file was truncated, or replaced by another one: read it from the top.
        this.ino = ino;
        this.offset = 0;
        this.carry = '';
        this.decoder = new StringDecoder('utf8');
      }
      const buffer = Buffer.alloc(CHUNK_BYTES);
      while (this.offset < size) {
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK_BYTES, size - this.offset), this.offset);
        if (bytesRead === 0) break;
        this.offset += bytesRead;
        const text = this.carry + this.decoder.write(buffer.subarray(0, bytesRead));
        const end = text.lastIndexOf('\n');
        this.carry = text.slice(end + 1);
        if (end !== -1) await onLines(text.slice(0, end).split('\n'));
      }
      return true;
    } finally {
      await file.close();
    }
  }

  /** A last line the writer has not ended yet (printed when not following). */
  rest(): string[] {
    return this.carry === '' ? [] : [this.carry];
  }
}

/** The lines to show, as they will be printed (a line each); those that do not match dropped. */
function selected(lines: string[], json: boolean, { match, challenges }: LogSelection): string[] {
  const out: string[] = [];
  for (const line of lines) {
    const record = parseRequestLine(line);
    if (!challenges && record?.handshake === 'challenge') continue;
    if (!json && match === null) {
      // Request lines were escaped when written, but the file also holds whatever else the process
      // printed, and is read back later: each line goes through the one rule again.
      out.push(printable(line));
      continue;
    }
    if (record === null || (match !== null && !match(record))) continue;
    out.push(json ? jsonText(record) : printable(line));
  }
  return out;
}

/** The last `count` lines handed to it, held in a ring (never more than `count` at once). */
class Tail {
  private readonly ring: string[] = [];
  private next = 0;
  constructor(private readonly count: number) {}
  push(lines: string[]): void {
    if (this.count === 0) return;
    for (const line of lines) {
      if (this.ring.length < this.count) this.ring.push(line);
      else {
        this.ring[this.next] = line;
        this.next = (this.next + 1) % this.count;
      }
    }
  }
  lines(): string[] {
    return [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)];
  }
}

/**
 * The log of the sandbox --port or --name names, else of "the" running sandbox (saying which, when
 * several run), else the default sandbox's.
 */
async function logPath(factory: Factory, raw: RawSelection): Promise<string> {
  const { env, stderr } = factory.io;
  const selection = parseSelection(raw);
  if (selection !== undefined) {
    const record = selectedRecord(env, selection);
    if (record === undefined)
      throw new UdcliError(`no sandbox ${selection.what} is recorded`, {
        hint: 'the running sandboxes: udcli sandbox status',
      });
    return record.log ?? namedLogPath(env, nameOf(record));
  }
  const current = await sandboxState(env, (line) => stderr.write(line));
  return current.state === 'none'
    ? namedLogPath(env, 'default')
    : (current.record.log ?? namedLogPath(env, nameOf(current.record)));
}

export async function logsCommand(factory: Factory, raw: LogsOptions, deps: LogsDeps = {}): Promise<void> {
  const { stdout } = factory.io;
  const json = wantsJson(factory, raw.json);
  const selection = parseLogSelection(raw);
  const { count } = selection;
  const path = await logPath(factory, raw);
  const reader = new LineReader(path);

  const print = (lines: string[]) => {
    const shown = selected(lines, json, selection);
    return shown.length === 0 ? undefined : write(stdout, `${shown.join('\n')}\n`);
  };
  // What is there already: all of it streamed, or its last `count` lines kept as it is read.
  const tail = count === 'all' ? null : new Tail(count);
  const found = await reader.read((lines) => (tail ? void tail.push(selected(lines, json, selection)) : print(lines)));
  if (!found && !raw.follow) {
    throw new UdcliError(`no sandbox log at ${path}`, {
      hint: 'a sandbox started with `udcli sandbox start --detach` writes it; a foreground sandbox prints its requests on its own output',
    });
  }
  // A last line the writer has not ended yet counts when not following (it may end later).
  if (!raw.follow) {
    if (tail) tail.push(selected(reader.rest(), json, selection));
    else await print(reader.rest());
  }
  if (tail && tail.lines().length > 0) await write(stdout, `${tail.lines().join('\n')}\n`);
  if (!raw.follow) return;

  let stopped = false;
  const stop = (deps.waitForStop ? deps.waitForStop() : waitForSignal(factory.io)).then(() => {
    stopped = true;
  });
  const pollMs = deps.pollMs ?? DEFAULT_POLL_MS;
  // Until Ctrl-C, or until the reader of our output goes away (`| head`).
  while (!stopped && !isClosed(stdout)) {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([stop, new Promise((resolve) => (timer = setTimeout(resolve, pollMs)))]);
    clearTimeout(timer);
    if (stopped) break;
    await reader.read(print);
  }
}
