/**
 * Reads a HAR file as a stream: entries are handed over one at a time, each parsed on its own,
 * so a 100 MB recording needs the memory of one entry, not of the file. A light scanner follows
 * the JSON's structure (strings skipped whole) to find `log.version`, `log.creator` and each
 * element of `log.entries`; JSON.parse checks each entry's text. Memory is bounded everywhere
 * in the file, not only inside the entries: what is held is one entry (MAX_ENTRY_CHARS), the
 * head's two fields, a member name (MAX_KEY_CHARS) and a frame per open bracket (MAX_DEPTH).
 * Anything wrong (not JSON, not a HAR, cut short, an entry too large, nested too deep) is one
 * HarFileError naming the file.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { UsageError } from '../errors.js';
import { grouped } from '../domain/grouped.js';

export class HarFileError extends UsageError {}

/** An entry's text beyond this is refused: a recording never makes a reader hold more. */
export const MAX_ENTRY_CHARS = 32 * 1024 * 1024;
const MAX_HEAD_CHARS = 64 * 1024;
/**
 * Brackets open at once, anywhere in the file (issue 40, 4): the scanner keeps a frame per open
 * bracket, so without a bound a file of nested brackets outside the entries (20 MB: 1.5 GB)
 * grew it without end. A browser's recording nests about a dozen deep (an initiator's async
 * stack a few dozen); this leaves room for any, and JSON.parse of an entry never recurses deeper.
 */
export const MAX_DEPTH = 512;
const MAX_KEY_CHARS = 256;

export interface HarHead {
  version?: string;
  creator?: { name?: string; version?: string };
}

interface Frame {
  array: boolean;
  /** The member being read (objects, at the shallow depths that matter). */
  key: string | undefined;
}

type Target = 'entry' | 'version' | 'creator';
interface Captured {
  target: Target;
  text: string;
  index: number;
}

class Scanner {
  readonly stack: Frame[] = [];
  readonly done: Captured[] = [];
  sawRoot = false;
  sawLog = false;
  sawEntries = false;
  #inString = false;
  #stringIsKey = false;
  #escape = false;
  #inLiteral = false;
  #expectKey = false;
  #key: string | null = null;
  #capture: { target: Target; depth: number; parts: string[]; length: number } | undefined;
  #capStart = -1;
  entryIndex = 0;

  constructor(private readonly fail: (what: string) => never) {}

