/**
 * The meta table: what a database holds (origin.ts), as text under a key. Types only from better-sqlite3, so status
 * commands stay light.
 */
import type { Database } from 'better-sqlite3';

export function readMeta(sqlite: Database, key: string): string | undefined {
  return sqlite.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
}

export function writeMeta(sqlite: Database, key: string, value: string): void {
  sqlite
    .prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
    .run(key, value);
}
