/**
 * Where snapshots live and what their names look like: light (node:fs only), so shell completion
 * can list the names (`udcli __complete snapshots`) without loading SQLite.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const SNAPSHOT_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,63}$/;
export const SNAPSHOT_SUFFIX = '.db';

export function snapshotDir(dataDir: string): string {
  return join(dataDir, 'snapshots');
}

/** The snapshot file names of a folder (`NAME.db`), sorted; [] when there is none. */
export function snapshotFileNames(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(SNAPSHOT_SUFFIX) && SNAPSHOT_NAME.test(f.slice(0, -SNAPSHOT_SUFFIX.length)))
    .sort((a, b) => a.localeCompare(b));
}

/** The snapshot names of a folder, sorted. */
export function snapshotNames(dir: string): string[] {
  return snapshotFileNames(dir).map((f) => f.slice(0, -SNAPSHOT_SUFFIX.length));
}
