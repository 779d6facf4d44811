/**
 * Batch input: `@FILE` or `@-` (standard input), one uid or username a line.
 * Read as a stream, line by line, so a list of a million users keeps memory flat.
 */
import { statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../errors.js';

export interface BatchItem {
  /** 1-based line number in the input. */
  line: number;
  /** The line, trimmed (cut short, ending in `…`, when the line is too long). */
  input: string;
  /** Why this line is no user (too long): the runner reports it failed and sends nothing. */
  error?: string;
}

/** True when the argument names a batch input (`@FILE` or `@-`) instead of one user. */
export function isBatchArg(arg: string): boolean {
  return arg.startsWith('@');
}

/** The longest line taken as a user: a uid or username is far shorter. */
export const MAX_LINE_LENGTH = 4096;
/** A line still without a break after this much is no list of users (`@/dev/zero`): the input is refused. */
export const MAX_SKIPPED_LINE = 64 * 1024 * 1024;
/** How much of a too-long line its item shows. */
const SHOWN = 40;

/** Line breaks are as readline sees them with crlfDelay Infinity: CRLF, LF or a lone CR. */
/** Every non-blank line that is not a `#` comment, trimmed, with its line number. */
export async function* batchLines(stream: NodeJS.ReadableStream | AsyncIterable<Buffer>): AsyncGenerator<BatchItem> {
  // Split chunk by chunk rather than through readline, whose async iterator costs several
  // microseconds a line (a stream push and an event per line). `for await` pauses the stream
  // between chunks: back-pressure reaches the file, so at most a chunk of lines is held however
  // long the file is. The unfinished last line carried to the next chunk is kept to at most
  // MAX_LINE_LENGTH + 1 characters (the rest is only counted), so a huge line costs neither
  // memory nor repeated splitting.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  /** Characters of the pending line dropped beyond what `pending` keeps. */
  let dropped = 0;
  let line = 0;
  const item = (raw: string, extra: number): BatchItem | null => {
    line++;
    const input = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    if (input.length + extra > MAX_LINE_LENGTH) {
      return {
        line,
        input: `${input.slice(0, SHOWN)}…`,
        error: `line ${line} is ${input.length + extra} characters long, over the ${MAX_LINE_LENGTH} a line allows (one uid or username a line): not sent`,
      };
    }
    return input === '' || input.startsWith('#') ? null : { line, input };
  };
  const keepPending = (text: string) => {
    // A CR at the end may be the first half of a CRLF split across chunks: it stays at the end.
    const cr = text.endsWith('\r') ? '\r' : '';
    const body = cr ? text.slice(0, -1) : text;
    if (body.length <= MAX_LINE_LENGTH + 1) {
      pending = text;
      return;
    }
    dropped += body.length - (MAX_LINE_LENGTH + 1);
    if (dropped > MAX_SKIPPED_LINE) {
      throw new UsageError(
        `line ${line + 1} of the batch input runs past ${MAX_SKIPPED_LINE / 1024 / 1024} MiB without a line break: not a list of users`,
        {
          hint: 'give a text file with one uid or username a line',
        },
      );
    }
    pending = body.slice(0, MAX_LINE_LENGTH + 1) + cr;
  };
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    const text = pending + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    // One line is cut out at a time, just before it is handed on: a chunk split into an array
    // of thousands of lines would be alive at every scavenge, and V8 would then allocate such
    // strings straight in the old generation, whose garbage grows the heap with the list.
    let start = 0;
    for (let at = nextBreak(text, 0); at !== -1; at = nextBreak(text, start)) {
      // A CR at the very end may be the first half of a CRLF split across chunks: it waits.
      if (at === text.length - 1 && text.charCodeAt(at) === CR) break;
      const raw = text.slice(start, at);
      start = at + (text.charCodeAt(at) === CR && text.charCodeAt(at + 1) === LF ? 2 : 1);
      const it = item(raw, dropped);
      dropped = 0;
      if (it) yield it;
    }
    keepPending(text.slice(start));
  }
  const rest = pending + decoder.end();
  let start = 0;
  for (let at = nextBreak(rest, 0); at !== -1; at = nextBreak(rest, start)) {
    const raw = rest.slice(start, at);
    start = at + (rest.charCodeAt(at) === CR && rest.charCodeAt(at + 1) === LF ? 2 : 1);
    const it = item(raw, dropped);
    dropped = 0;
    if (it) yield it;
  }
  // "a\n" ends with the break: nothing after it is a line.
  if (start < rest.length) {
    const it = item(rest.slice(start), dropped);
    if (it) yield it;
  }
}

const LF = 10;
const CR = 13;

/** Index of the next line break (CR or LF; a CRLF starts at its CR) at or after `from`, or -1. */
function nextBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === LF || c === CR) return i;
  }
  return -1;
}

/**
 * The items of `@FILE` / `@-`. Checks the file at once (synchronously), so a missing file is a
 * UsageError before any confirmation or request; the lines are read lazily when iterated.
 */
export function readBatchInput(spec: string, stdin: NodeJS.ReadableStream): AsyncIterable<BatchItem> {
  if (!isBatchArg(spec)) throw new UsageError(`not a batch input: ${spec} (expected @FILE or @-)`);
  const path = spec.slice(1);
  if (path === '') throw new UsageError('batch input needs a file name after @ (or @- for standard input)');
  if (path === '-') return batchLines(stdin);
  let isFile: boolean;
  try {
    const st = statSync(path);
    isFile = st.isFile() || st.isFIFO();
  } catch {
    throw new UsageError(`batch input file not found: ${path}`, {
      hint: 'Give one uid or username a line in the file, or use @- to read standard input.',
    });
  }
  if (!isFile) throw new UsageError(`batch input is not a file: ${path}`);
  return { [Symbol.asyncIterator]: () => fileLines(path) };
}

async function* fileLines(path: string): AsyncGenerator<BatchItem> {
  yield* batchLines(fileChunks(path));
}

/**
 * A file's bytes a chunk at a time, read into one reused buffer (each chunk is decoded before the
 * next read), so a list of a million lines allocates no buffer per chunk. The reads are
 * asynchronous: a named pipe or a slow disk never stalls the requests in flight, and the event
 * loop (and the garbage collector's idle work) gets a turn between chunks.
 */
async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return;
      yield buffer.subarray(0, bytesRead);
    }
  } finally {
    await file.close();
  }
}

/**
 * How many items a batch file holds (a streaming pass, memory flat), for a progress ETA.
 * Null for standard input or anything that is not a regular file.
 */
export async function countBatchItems(spec: string): Promise<number | null> {
  const path = spec.slice(1);
  if (path === '-' || path === '') return null;
  try {
    if (!statSync(path).isFile()) return null;
  } catch {
    return null;
  }
  let n = 0;
  for await (const _ of fileLines(path)) n++;
  return n;
}
