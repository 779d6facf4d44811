/**
 * The used hmac-sha256-v1 signatures (migration 5; the policy in http/used-signatures.ts). Every
 * statement runs in the caller's transaction: the one that makes the signed change, so the
 * signature is used up exactly when the change is made, on every process of the database.
 */
import type { Database } from 'better-sqlite3';

export interface UsedSignatureRow {
  /** The signature's 32 bytes. */
  signature: Buffer;
  /** The request's timestamp (Unix seconds, as signed). */
  timestamp: number;
  /** When the row may be swept (real Unix seconds). */
  forgetAt: number;
}

export interface UsedSignaturesRepository {
  /** Adds the signature; false when it is there already (used). */
  add(row: UsedSignatureRow): boolean;
  /** Is `timestamp` inside a span whose signatures were swept (bucket: timestamp / span)? */
  forgotten(bucket: number, timestamp: number): boolean;
  /** Moves the rows whose time has come (forget_at < now) into the forgotten spans; returns how many went. */
  sweep(nowSeconds: number, spanSeconds: number): number;
  count(): number;
}

export function usedSignaturesRepository(db: Database): UsedSignaturesRepository {
  const add = db.prepare<[Buffer, number, number]>(
    'INSERT OR IGNORE INTO used_signatures (signature, timestamp, forget_at) VALUES (?, ?, ?)',
  );
  const forgotten = db.prepare<[number, number], { hit: number }>(
    'SELECT 1 AS hit FROM forgotten_signatures WHERE bucket = ? AND ? BETWEEN first AND last',
  );
  // The SELECT's WHERE lets SQLite tell the upsert's ON CONFLICT from a join's ON. A bound number
  // is a REAL to SQLite: cast, so the division is the integer one a bucket (a rowid) needs.
  const remember = db.prepare<{ now: number; span: number }>(`
    INSERT INTO forgotten_signatures (bucket, first, last)
    SELECT timestamp / CAST(:span AS INTEGER) AS bucket, min(timestamp), max(timestamp) FROM used_signatures WHERE forget_at < :now GROUP BY bucket
    ON CONFLICT (bucket) DO UPDATE SET first = min(first, excluded.first), last = max(last, excluded.last)`);
  const forget = db.prepare<[number]>('DELETE FROM used_signatures WHERE forget_at < ?');
  const count = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM used_signatures');
  return {
    add: (row) => add.run(row.signature, row.timestamp, row.forgetAt).changes === 1,
    forgotten: (bucket, timestamp) => forgotten.get(bucket, timestamp) !== undefined,
    sweep(nowSeconds, spanSeconds) {
      remember.run({ now: nowSeconds, span: spanSeconds });
      return forget.run(nowSeconds).changes;
    },
    count: () => count.get()?.n ?? 0,
  };
}
