/**
 * The demo data's image the build ships (dist/demo-sandbox.db, scripts/demo-image.js), from which `udcli/sandbox`
 * opens its first demo sandbox of a process and `sandbox start` makes a new database file: it holds exactly what
 * seeding the demo data gives now, table by table.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { replaceContents } from '../../src/sandbox/contents.js';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';
import { recordedOrigin } from '../../src/sandbox/origin.js';
import { startSandbox } from '../../src/sandbox/server.js';

const IMAGE = fileURLToPath(new URL('../../dist/demo-sandbox.db', import.meta.url));

function rows(db: SandboxDatabase): Record<string, unknown[]> {
  const tables = db.sqlite
    .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((t) => t.name);
  return Object.fromEntries(tables.map((t) => [t, db.sqlite.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all()]));
}

/** `db` holds what seeding the demo data gives now, at the same schema, table by table. */
function expectSeededDemo(db: SandboxDatabase): void {
  const seeded = openDatabase(':memory:');
  try {
    replaceContents(seeded, { kind: 'demo' });
    expect(db.schemaVersion()).toBe(seeded.schemaVersion());
    const [a, b] = [rows(db), rows(seeded)];
    expect(Object.keys(a)).toEqual(Object.keys(b));
    for (const table of Object.keys(b)) expect(a[table], table).toEqual(b[table]);
  } finally {
    seeded.close();
  }
}

describe('dist/demo-sandbox.db', () => {
  it('holds what seeding the demo data gives, at the latest schema', () => {
    const shipped = openDatabase(':memory:', readFileSync(IMAGE));
    try {
      expectSeededDemo(shipped);
    } finally {
      shipped.close();
    }
  });
});

describe('a new database for the demo data', () => {
  const dir = mkdtempSync(join(tmpdir(), 'udcli-demo-image-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('that sandbox start makes for the demo data is a copy of the image: what seeding a file gives, 0600, in WAL mode, nothing else left beside it', async () => {
    const made = join(dir, 'made.db');
    const sandbox = await startSandbox({ port: 0, dbPath: made, log: () => undefined });
    await sandbox.close();
    const fromImage = openDatabase(made);
    try {
      expect(recordedOrigin(fromImage)).toEqual({ kind: 'demo' });
      expect(fromImage.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
      expectSeededDemo(fromImage);
    } finally {
      fromImage.close();
    }
    expect(statSync(made).mode & 0o777).toBe(0o600);
    // The copy is written under a name of its own and linked into place: that name is gone.
    expect(readdirSync(dir).filter((name) => name.endsWith('.new'))).toEqual([]);
  });

  it('sandbox start --db :memory: holds the demo data as seeding gives it, and knows it holds the demo data', async () => {
    const sandbox = await startSandbox({ port: 0, dbPath: ':memory:', log: () => undefined });
    try {
      expect(recordedOrigin(sandbox.parts.db)).toEqual({ kind: 'demo' });
      expectSeededDemo(sandbox.parts.db);
    } finally {
      await sandbox.close();
    }
  });

  it("whose name leaves no room for the copy's own name beside it is made empty and seeded: the same rows", async () => {
    const long = join(dir, `${'d'.repeat(240)}.db`);
    const sandbox = await startSandbox({ port: 0, dbPath: long, log: () => undefined });
    try {
      expectSeededDemo(sandbox.parts.db);
    } finally {
      await sandbox.close();
    }
  });

  it('is made from an image only when nothing is at its path: an existing database is opened as it is', () => {
    const path = join(dir, 'empty.db');
    openDatabase(path).close();
    const again = openDatabase(path, readFileSync(IMAGE));
    try {
      expect(again.isEmpty()).toBe(true);
    } finally {
      again.close();
    }
  });
});
