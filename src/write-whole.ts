/**
 * The one way udcli replaces a file whole: the new content goes to a temporary file beside the
 * target (same directory, so the rename cannot cross file systems), which is renamed over the
 * target only once it is complete. A reader sees the old file or the new one, never half of
 * one; a failure removes the temporary file and leaves the target as it was. Every writer of a
 * file others read (sandbox export, init and import, snapshots, the pid record, the profile
 * cache, a HAR recording) goes through here, with one temp name, `<target>.tmp-<pid>`, so a
 * leftover of a killed process is recognised by its pid (`tempOwner`).
 *
 * Not here: the config file (`conf` writes it the same way, under the config lock) and lock
 * files (lock-file.ts links a lock into place, which fails when one exists: the opposite of a
 * rename, which replaces).
 */
import { createWriteStream, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const TEMP_SUFFIX = /\.tmp-(\d+)$/;

/** The temporary file a write of `target` by this process uses. */
export function tempBeside(target: string): string {
  return `${target}.tmp-${process.pid}`;
}

/** The pid whose write left `name` (a file name or path), or undefined when it is no such temp file. */
export function tempOwner(name: string): number | undefined {
  const pid = TEMP_SUFFIX.exec(name)?.[1];
  return pid === undefined ? undefined : Number(pid);
}

/** `fill` writes the temporary file (creating it with the mode it wants); then it replaces `target`. */
export function replaceWhole(target: string, fill: (temp: string) => void): void {
  const temp = tempBeside(target);
  try {
    fill(temp);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** As replaceWhole, for a `fill` that takes its time (a stream, a database copy, a cancellable step). */
export async function replaceWholeAsync(target: string, fill: (temp: string) => Promise<void>): Promise<void> {
  const temp = tempBeside(target);
  try {
    await fill(temp);
    renameSync(temp, target);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Writes `text` as `target` (mode 0600 unless told). */
export function writeWholeSync(target: string, text: string | Uint8Array, mode = 0o600): void {
  replaceWhole(target, (temp) => writeFileSync(temp, text, { mode }));
}

/** Writes the stream as `target` (mode 0600 unless told). */
export async function writeWhole(target: string, source: Readable, mode = 0o600): Promise<void> {
  await replaceWholeAsync(target, (temp) => pipeline(source, createWriteStream(temp, { mode })));
}
