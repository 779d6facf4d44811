/**
 * The sandbox database: one better-sqlite3 connection with its schema migrated and its
 * repositories prepared. File databases use WAL, so a sandbox killed with SIGKILL keeps every
 * committed change, and a second process (a seed run, an embedded sandbox) can share the file.
 */
import { closeSync, fsyncSync, linkSync, lstatSync, openSync, rmSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { nodeCrypto } from '../domain/node-crypto.js';
import { UdcliError } from '../errors.js';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations/index.js';
import { createRepositories, type Repositories } from './repositories/index.js';
import { emptinessCheck } from './repositories/whole-database.js';
import { sqliteDriver } from './sqlite-driver.js';

export interface SandboxDatabase {
  /** The file path, or ':memory:'. */
  readonly path: string;
  /** The raw connection (repositories hold all SQL; this is for transactions and tests). */
  readonly sqlite: Database.Database;
  readonly repos: Repositories;
  /** Runs fn in one immediate (write-locking) transaction; a throw rolls everything back. */
  transaction<T>(fn: () => T): T;
  /** Runs fn in one deferred transaction: a consistent read that takes no lock unless fn writes. */
  readTransaction<T>(fn: () => T): T;
  /**
   * How long one statement may wait, blocking the thread, for another process's lock before
   * failing with SQLITE_BUSY. A server sets it to a few ms and retries asynchronously
   * (http/busy.ts), so that its event loop never waits on a lock.
   */
  setBusyTimeout(ms: number): void;
  /** True when nothing was ever seeded: no games and no users. */
  isEmpty(): boolean;
  /** Schema version (PRAGMA user_version). */
  schemaVersion(): number;
  close(): void;
}

/**
 * How long a writer waits for another process's write lock before failing: for the CLI's own
 * runs (load, seed, restore) and the server's start-up, where blocking is harmless.
 */
const BUSY_TIMEOUT_MS = 5000;

/** The server's wait: a few ms, then it gives the event loop back and retries (http/busy.ts). */
export const SERVER_BUSY_TIMEOUT_MS = 5;

function migrate(sqlite: Database.Database, path: string): void {
  const current = () => Number(sqlite.pragma('user_version', { simple: true }));
  if (current() > LATEST_SCHEMA_VERSION) {
    throw new UdcliError(
      `the sandbox database ${path} has schema version ${current()}, newer than this udcli knows (${LATEST_SCHEMA_VERSION})`,
      {
        hint: 'upgrade udcli, or use another database with --db',
      },
    );
  }
  for (const migration of MIGRATIONS) {
    // Re-checked inside the write lock: another process may have migrated meanwhile.
    sqlite
      .transaction(() => {
        if (current() >= migration.version) return;
        sqlite.exec(migration.sql);
        sqlite.pragma(`user_version = ${migration.version}`);
      })
      .immediate();
  }
}

/** The database holds session ids and tokens: owner only, like the config. */
export const DATABASE_FILE_MODE = 0o600;

/**
 * Creates the file 0600 if it does not exist yet; SQLite then gives its WAL and SHM files the
 * same mode (it copies the database file's).
 */
function createPrivate(path: string, image: Buffer | undefined): void {
  if (image !== undefined && createFromImage(path, image)) return;
  try {
    closeSync(openSync(path, 'wx', DATABASE_FILE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * A database file that does not exist yet, made a copy of `image`: written whole under a name of its
 * own first (0600, never through a link), then linked to `path`, which fails if anything is there by
 * then. So a process opening `path` at the same moment finds nothing or the whole copy, never half of
 * it. True as well when something is at `path` already (opened as it is); false when the link could not be
 * made (a file system without hard links): the file is created empty then, and seeded.
 */
function createFromImage(path: string, image: Buffer): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const partial = `${path}.${process.pid}-${nodeCrypto().randomBytes(6).toString('hex')}.new`;
  let fd: number;
  try {
    fd = openSync(partial, 'wx', DATABASE_FILE_MODE);
  } catch (error) {
    // A database name near the file system's limit leaves no room for the suffix: made empty and seeded then.
    if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return false;
    throw error;
  }
  try {
    try {
      for (let at = 0; at < image.length; ) at += writeSync(fd, image, at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    linkSync(partial, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return true;
    if (['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV'].includes((error as NodeJS.ErrnoException).code ?? '')) return false;
    throw error;
  } finally {
    rmSync(partial, { force: true });
  }
}

/**
 * Opens (creating if needed) and migrates the database at `path` (':memory:' allowed). With `image` (what
 * `serialize()` gave of another sandbox database), a database that does not exist yet starts as a copy of it:
 * in memory, or a file made from it (an existing file is opened as it is, whatever the image).
 */
export function openDatabase(path: string, image?: Buffer): SandboxDatabase {
  // Outside the try: a driver that will not load is its own one line, not "cannot open".
  const Driver = sqliteDriver();
  let sqlite: Database.Database;
  try {
    const inMemory = path === ':memory:' || path === '';
    if (!inMemory) createPrivate(path, image);
    sqlite = new Driver(inMemory ? (image ?? path) : path);
  } catch (cause) {
    throw new UdcliError(`cannot open the sandbox database ${path}: ${(cause as Error).message}`, { cause });
  }
  try {
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (path !== ':memory:' && path !== '') {
      sqlite.pragma('journal_mode = WAL');
      // In WAL mode NORMAL loses nothing when the process dies; only an OS crash can cost the last commits.
      sqlite.pragma('synchronous = NORMAL');
    }
    sqlite.pragma('foreign_keys = ON');
    migrate(sqlite, path);
  } catch (error) {
    sqlite.close();
    if (error instanceof UdcliError) throw error;
    throw new UdcliError(`cannot use the sandbox database ${path}: ${(error as Error).message}`, { cause: error });
  }

  const repos = createRepositories(sqlite);
  const isEmpty = emptinessCheck(sqlite);
  // One transaction function for every call (the server runs one or more a request): better-sqlite3
  // builds a new wrapper and its variants each time db.transaction() is called.
  const inTransaction = sqlite.transaction((fn: () => unknown) => fn());

  return {
    path,
    sqlite,
    repos,
    transaction: <T>(fn: () => T): T => inTransaction.immediate(fn) as T,
    readTransaction: <T>(fn: () => T): T => inTransaction.deferred(fn) as T,
    setBusyTimeout: (ms: number) => void sqlite.pragma(`busy_timeout = ${Math.max(0, Math.floor(ms))}`),
    isEmpty,
    schemaVersion: () => Number(sqlite.pragma('user_version', { simple: true })),
    close: () => {
      if (sqlite.open) sqlite.close();
    },
  };
}

/**
 * Fails unless the database takes writes. SQLite opens a read-only file read-only without a
 * word, and reads work; only the first write would fail (a 500 on every change), so a server
 * checks at start-up with a write it rolls back.
 */
export function ensureWritable(db: SandboxDatabase): void {
  const { sqlite } = db;
  try {
    sqlite.exec('BEGIN IMMEDIATE');
    sqlite.exec('CREATE TABLE udcli_write_probe (x INTEGER)');
  } catch (error) {
    throw new UdcliError(
      `the sandbox database ${db.path} cannot be written (${(error as Error).message}): make it and its directory writable, or give another --db`,
      {
        cause: error,
      },
    );
  } finally {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
  }
}
