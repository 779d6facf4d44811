/**
 * What the built-in profile follows, remembered per database file: reading it means loading
 * better-sqlite3 and opening the database, ~20–70 ms at the start of every data command. The
 * answer is kept with a stamp of the database and its WAL (inode, size, modification time) and
 * used while both are unchanged; any write to the database moves the stamp, so a `load`, a
 * `reset` or a `snapshot restore` is never missed. Mode 0600: it holds the sandbox's key.
 */
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { writeWholeSync } from '../write-whole.js';
import { dirname, join } from 'node:path';

export interface FollowedCredentials {
  game_id: string;
  api_key: string;
  signing_secret: string;
  signing: string;
}

/** What the built-in profile follows in one database (src/sandbox/loaded.ts: `followed`). */
export interface FollowedData {
  primary: FollowedCredentials | null;
  /** Several loaded games, none the default: the ones to pick among. */
  choices: string[];
  /** Every game with a key, and that key. */
  keyed: FollowedCredentials[];
  /** Why `primary` is the default (src/sandbox/loaded.ts: PrimaryReason); absent in an older udcli's cache. */
  reason?: 'loaded' | 'demo' | 'first';
}

interface CacheFile extends FollowedData {
  db: string;
  stamp: string;
}

function isCredentials(p: unknown): p is FollowedCredentials {
  if (typeof p !== 'object' || p === null) return false;
  const c = p as Record<string, unknown>;
  return (
    typeof c.game_id === 'string' &&
    typeof c.api_key === 'string' &&
    typeof c.signing_secret === 'string' &&
    typeof c.signing === 'string'
  );
}

/** The stamp of a database: null when it cannot be read (then nothing is cached). */
export function databaseStamp(dbPath: string): string | null {
  try {
    const db = statSync(dbPath, { bigint: true });
    let wal = '-';
    try {
      const w = statSync(`${dbPath}-wal`, { bigint: true });
      wal = `${w.ino}:${w.size}:${w.mtimeNs}`;
    } catch {
      // No WAL (never opened for writing, or checkpointed and removed).
    }
    return `${db.ino}:${db.size}:${db.mtimeNs}/${wal}`;
  } catch {
    return null;
  }
}

export function cachePath(dataDir: string): string {
  return join(dataDir, 'profile-cache.json');
}

/** What was remembered for this database and stamp, or undefined. */
export function cachedCredentials(file: string, dbPath: string, stamp: string): FollowedData | undefined {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as Partial<CacheFile>;
    if (c.db !== dbPath || c.stamp !== stamp) return undefined;
    if (!(c.primary === null || isCredentials(c.primary))) return undefined;
    // A file of an older udcli has neither list: read the database.
    if (!Array.isArray(c.choices) || !c.choices.every((g) => typeof g === 'string')) return undefined;
    if (!Array.isArray(c.keyed) || !c.keyed.every(isCredentials)) return undefined;
    const reason = c.reason === 'loaded' || c.reason === 'demo' || c.reason === 'first' ? { reason: c.reason } : {};
    return { primary: c.primary, choices: c.choices, keyed: c.keyed, ...reason };
  } catch {
    // Missing or unreadable: read the database.
  }
  return undefined;
}

/** Best effort: a cache that cannot be written only costs the next command the database read. */
export function rememberCredentials(file: string, dbPath: string, stamp: string, data: FollowedData): void {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const body: CacheFile = { db: dbPath, stamp, ...data };
    writeWholeSync(file, `${JSON.stringify(body)}\n`, 0o600);
  } catch {
    // Not written: the next command reads the database.
  }
}
