/**
 * Replaces everything a sandbox database holds with what an origin gives (the demo data, a data
 * file, nothing), in one transaction on the open connection: a running sandbox answers from the
 * old contents until the commit and from the new ones after it, and a failure changes nothing.
 * Used by `start --data FILE --reset` and by the live reset (`POST /_sandbox/reset`).
 */
import type { SandboxDatabase } from './database.js';
import type { DataFile } from './data/model.js';
import { loadData } from './data/load.js';
import { recordOrigin, type SandboxOrigin } from './origin.js';
import { seedDemo } from './seed/demo.js';

/** Every table of the database but the meta table and SQLite's own (the schema stays). */
function contentTables(db: SandboxDatabase): string[] {
  return db.sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'meta' ORDER BY name")
    .all()
    .map((row) => row.name);
}

export function replaceContents(db: SandboxDatabase, origin: SandboxOrigin, data?: DataFile, nowSeconds = Math.floor(Date.now() / 1000)): void {
  if (origin.kind === 'data' && data === undefined) throw new Error('replaceContents: a data origin needs the data file read first');
  db.transaction(() => {
    // Checked at the commit, when every table is empty again: the order of the deletes does not matter.
    db.sqlite.pragma('defer_foreign_keys = ON');
    for (const table of contentTables(db)) db.sqlite.prepare(`DELETE FROM "${table}"`).run();
    // Row ids start again, so the demo's ids are the same after a reset as on a new database.
    const sequence = db.sqlite.prepare<[], { n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
    if ((sequence?.n ?? 0) > 0) db.sqlite.prepare('DELETE FROM sqlite_sequence').run();
    if (origin.kind === 'demo') seedDemo(db);
    else if (origin.kind === 'data') loadData(db, data!, nowSeconds, origin.file);
    recordOrigin(db, origin);
  });
}
