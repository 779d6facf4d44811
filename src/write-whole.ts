/**
 * The one way udcli replaces a file whole: the new content goes to a temporary file beside the
 * target (same directory, so the rename cannot cross file systems), which is renamed over the
 * target only once it is complete. A reader sees the old file or the new one, never half of
 * one; a failure removes the temporary file and leaves the target as it was. Every writer of a
 * file others read (sandbox export, init and import, snapshots, the pid record, the profile
 * cache, a HAR recording, the config file) goes through here.
 *
 * Why the temporary file cannot be redirected (issue 40, 3): its name is `<target>.tmp-<pid>-<random>`,
 * which nobody can guess ahead (the pid alone is sequential, so a link could be planted there),
 * and it is created here, before `fill` sees it, with O_CREAT|O_EXCL|O_NOFOLLOW: a file or a link
 * already at that name makes the open fail rather than be written through. `fill` writes the
 * file it is given (by its descriptor, or by its name: a name only this process knows, of a
 * regular file this process made). The mode is set on the descriptor, whatever the umask. The
 * rename replaces a link planted at the target itself (a link is a name, and the rename replaces
 * the name), so the file it pointed to is never touched and the target ends a regular file.
 *
 * Files added to rather than replaced (the audit log, a journal, `sandbox.log`, `exec --log`)
 * are opened by openAppend / openNoFollow: without following a link, owner only.
 *
 * Not here: lock files (lock-file.ts links a lock into place, which fails when one exists: the
 * opposite of a rename, which replaces).
 */
import { closeSync, constants, fchmodSync, fstatSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { nodeCrypto } from './domain/node-crypto.js';

const TEMP_SUFFIX = /\.tmp-(\d+)(?:-[0-9a-f]{16})?$/;

/** A fresh temporary name beside `target` for a write by this process: its pid (for tempOwner) and 64 random bits. */
export function tempBeside(target: string): string {
  return `${target}.tmp-${process.pid}-${nodeCrypto().randomBytes(8).toString('hex')}`;
}

/** The pid whose write left `name` (a file name or path), or undefined when it is no such temp file. */
export function tempOwner(name: string): number | undefined {
  const pid = TEMP_SUFFIX.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** An open that follows no link (O_NOFOLLOW; on a system without it, 0: the flags stay as given). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A file a link stood in for, or anything but a regular file: refused with an error saying which. */
class NotAPlainFile extends Error {
  constructor(
    path: string,
    what: string,
    readonly code: string,
  ) {
    super(`${path} is ${what}`);
  }
}

/**
 * Opens `path` with `flags` (O_* constants) and never through a symbolic link; what it opens must
 * be a regular file. A link at `path` is an error (code ELOOP) saying so, as is a directory, a
 * fifo or a device (code EFTYPE), so a caller reports it in its one line.
 */
export function openNoFollow(path: string, flags: number, mode = 0o600): number {
  let fd: number;
  try {
    fd = openSync(path, flags | NOFOLLOW | constants.O_NOCTTY, mode);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP')
      throw new NotAPlainFile(path, 'a symbolic link (not followed)', 'ELOOP');
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new NotAPlainFile(path, 'not a regular file', 'EFTYPE');
  }
  return fd;
}

/**
 * Opens a file lines are added to (created when missing), never through a link, and makes it
 * `mode` when it is looser and ours to change (an older udcli's file).
 */
export function openAppend(path: string, mode = 0o600): number {
  const fd = openNoFollow(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, mode);
  if (process.platform !== 'win32' && (fstatSync(fd).mode & 0o777 & ~mode) !== 0) {
    try {
      fchmodSync(fd, mode);
    } catch {
      // Not ours to change (another owner): the lines are still written.
    }
  }
  return fd;
}

/** What `fill` gets: the temporary file, open for writing (its descriptor, which the fill leaves open) and by name. */
export interface TempFile {
  fd: number;
  path: string;
}

/** Creates the temporary file for `target`: a fresh name, exclusive, no link followed, `mode` exactly. */
function createTemp(target: string, mode: number): TempFile {
  const path = tempBeside(target);
  const fd = openSync(
    path,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW | constants.O_NOCTTY,
    mode,
  );
  try {
    fchmodSync(fd, mode); // the umask may have taken bits the caller asked for (0644)
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  return { fd, path };
}

/**
 * After a failure: the descriptor closed once (a fill never closes it: a number closed twice may be another file's by
 * then), the file removed.
 */
function discard(temp: TempFile, open: boolean): void {
  if (open) {
    try {
      closeSync(temp.fd);
    } catch {
      // the failure is what the caller hears about
    }
  }
  rmSync(temp.path, { force: true });
}

/** A fill that failed: its temporary file goes, and the failure on to the caller. */
function abandon(temp: TempFile, error: unknown): never {
  discard(temp, true);
  throw error;
}

/** The filled temporary file closed and renamed over `target`; removed when that fails. */
function putInPlace(temp: TempFile, target: string): void {
  try {
    closeSync(temp.fd);
    renameSync(temp.path, target);
  } catch (error) {
    discard(temp, false);
    throw error;
  }
}

/** `fill` writes the temporary file (mode `mode`, 0600 unless told); then it replaces `target`. */
export function replaceWhole(target: string, fill: (temp: TempFile) => void, mode = 0o600): void {
  const temp = createTemp(target, mode);
  try {
    fill(temp);
  } catch (error) {
    abandon(temp, error);
  }
  putInPlace(temp, target);
}

/** As replaceWhole, for a `fill` that takes its time (a stream, a database copy, a cancellable step). */
export async function replaceWholeAsync(
  target: string,
  fill: (temp: TempFile) => Promise<void>,
  mode = 0o600,
): Promise<void> {
  const temp = createTemp(target, mode);
  // A fill that throws before its first await rejects this promise too.
  await new Promise<void>((resolve) => resolve(fill(temp))).catch((error: unknown) => abandon(temp, error));
  putInPlace(temp, target);
}

/** Writes `text` as `target` (mode 0600 unless told). */
export function writeWholeSync(target: string, text: string | Uint8Array, mode = 0o600): void {
  replaceWhole(target, ({ fd }) => writeFileSync(fd, text), mode);
}

/** Writes the stream as `target` (mode 0600 unless told). */
export async function writeWhole(target: string, source: Readable, mode = 0o600): Promise<void> {
  await replaceWholeAsync(
    target,
    async ({ fd }) => {
      // Chunk by chunk onto the descriptor (a write stream would close it itself, and then the writer's close could hit
      // another file's).
      for await (const chunk of source as AsyncIterable<string | Uint8Array>) writeFileSync(fd, chunk);
    },
    mode,
  );
}
