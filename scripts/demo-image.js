// Writes dist/demo-sandbox.db: the demo data seeded into a fresh in-memory sandbox database at the latest schema,
// serialized. `udcli/sandbox` opens its first demo sandbox of a process from it instead of seeding (tens of ms of
// a test file's start); seeding is deterministic, so the file is what seeding would give. Run by scripts/build.js
// in a process of its own (it loads the SQLite driver), after dist/ is emitted.
import { writeFileSync } from 'node:fs';

const DIST = new URL('../dist/', import.meta.url);
const { openDatabase } = await import(new URL('sandbox/database.js', DIST).href);
const { replaceContents } = await import(new URL('sandbox/contents.js', DIST).href);

const db = openDatabase(':memory:');
try {
  replaceContents(db, { kind: 'demo' });
  writeFileSync(new URL('demo-sandbox.db', DIST), db.sqlite.serialize());
} finally {
  db.close();
}
