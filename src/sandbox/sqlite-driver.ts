/**
 * The one place that loads the SQLite driver, chosen by the Node version before anything loads
 * it (docs/NODE.md). On Node 22 and later: better-sqlite3 13, a Node-API binary inside its npm
 * package, so nothing is compiled. On Node 20: better-sqlite3 12, compiled at install, reached
 * through the package udcli-sqlite-node20 (drivers/sqlite-node20), whose `engines` keeps npm
 * from installing it on 22 and later. Never the other way round: 13 on Node 20 crashes the
 * process at `new Database()` (a segfault no try/catch sees), and 12 on Node 24.19–24.21
 * aborts it when the GC frees a statement.
 *
 * Both have the same API, so the repositories and their SQL do not know which one runs; the
 * types are @types/better-sqlite3's.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { UsageError } from '../errors.js';
import { packageRequire } from '../package-paths.js';

export type SqliteDriver = typeof BetterSqlite3;

/** The module to load on this Node version. */
export function driverModuleFor(nodeVersion: string): string {
  return Number(nodeVersion.split('.')[0]) >= 22 ? 'better-sqlite3' : 'udcli-sqlite-node20';
}

/** What udcli runs on, as the refusals say it. */
export const SUPPORTED_NODE = 'Node 20 (from 20.18.1), 22, 24 or 26';

/**
 * Loads the driver for `nodeVersion` with `load` (a require rooted in this package). A driver
 * that is missing or will not load (built for another Node, a broken install) is one line that
 * says which Node this is, what is supported and what to do; the cause stays on the error for
 * --verbose.
 */
export function loadDriver(nodeVersion: string, load: (id: string) => unknown): SqliteDriver {
  const id = driverModuleFor(nodeVersion);
  try {
    return load(id) as SqliteDriver;
  } catch (cause) {
    const why = (cause as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND' ? 'is not installed' : 'does not load';
    throw new UsageError(
      `the SQLite driver for Node ${nodeVersion} (${id}) ${why}: udcli's sandbox runs on ${SUPPORTED_NODE}; ` +
        'install udcli again under this Node (npm ci in a clone, or npm install -g)',
      { cause },
    );
  }
}

const here = packageRequire;
let loaded: SqliteDriver | undefined;

/** The driver for the running Node, loaded on first use (commands that never open a database never load it). */
export function sqliteDriver(): SqliteDriver {
  loaded ??= loadDriver(process.versions.node, here);
  return loaded;
}

/**
 * The file `require` takes for the running Node's driver: for a second process (a test's, the bench's) to open a
 * database with it.
 */
export function sqliteDriverPath(): string {
  return here.resolve(driverModuleFor(process.versions.node));
}
