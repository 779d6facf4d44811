/**
 * What a sandbox database was started from — the demo data, a studio's data file, or nothing —
 * recorded in its meta table, so that `udcli sandbox reset` returns to it (issue 10).
 */
import type { SandboxDatabase } from './database.js';
import type { DataFile } from './data/model.js';

export type SandboxOrigin = { kind: 'demo' } | { kind: 'none' } | { kind: 'data'; file: string };

const KEY = 'origin';

export function recordedOrigin(db: SandboxDatabase): SandboxOrigin | undefined {
  const row = db.sqlite.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(KEY);
  if (!row) return undefined;
  try {
    const value = JSON.parse(row.value) as SandboxOrigin;
    if (value.kind === 'demo' || value.kind === 'none' || (value.kind === 'data' && typeof value.file === 'string')) return value;
  } catch {
    // A hand-edited value: as if nothing was recorded.
  }
  return undefined;
}

function record(db: SandboxDatabase, origin: SandboxOrigin): void {
  db.sqlite
    .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(KEY, JSON.stringify(origin));
}

/**
 * Seeds the database from `origin` and records it. A data file must have been read (and checked)
 * by the caller, before anything was changed; it is loaded in one transaction.
 */
export async function seedFrom(db: SandboxDatabase, origin: SandboxOrigin, data?: DataFile): Promise<void> {
  if (origin.kind === 'demo') {
    const { seedDemo } = await import('./seed/demo.js');
    seedDemo(db);
  } else if (origin.kind === 'data') {
    if (!data) throw new Error('seedFrom: a data origin needs the data file read first');
    const { loadData } = await import('./data/load.js');
    loadData(db, data, Math.floor(Date.now() / 1000), origin.file);
  }
  record(db, origin);
}
