/**
 * `--har FILE`: every exchange of a command added to FILE, which stays a valid HAR 1.2 at every
 * moment: each write is a whole new file (mode 0600) renamed over the old one, so a command that
 * fails or is interrupted leaves the file as it was after its last complete write. The entries
 * of earlier commands are kept, and so is the file's redaction salt, so one secret keeps one
 * placeholder across the commands that share a file.
 */
import { accessSync, closeSync, constants, fstatSync, openSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { harEntry, type RecordedExchange } from './entry.js';
import { HAR_VERSION, type HarCreator } from './format.js';
import { Redactor } from './redaction.js';

/** An existing recording larger than this is not appended to (it would be read whole into memory). */
export const MAX_APPENDED_BYTES = 256 * 1024 * 1024;
/** Writes closer together than this are gathered into one (a batch of 10,000 users). */
const GATHER_MS = 200;

export interface HarRecorder {
  record(exchange: RecordedExchange): void;
  /** Writes what is pending; the file is complete after it. */
  flush(): void;
  readonly path: string;
}

interface Existing {
  entries: string[];
  salt?: string;
}

function readExisting(path: string): Existing {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [] };
    throw new UsageError(`--har ${path}: cannot read it: ${(error as Error).message}`);
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`--har ${path}: not a regular file`);
    if (stat.size === 0) return { entries: [] };
    if (stat.size > MAX_APPENDED_BYTES) throw new UsageError(`--har ${path}: the recording is larger than ${MAX_APPENDED_BYTES / 1024 / 1024} MiB; start a new file`);
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; ) length += n;
    text = buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--har ${path}: the file exists and is not a HAR (not JSON); nothing was sent`, { hint: 'name a new file, or the recording to add to' });
  }
  const log = (parsed as { log?: { entries?: unknown; _udcli?: { salt?: unknown } } } | null)?.log;
  if (!log || !Array.isArray(log.entries)) {
    throw new UsageError(`--har ${path}: the file exists and is not a HAR (no log.entries); nothing was sent`, { hint: 'name a new file, or the recording to add to' });
  }
  const salt = typeof log._udcli?.salt === 'string' && /^[0-9a-f]{32}$/.test(log._udcli.salt) ? log._udcli.salt : undefined;
  return { entries: (log.entries as unknown[]).map((e) => JSON.stringify(e)), ...(salt ? { salt } : {}) };
}

export interface RecorderOptions {
  creator: HarCreator;
  /** Secrets known before any exchange (the profile's api key, signing secret, cookie). */
  secrets?: ReadonlyArray<string | undefined>;
  now?: () => number;
}

/** Opens (or starts) the recording at `path`; a file there that is not a HAR is refused before anything is sent. */
export function openHarRecorder(path: string, options: RecorderOptions): HarRecorder {
  const existing = readExisting(path);
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (error) {
    throw new UsageError(`--har ${path}: cannot write there: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message}; nothing was sent`);
  }
  const redactor = new Redactor(existing.salt);
  for (const secret of options.secrets ?? []) redactor.know(secret);
  const entries = existing.entries;
  const now = options.now ?? Date.now;
  let dirty = false;
  let lastWrite = 0;
  let timer: NodeJS.Timeout | undefined;

  const head = JSON.stringify({ version: HAR_VERSION, creator: options.creator, pages: [] }).slice(0, -1);
  const udcli = JSON.stringify({ salt: redactor.salt });

  function write(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!dirty) return;
    dirty = false;
    lastWrite = now();
    const text = `{"log":${head},"_udcli":${udcli},"entries":[\n${entries.join(',\n')}\n]}}\n`;
    const temp = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
    try {
      writeFileSync(temp, text, { mode: 0o600 });
      renameSync(temp, path);
    } catch (error) {
      try {
        unlinkSync(temp);
      } catch {
        // never written
      }
      throw error;
    }
  }

  return {
    path,
    record(exchange) {
      redactor.nextEntry();
      entries.push(redactor.scrub(JSON.stringify(harEntry(exchange, redactor))));
      dirty = true;
      const since = now() - lastWrite;
      if (since >= GATHER_MS) write();
      else if (!timer) {
        timer = setTimeout(write, GATHER_MS - since);
        timer.unref();
      }
    },
    flush: write,
  };
}