  #target(): Target | undefined {
    const s = this.stack;
    if (s.length === 3 && s[0]!.key === 'log' && s[1]!.key === 'entries' && s[2]!.array && !s[1]!.array) return 'entry';
    if (s.length === 2 && s[0]!.key === 'log' && !s[1]!.array && (s[1]!.key === 'version' || s[1]!.key === 'creator'))
      return s[1]!.key;
    return undefined;
  }

  #valueStart(i: number, opener: number): void {
    if (this.stack.length === 0) {
      if (this.sawRoot) this.fail('not JSON: more than one value');
      if (opener !== 0x7b) this.fail('not a HAR: the file is not a JSON object');
      this.sawRoot = true;
      return;
    }
    const s = this.stack;
    if (s.length === 1 && s[0]!.key === 'log') {
      if (opener !== 0x7b) this.fail('not a HAR: log is not an object');
      this.sawLog = true;
    }
    if (s.length === 2 && s[0]!.key === 'log' && s[1]!.key === 'entries' && !s[1]!.array) {
      if (opener !== 0x5b) this.fail('not a HAR: log.entries is not an array');
      this.sawEntries = true;
    }
    if (this.#capture) return;
    const target = this.#target();
    if (!target) return;
    if (target === 'entry' && opener !== 0x7b) this.fail(`entry ${this.entryIndex} is not an object`);
    this.#capture = { target, depth: this.stack.length, parts: [], length: 0 };
    this.#capStart = i;
  }

  #valueEnd(chunk: string, end: number): void {
    const capture = this.#capture;
    if (!capture || this.stack.length !== capture.depth) return;
    capture.parts.push(chunk.slice(this.#capStart, end));
    this.done.push({ target: capture.target, text: capture.parts.join(''), index: this.entryIndex });
    if (capture.target === 'entry') this.entryIndex++;
    this.#capture = undefined;
    this.#capStart = -1;
  }

  feed(chunk: string): void {
    if (this.#capture) this.#capStart = 0;
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.#inString) {
        if (this.#escape) {
          this.#escape = false;
          if (this.#key !== null && this.#key.length < MAX_KEY_CHARS) this.#key += chunk[i];
          i++;
          continue;
        }
        let q = chunk.indexOf('"', i);
        const b = chunk.indexOf('\\', i);
        if (b !== -1 && (q === -1 || b < q)) q = b;
        if (q === -1) {
          if (this.#key !== null && this.#key.length < MAX_KEY_CHARS) this.#key += chunk.slice(i, i + MAX_KEY_CHARS);
          i = n;
          break;
        }
        if (this.#key !== null && this.#key.length < MAX_KEY_CHARS)
          this.#key += chunk.slice(i, Math.min(q, i + MAX_KEY_CHARS));
        if (chunk.charCodeAt(q) === 0x5c) {
          this.#escape = true;
          i = q + 1;
          continue;
        }
        this.#inString = false;
        i = q + 1;
        if (this.#stringIsKey) {
          if (this.#key !== null) this.stack[this.stack.length - 1]!.key = this.#key;
          this.#key = null;
          this.#expectKey = false;
        } else this.#valueEnd(chunk, i);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        if (this.#inLiteral) {
          this.#inLiteral = false;
          this.#valueEnd(chunk, i);
        }
        i++;
        continue;
      }
      if (this.#inLiteral && (c === 0x2c || c === 0x5d || c === 0x7d)) {
        this.#inLiteral = false;
        this.#valueEnd(chunk, i);
      }
      const top = this.stack[this.stack.length - 1];
      switch (c) {
        case 0x22: // "
          this.#inString = true;
          if (top && !top.array && this.#expectKey) {
            this.#stringIsKey = true;
            this.#key = this.stack.length <= 3 ? '' : null;
          } else {
            this.#stringIsKey = false;
            this.#valueStart(i, c);
          }
          break;
        case 0x7b: // {
        case 0x5b: // [
          if (top && !top.array && this.#expectKey) this.fail('not JSON: a value where a member name belongs');
          this.#valueStart(i, c);
          if (this.stack.length >= MAX_DEPTH) this.fail(`nested more than ${MAX_DEPTH} levels deep: not a recording`);
          this.stack.push({ array: c === 0x5b, key: undefined });
          this.#expectKey = c === 0x7b;
          break;
        case 0x7d: // }
        case 0x5d: {
          // ]
          if (!top || top.array !== (c === 0x5d)) this.fail('not JSON: brackets do not match');
          this.stack.pop();
          this.#expectKey = false;
          this.#valueEnd(chunk, i + 1);
          break;
        }
        case 0x2c: // ,
          if (top && !top.array) this.#expectKey = true;
          break;
        case 0x3a: // :
          break;
        default:
          if (!this.#inLiteral) {
            if (!/[-0-9a-z.+]/i.test(chunk[i]!))
              this.fail(`not JSON: unexpected character ${JSON.stringify(chunk[i])}`);
            if (top && !top.array && this.#expectKey) this.fail('not JSON: a member name is not a string');
            this.#inLiteral = true;
            this.#valueStart(i, c);
          }
      }
      i++;
    }
    const capture = this.#capture;
    if (capture && this.#capStart !== -1) {
      const part = chunk.slice(this.#capStart);
      capture.parts.push(part);
      capture.length += part.length;
      const limit = capture.target === 'entry' ? MAX_ENTRY_CHARS : MAX_HEAD_CHARS;
      if (capture.length > limit) {
        this.fail(
          capture.target === 'entry'
            ? `entry ${this.entryIndex} is larger than ${MAX_ENTRY_CHARS / 1024 / 1024} MiB`
            : `log.${capture.target} is too large`,
        );
      }
    }
  }

  end(): void {
    if (this.#inLiteral) this.fail('not JSON: cut short');
    if (!this.sawRoot) this.fail('empty: not a HAR');
    if (this.#inString || this.stack.length > 0) this.fail(`cut short (truncated) after ${this.entryIndex} entries`);
    if (!this.sawLog) this.fail('not a HAR: no log object');
    if (!this.sawEntries) this.fail('not a HAR: no log.entries');
  }
}

/**
 * Brackets open at once in a body (a reply's `content.text`, a request's `postData.text`), at
 * most. A body is a string to the scanner, but its readers parse it as JSON, and JSON.parse holds
 * a value per level: 20 MB of brackets in one body took 440 MB. Far above any real reply (and the
 * 100,000 levels `sandbox diff` is shown comparing), far below what costs memory.
 */
export const MAX_BODY_DEPTH = 1_000_000;

/** Which body of the entry is nested deeper than MAX_BODY_DEPTH, if one is; a body too short to be is not scanned. */
function tooDeepBody(entry: unknown): string | undefined {
  const e = entry as {
    request?: { postData?: { text?: unknown } };
    response?: { content?: { text?: unknown; encoding?: unknown } };
  } | null;
  const content = e?.response?.content;
  if (typeof content?.text === 'string' && content.text.length > MAX_BODY_DEPTH) {
    const text = content.encoding === 'base64' ? Buffer.from(content.text, 'base64').toString('utf8') : content.text;
    if (nestedDeeper(text, MAX_BODY_DEPTH)) return 'response body';
  }
  const posted = e?.request?.postData?.text;
  if (typeof posted === 'string' && posted.length > MAX_BODY_DEPTH && nestedDeeper(posted, MAX_BODY_DEPTH))
    return 'request body';
  return undefined;
}

/** Does `text`, read as JSON, open more than `max` brackets at once (strings skipped)? */
function nestedDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export interface ReadHarOptions {
  /** Bytes read at a time (tests use small chunks to cross every boundary). */
  chunkBytes?: number;
}

/**
 * Reads `path`, calling `onEntry` with each entry (parsed) and its index, in order; resolves to
 * the log's head and the number of entries. Throws HarFileError for anything that is not a
 * whole HAR (the entries before the problem have been handed over by then: a caller that must
 * not act on a broken file reads it once without acting first).
 */
export async function readHar(
  path: string,
  onEntry: (entry: Record<string, unknown>, index: number) => void | Promise<void>,
  options: ReadHarOptions = {},
): Promise<{ head: HarHead; entries: number }> {
  const fail = (what: string): never => {
    throw new HarFileError(`${path}: ${what}`);
  };
  try {
    const info = await stat(path);
    if (!info.isFile()) fail('not a regular file');
  } catch (error) {
    if (error instanceof HarFileError) throw error;
    fail(
      `cannot read it: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  const scanner = new Scanner(fail);
  const head: HarHead = {};
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: options.chunkBytes ?? 1024 * 1024 });
  let first = true;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      scanner.feed(first ? chunk.replace(/^\uFEFF/, '') : chunk);
      first = false;
      for (const captured of scanner.done.splice(0)) {
        let value: unknown;
        try {
          value = JSON.parse(captured.text);
        } catch (error) {
          fail(
            `${captured.target === 'entry' ? `entry ${captured.index}` : `log.${captured.target}`} is not valid JSON: ${(error as Error).message}`,
          );
        }
        if (captured.target === 'version') {
          if (typeof value !== 'string') fail('not a HAR: log.version is not a string');
          head.version = value as string;
        } else if (captured.target === 'creator') {
          if (value === null || typeof value !== 'object') fail('not a HAR: log.creator is not an object');
          const creator = value as Record<string, unknown>;
          head.creator = {
            ...(typeof creator.name === 'string' ? { name: creator.name } : {}),
            ...(typeof creator.version === 'string' ? { version: creator.version } : {}),
          };
        } else {
          const deep = tooDeepBody(value);
          if (deep !== undefined)
            fail(
              `entry ${captured.index}: its ${deep} is nested more than ${grouped(MAX_BODY_DEPTH)} levels deep: not a recording`,
            );
          await onEntry(value as Record<string, unknown>, captured.index);
        }
      }
    }
  } catch (error) {
    stream.destroy();
    if (error instanceof HarFileError) throw error;
    fail(`cannot read it: ${(error as Error).message}`);
  }
  scanner.end();
  return { head, entries: scanner.entryIndex };
}
