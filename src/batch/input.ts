/**
 * Batch input: `@FILE` or `@-` (standard input), one uid or username a line.
 * Read as a stream, line by line, so a list of a million users keeps memory flat.
 */
import { createReadStream, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { UsageError } from '../errors.js';

export interface BatchItem {
  /** 1-based line number in the input. */
  line: number;
  /** The line, trimmed. */
  input: string;
}

/** True when the argument names a batch input (`@FILE` or `@-`) instead of one user. */
export function isBatchArg(arg: string): boolean {
  return arg.startsWith('@');
}

/** A line break as readline sees it with crlfDelay Infinity: CRLF, LF or a lone CR. */
const LINE_BREAK = /\r\n|\n|\r/;

/** Every non-blank line that is not a `#` comment, trimmed, with its line number. */
export async function* batchLines(stream: NodeJS.ReadableStream): AsyncGenerator<BatchItem> {
  // Split chunk by chunk rather than through readline, whose async iterator costs several
  // microseconds a line (a stream push and an event per line). `for await` pauses the stream
  // between chunks: back-pressure reaches the file, so at most a chunk of lines is held however
  // long the file is.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  const item = (raw: string): BatchItem | null => {
    line++;
    const input = (line === 1 ? raw.replace(/^\uFEFF/, '') : raw).trim();
    return input === '' || input.startsWith('#') ? null : { line, input };
  };
  for await (const chunk of stream as AsyncIterable<string | Buffer>) {
    const text = pending + (typeof chunk === 'string' ? chunk : decoder.write(chunk));
    // A CR at the end may be the first half of a CRLF split across chunks: keep it for the next.
    const cut = text.endsWith('\r') ? text.length - 1 : text.length;
    const lines = text.slice(0, cut).split(LINE_BREAK);
    pending = lines.pop()! + text.slice(cut);
    for (const raw of lines) {
      const it = item(raw);
      if (it) yield it;
    }
  }
  const rest = (pending + decoder.end()).split(LINE_BREAK);
  // "a\n" splits into ["a", ""]: the empty string after the last break is no line.
  if (rest.at(-1) === '') rest.pop();
  for (const raw of rest) {
    const it = item(raw);
    if (it) yield it;
  }
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
  const stream = createReadStream(path, { encoding: 'utf8' });
  try {
    yield* batchLines(stream);
  } finally {
    stream.destroy();
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
