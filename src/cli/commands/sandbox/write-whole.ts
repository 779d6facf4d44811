/** Files the sandbox commands write (export, init, import): whole or not at all. */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Writes the stream to `target` through a temporary file in the same directory (0600), renamed at the end. */
export async function writeWhole(target: string, source: Readable): Promise<void> {
  const tmp = `${target}.tmp-${process.pid}`;
  try {
    await pipeline(source, createWriteStream(tmp, { mode: 0o600 }));
    renameSync(tmp, target);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}
