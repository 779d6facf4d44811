/**
 * A copy of what a database holds, kept beside it on the same connection, and the tables written since: what lets
 * `udcli/sandbox`'s reset() put back only what a test changed (a few tables, a few ms) instead of seeding everything
 * again. The copy is an attached in-memory database; TEMP triggers (this connection's only) note every table a
 * statement writes, whoever runs it (a request, the dashboard, a worker's copy of a game, a foreign key's cascade).
 */
import type { Database as Connection } from 'better-sqlite3';

const SCHEMA = 'udcli_base';
const CHANGED = 'udcli_changed_tables';

/** Tables a reset leaves as they are (whole-database.ts says why): never copied, never put back. */
const KEPT = new Set(['meta', 'used_signatures', 'forgotten_signatures']);

export interface Baseline {
  /** Copies what the database holds now as the state restore() returns to, and forgets what was written. */
  capture(): void;
  /** Puts back every table written since capture() (or the last restore), in one transaction. */
  restore(): void;
  /** Tables written since, by name (for tests and messages). */
  changed(): string[];
  /** Detaches the copy and drops the triggers. */
  dispose(): void;
}

function contentTables(sqlite: Connection): string[] {
  return sqlite
    .prepare<[], { name: string }>(
      "SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
    )
    .all()
    .map((row) => row.name)
    .filter((name) => !KEPT.has(name));
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

export function keepBaseline(sqlite: Connection): Baseline {
  // No table is AUTOINCREMENT: a row id put back is where the next insert goes on from, as after a seed.
  const tables = contentTables(sqlite);
  sqlite.prepare('ATTACH DATABASE ? AS udcli_base').run(':memory:');
  sqlite.exec(`CREATE TEMP TABLE IF NOT EXISTS ${CHANGED} (name TEXT PRIMARY KEY) WITHOUT ROWID`);
  for (const table of tables) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      sqlite.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${CHANGED}_${table}_${event.toLowerCase()} AFTER ${event} ON main.${quoted(table)} ` +
          // Not INSERT OR IGNORE: a trigger's conflict clause gives way to the statement's (an upsert's), which
          // would fail the write that fired it.
          `BEGIN INSERT INTO ${CHANGED} (name) SELECT '${table}' WHERE NOT EXISTS (SELECT 1 FROM ${CHANGED} WHERE name = '${table}'); END`,
      );
    }
  }
  const listChanged = sqlite.prepare<[], string>(`SELECT name FROM ${CHANGED}`).pluck();
  const forget = sqlite.prepare(`DELETE FROM temp.${CHANGED}`);

  const copyAll = sqlite.transaction(() => {
    for (const table of tables) {
      sqlite.exec(`DROP TABLE IF EXISTS ${SCHEMA}.${quoted(table)}`);
      sqlite.exec(`CREATE TABLE ${SCHEMA}.${quoted(table)} AS SELECT * FROM main.${quoted(table)}`);
    }
    forget.run();
  });

  const putBack = sqlite.transaction((changed: string[]) => {
    for (const table of changed) {
      sqlite.exec(`DELETE FROM main.${quoted(table)}`);
      sqlite.exec(`INSERT INTO main.${quoted(table)} SELECT * FROM ${SCHEMA}.${quoted(table)}`);
    }
    forget.run();
  });

  return {
    capture: () => copyAll.immediate(),
    restore() {
      const changed = listChanged.all().filter((name) => tables.includes(name));
      if (changed.length === 0) return;
      // Rows go back exactly as they were copied, so the keys hold at the end; while they go, a parent's delete
      // must not cascade into a table that was not written (and is not put back).
      sqlite.pragma('foreign_keys = OFF');
      try {
        putBack.immediate(changed);
      } finally {
        sqlite.pragma('foreign_keys = ON');
      }
    },
    changed: () => listChanged.all(),
    dispose() {
      if (!sqlite.open) return;
      for (const table of tables)
        for (const event of ['insert', 'update', 'delete'])
          sqlite.exec(`DROP TRIGGER IF EXISTS temp.${CHANGED}_${table}_${event}`);
      sqlite.exec(`DROP TABLE IF EXISTS temp.${CHANGED}`);
      sqlite.exec(`DETACH DATABASE ${SCHEMA}`);
    },
  };
}
