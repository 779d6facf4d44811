/**
 * Migration 3: game saves (SERVICE.md: Game saves), per user, game and key. A rowid table, not
 * WITHOUT ROWID: a value may be 256 KiB, far past the row size WITHOUT ROWID suits.
 */
export const version = 3;
export const name = 'game saves';

export const sql = `
CREATE TABLE game_saves (
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  key        TEXT NOT NULL CHECK (length(key) BETWEEN 1 AND 64),
  value      TEXT NOT NULL,
  updated_on INTEGER NOT NULL,
  UNIQUE (uid, game_id, key)
);
`;
