/**
 * Snapshots of a sandbox database (issue 10): `VACUUM INTO` a temporary file, renamed into place
 * when complete, so a save that fails or is killed never touches an existing snapshot. VACUUM
 * INTO copies from one read transaction, which in WAL mode neither waits for writers nor makes
 * them wait, so a save finishes under steady writes (SQLite's online backup restarts at every
 * write another process makes, and never finished under 8 writers). Snapshots hold session ids
 * and tokens: 0600, like the database. A restore replaces every table's rows in one transaction
 * of the live database, so a running sandbox on it sees the restored state at once; meanwhile
 * it answers reads, and changes wait a bounded time, then 503 (http/busy.ts).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CancelledError, UsageError } from '../errors.js';
import { replaceWholeAsync, tempOwner, type TempFile } from '../write-whole.js';
import { DATABASE_FILE_MODE, openDatabase, type SandboxDatabase } from './database.js';
import { SNAPSHOT_NAME as NAME, SNAPSHOT_SUFFIX as SUFFIX, snapshotFileNames } from './snapshot-names.js';
import { copyDatabaseInto, fileSchemaVersion, replaceRowsFrom } from './repositories/whole-database.js';

export { snapshotDir } from './snapshot-names.js';

export interface SnapshotInfo {
  name: string;
  bytes: number;
  saved_on: string;
}

export function parseSnapshotName(name: string): string {
  if (!NAME.test(name))
    throw new UsageError(`invalid snapshot name "${name}": letters, digits, - _ . (at most 64, not starting with .)`);
  return name;
}

export function listSnapshots(dir: string): SnapshotInfo[] {
  return snapshotFileNames(dir)
    .map((f) => {
      const st = statSync(join(dir, f));
      return { name: f.slice(0, -SUFFIX.length), bytes: st.size, saved_on: st.mtime.toISOString() };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The file of an existing snapshot; an unknown name is a UsageError listing the known ones. */
export function snapshotFile(dir: string, name: string): string {
  const file = join(dir, `${parseSnapshotName(name)}${SUFFIX}`);
  if (existsSync(file)) return file;
  const known = listSnapshots(dir).map((s) => s.name);
  throw new UsageError(`no snapshot named "${name}"`, {
    hint: known.length
      ? `known snapshots: ${known.join(', ')}`
      : 'there are none yet: udcli sandbox snapshot save NAME',
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Leftovers of saves that were killed with SIGKILL (their process is gone): a temporary file, and the rollback journal
 * SQLite keeps beside it while writing it.
 */
function removeStaleTemps(dir: string): void {
  for (const f of readdirSync(dir)) {
    const pid = tempOwner(f.replace(/-journal$/, ''));
    if (pid !== undefined && !isAlive(pid)) rmSync(join(dir, f), { force: true });
  }
}

function removeTemp(tmp: string): void {
  rmSync(tmp, { force: true });
  rmSync(`${tmp}-journal`, { force: true });
}

/**
 * Saves the database as snapshot `name`. `cancelled` is asked once the copy is done (a signal
 * that came during it is handled only then): when true, the copy is thrown away, nothing is
 * renamed, and CancelledError is thrown.
 */
export async function saveSnapshot(
  db: SandboxDatabase,
  dir: string,
  name: string,
  cancelled: () => boolean = () => false,
): Promise<string> {
  parseSnapshotName(name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  removeStaleTemps(dir);
  const target = join(dir, `${name}${SUFFIX}`);
  const fill = async ({ path: tmp }: TempFile): Promise<void> => {
    try {
      // VACUUM INTO fills the empty file the writer made (owner only, a name nobody could guess) as it finds it.
      copyDatabaseInto(db.sqlite, tmp);
      // Lets a signal that arrived during the copy be heard before the snapshot is put in place.
      await new Promise((resolve) => setImmediate(resolve));
      if (cancelled()) throw new CancelledError(`snapshot save cancelled; the snapshot "${name}" is as it was`);
    } catch (error) {
      removeTemp(tmp);
      throw error;
    }
  };
  await replaceWholeAsync(target, fill, DATABASE_FILE_MODE);
  return target;
}

export function deleteSnapshot(dir: string, name: string): void {
  rmSync(snapshotFile(dir, name));
}

/** Replaces the live database's rows with the snapshot's, in one transaction. */
/** A snapshot file that is no database (or a damaged one) is bad input: the restore changes nothing. */
function unreadable(file: string, error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^SQLITE_(NOTADB|CORRUPT)/.test(code)) {
    return new UsageError(`the snapshot ${file} cannot be read (${(error as Error).message}); nothing was restored`, {
      cause: error,
    });
  }
  return error;
}

export function restoreSnapshot(db: SandboxDatabase, file: string): void {
  try {
    restoreReadable(db, file);
  } catch (error) {
    throw unreadable(file, error);
  }
}

function restoreReadable(db: SandboxDatabase, file: string): void {
  const version = fileSchemaVersion(file);
  if (version > db.schemaVersion()) {
    throw new UsageError(`the snapshot ${file} has schema version ${version}, this database ${db.schemaVersion()}`, {
      hint: 'a snapshot restores into a database of the udcli version that saved it, or a later one',
    });
  }
  if (version < db.schemaVersion()) {
    // Saved by an earlier udcli: a copy is migrated (the snapshot itself is never changed), then restored.
    const dir = mkdtempSync(join(tmpdir(), 'udcli-snapshot-'));
    try {
      const copy = join(dir, 'snapshot.db');
      copyFileSync(file, copy);
      openDatabase(copy).close();
      restoreReadable(db, copy);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  replaceRowsFrom(db.sqlite, file, (fn) => db.transaction(fn));
}
