/**
 * `--har FILE`: every exchange of a command added to FILE, which stays a valid HAR 1.2 at every
 * moment: each write makes a new file (mode 0600) and renames it over the old one, so a command
 * that fails or is killed leaves the file as it was after its last complete write. The entries of
 * earlier commands are kept, and so is the file's redaction salt, so one secret keeps one
 * placeholder across the commands that share a file. After a run's first write, a write is a
 * copy of the file with the new entries added before its closing (not the whole file again); a
 * file another command wrote meanwhile is read and written whole.
 */
import {
  accessSync,
  closeSync,
  constants,
  copyFileSync,
  fchmodSync,
  fstatSync,
  ftruncateSync,
  readSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';
import { openNoFollow, replaceWhole, type TempFile } from '../write-whole.js';
import { harEntry, type RecordedExchange } from './entry.js';
import { HAR_VERSION, type HarCreator } from './format.js';
import { Redactor } from './redaction.js';

/** An existing recording larger than this is not appended to (it would be read whole into memory). */
export const MAX_APPENDED_BYTES = 256 * 1024 * 1024;
/** How every file this writes ends: new entries go before it. */
const CLOSING = '\n]}}\n';
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
    // Never through a link: the recording is replaced by a regular file, not written where a link points.
    fd = openNoFollow(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { entries: [] };
    if (code === 'ELOOP')
      throw new UsageError(`--har ${path}: a symbolic link; name the recording itself; nothing was sent`);
    if (code === 'EFTYPE') throw new UsageError(`--har ${path}: not a regular file`);
    throw new UsageError(`--har ${path}: cannot read it: ${(error as Error).message}`);
  }
  let text: string;
  try {
    const stat = fstatSync(fd);
    if (stat.size === 0) return { entries: [] };
    if (stat.size > MAX_APPENDED_BYTES)
      throw new UsageError(
        `--har ${path}: the recording is larger than ${MAX_APPENDED_BYTES / 1024 / 1024} MiB; start a new file`,
      );
    const buffer = Buffer.alloc(stat.size);
    let length = 0;
    for (let n; length < buffer.length && (n = readSync(fd, buffer, length, buffer.length - length, null)) > 0; )
      length += n;
    text = buffer.toString('utf8', 0, length);
  } finally {
    closeSync(fd);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--har ${path}: the file exists and is not a HAR (not JSON); nothing was sent`, {
      hint: 'name a new file, or the recording to add to',
    });
  }
  const log = (parsed as { log?: { entries?: unknown; _udcli?: { salt?: unknown } } } | null)?.log;
  if (!log || !Array.isArray(log.entries)) {
    throw new UsageError(`--har ${path}: the file exists and is not a HAR (no log.entries); nothing was sent`, {
      hint: 'name a new file, or the recording to add to',
    });
  }
  const salt =
    typeof log._udcli?.salt === 'string' && /^[0-9a-f]{32}$/.test(log._udcli.salt) ? log._udcli.salt : undefined;
  return { entries: (log.entries as unknown[]).map((e) => JSON.stringify(e)), ...(salt ? { salt } : {}) };
}

export interface RecorderOptions {
  creator: HarCreator;
  /** Secrets known before any exchange (the profile's api key, signing secret, cookie). */
  secrets?: ReadonlyArray<string | undefined>;
  /** `--har-keep-personal`: players' emails and birthdays recorded as they came. */
  keepPersonal?: boolean;
  now?: () => number;
}

/** Opens (or starts) the recording at `path`; a file there that is not a HAR is refused before anything is sent. */
export function openHarRecorder(path: string, options: RecorderOptions): HarRecorder {
  const existing = readExisting(path);
  try {
    accessSync(dirname(path), constants.W_OK);
  } catch (error) {
    throw new UsageError(
      `--har ${path}: cannot write there: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such directory' : (error as Error).message}; nothing was sent`,
    );
  }
  const redactor = new Redactor(existing.salt, { keepPersonal: options.keepPersonal === true });
  for (const secret of options.secrets ?? []) redactor.know(secret);
  /** The earlier commands' entries, held until this run's first write puts them in its own form. */
  let earlier: string[] | undefined = existing.entries;
  /** Entries not written yet. */
  let pending: string[] = [];
  /** What this run last wrote: the file as it was then (to add to it), and whether it has entries. */
  let written: { size: number; ino: number; mtimeMs: number; entries: boolean } | undefined;
  const now = options.now ?? Date.now;
  let lastWrite = 0;
  let timer: NodeJS.Timeout | undefined;

  const head = JSON.stringify({ version: HAR_VERSION, creator: options.creator, pages: [] }).slice(0, -1);
  const udcli = JSON.stringify({ salt: redactor.salt });

  /** Is the file still the one this run wrote last (no other process has written it since)? */
  function unchanged(): boolean {
    if (!written) return false;
    try {
      const now = statSync(path);
      return now.size === written.size && now.ino === written.ino && now.mtimeMs === written.mtimeMs;
    } catch {
      return false;
    }
  }

  function replace(fill: (temp: TempFile) => void): void {
    replaceWhole(path, fill);
    const after = statSync(path);
    written = {
      size: after.size,
      ino: after.ino,
      mtimeMs: after.mtimeMs,
      entries: (written?.entries ?? false) || pending.length > 0 || (earlier?.length ?? 0) > 0,
    };
  }

  function write(): void {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    lastWrite = now();
    if (unchanged()) {
      // A copy of the file as this run left it, its closing cut off, the new entries added: the
      // cost of a write is the new entries (and a file copy in the kernel), not the whole file.
      const separator = written!.entries ? ',\n' : '';
      replace(({ fd, path: temp }) => {
        copyFileSync(path, temp);
        fchmodSync(fd, 0o600); // the copy took the old file's mode
        ftruncateSync(fd, written!.size - CLOSING.length);
        writeSync(fd, `${separator}${pending.join(',\n')}${CLOSING}`, written!.size - CLOSING.length);
      });
    } else {
      // The first write of this run, or the file changed under it (another command recording to
      // it): all of it again, the entries there now first.
      const before = earlier ?? (written ? readExisting(path).entries : []);
      const all = [...before, ...pending];
      replace(({ fd }) =>
        writeFileSync(fd, `{"log":${head},"_udcli":${udcli},"entries":[\n${all.join(',\n')}${CLOSING}`),
      );
      written!.entries = all.length > 0;
      earlier = undefined;
    }
    pending = [];
  }

  return {
    path,
    record(exchange) {
      redactor.nextEntry();
      pending.push(redactor.scrub(JSON.stringify(harEntry(exchange, redactor))));
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
