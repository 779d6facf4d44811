/**
 * Migration 5: hmac-sha256-v1's used signatures live in the database (issue 40, 7), so every
 * process on it refuses a signature any of them accepted (http/used-signatures.ts says how long
 * a row is kept and why). WITHOUT ROWID: a row is its 32-byte key and two integers, looked up by
 * the key on every signed change; the sweep finds the rows to forget by `forget_at`.
 * `forgotten_signatures` keeps, per 300 s of request timestamps, the first and last timestamp
 * of the rows swept away: a signature from that span is refused, since it may be one forgotten.
 */
export const version = 5;
export const name = 'used hmac-sha256-v1 signatures, shared by every process on the database';

export const sql = `
CREATE TABLE used_signatures (
  signature BLOB PRIMARY KEY,
  timestamp INTEGER NOT NULL,
  forget_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX used_signatures_forget_at ON used_signatures (forget_at);
CREATE TABLE forgotten_signatures (
  bucket INTEGER PRIMARY KEY,
  first  INTEGER NOT NULL,
  last   INTEGER NOT NULL
);
`;
