/**
 * The demo data's image the build ships (dist/demo-sandbox.db, scripts/demo-image.js), from which `udcli/sandbox`
 * opens its first demo sandbox of a process: it holds exactly what seeding the demo data gives now, table by table.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { replaceContents } from '../../src/sandbox/contents.js';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';

const IMAGE = fileURLToPath(new URL('../../dist/demo-sandbox.db', import.meta.url));

function rows(db: SandboxDatabase): Record<string, unknown[]> {
  const tables = db.sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name);
  return Object.fromEntries(tables.map((t) => [t, db.sqlite.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all()]));
}

describe('dist/demo-sandbox.db', () => {
  it('holds what seeding the demo data gives, at the latest schema', () => {
    const shipped = openDatabase(':memory:', readFileSync(IMAGE));
    const seeded = openDatabase(':memory:');
    try {
      replaceContents(seeded, { kind: 'demo' });
      expect(shipped.schemaVersion()).toBe(seeded.schemaVersion());
      const [a, b] = [rows(shipped), rows(seeded)];
      expect(Object.keys(a)).toEqual(Object.keys(b));
      for (const table of Object.keys(b)) expect(a[table], table).toEqual(b[table]);
    } finally {
      shipped.close();
      seeded.close();
    }
  });
});
