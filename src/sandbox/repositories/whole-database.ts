/**
 * Statements on a database as a whole rather than on one resource: emptying it for a reset,
 * copying it to a snapshot, filling it from one. Kept here with every other
 * statement, so SQL lives in src/sandbox/repositories/.
 */
import type { Database as Connection } from 'better-sqlite3';
import { sqliteDriver } from '../sqlite-driver.js';

/**
 * Tables a reset and a snapshot restore leave as they are: the used signatures are not the data
 * but what keeps a signed request from being accepted twice, and a restore that brought back an
 * older list would make a used signature good again (http/used-signatures.ts).
 */
const KEPT_TABLES = ['used_signatures', 'forgotten_signatures'];
const kept = KEPT_TABLES.map((t) => `'${t}'`).join(', ');

/**
 * Deletes every row of every table but the meta table, the kept ones and SQLite's own (the schema stays), and
 * lets row ids start again. Run inside the caller's transaction, which checks foreign keys at its
 * commit, when every table is empty: the order of the deletes does not matter.
 */
export function emptyContents(sqlite: Connection): void {
  sqlite.pragma('defer_foreign_keys = ON');
  const tables = sqlite
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'meta' AND name NOT IN (${kept}) ORDER BY name`,
    )
    .all()
    .map((row) => row.name);
  for (const table of tables) sqlite.prepare(`DELETE FROM "${table}"`).run();
  // Row ids start again, so the demo's ids are the same after a reset as on a new database.
  const sequence = sqlite
    .prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'")
    .get();
  if ((sequence?.n ?? 0) > 0) sqlite.prepare('DELETE FROM sqlite_sequence').run();
}

/** Copies the database into `file`, an empty file (VACUUM INTO fills it as it finds it, keeping its mode). */
export function copyDatabaseInto(sqlite: Connection, file: string): void {
  sqlite.prepare('VACUUM INTO ?').run(file);
}

/** The schema version (`user_version`) of a database file, read without changing it. */
export function fileSchemaVersion(file: string): number {
  const Driver = sqliteDriver();
  const other = new Driver(file, { readonly: true, fileMustExist: true });
  try {
    return Number(other.pragma('user_version', { simple: true }));
  } finally {
    other.close();
  }
}

/**
 * Replaces every row of the live database (but the kept tables') with the rows of `file` (same
 * schema version), in one transaction given by the caller.
 */
export function replaceRowsFrom(sqlite: Connection, file: string, transaction: (fn: () => void) => void): void {
  const tables = sqlite
    .prepare<[], { name: string }>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT IN (${kept}) ORDER BY rowid`,
    )
    .all()
    .map((t) => t.name);
  sqlite.prepare('ATTACH DATABASE ? AS snap').run(file);
  try {
    transaction(() => {
      // Children before parents when emptying, parents first when filling: foreign keys hold throughout.
      for (const t of [...tables].reverse()) sqlite.exec(`DELETE FROM main."${t}"`);
      for (const t of tables) sqlite.exec(`INSERT INTO main."${t}" SELECT * FROM snap."${t}"`);
    });
  } finally {
    sqlite.exec('DETACH DATABASE snap');
  }
}

/** True while the database holds no game and no user (a new database, or one emptied by `--seed none`). */
export function emptinessCheck(sqlite: Connection): () => boolean {
  const count = sqlite.prepare<[], { n: number }>(
    'SELECT (SELECT count(*) FROM games) + (SELECT count(*) FROM users) AS n',
  );
  return () => (count.get()?.n ?? 0) === 0;
}
