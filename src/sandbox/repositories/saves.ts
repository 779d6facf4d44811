/** Game saves per user, game and key (SERVICE.md: Game saves). */
import type { Database } from 'better-sqlite3';
import { SAVE_LIMITS } from '../../domain/contract.js';

export interface SaveRecord {
  key: string;
  value: string;
  updatedOn: number;
}

/** A save as the dashboard lists it: its size and the first characters, never the whole value. */
export interface SaveSummary {
  gameId: string;
  key: string;
  bytes: number;
  /** At most `previewChars` characters of the value. */
  head: string;
  updatedOn: number;
}

/** Thrown inside the put transaction: it rolls back, so nothing changes. */
export class TooManySavesError extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} keys per user and game`);
  }
}

interface SaveRow {
  key: string;
  value: string;
  updated_on: number;
}

const toSave = (r: SaveRow): SaveRecord => ({ key: r.key, value: r.value, updatedOn: r.updated_on });

export function savesRepository(db: Database) {
  const list = db.prepare<[string, string], SaveRow>(
    'SELECT key, value, updated_on FROM game_saves WHERE uid = ? AND game_id = ? ORDER BY key',
  );
  const one = db.prepare<[string, string, string], SaveRow>(
    'SELECT key, value, updated_on FROM game_saves WHERE uid = ? AND game_id = ? AND key = ?',
  );
  const count = db.prepare<[string, string], { n: number }>(
    'SELECT count(*) AS n FROM game_saves WHERE uid = ? AND game_id = ?',
  );
  const exists = db.prepare<[string, string, string], { one: number }>(
    'SELECT 1 AS one FROM game_saves WHERE uid = ? AND game_id = ? AND key = ?',
  );
  const upsert = db.prepare(
    `INSERT INTO game_saves (uid, game_id, key, value, updated_on) VALUES (@uid, @gameId, @key, @value, @now)
     ON CONFLICT (uid, game_id, key) DO UPDATE SET value = excluded.value, updated_on = excluded.updated_on`,
  );
  const remove = db.prepare('DELETE FROM game_saves WHERE uid = ? AND game_id = ? AND key = ?');
  // Sizes in bytes and a short head from SQLite itself: the dashboard never reads whole values.
  const summaries = db.prepare<
    [{ uid: string; chars: number }],
    { game_id: string; key: string; bytes: number; head: string; updated_on: number }
  >(
    `SELECT game_id, key, length(CAST(value AS BLOB)) AS bytes, substr(value, 1, @chars) AS head, updated_on
       FROM game_saves WHERE uid = @uid ORDER BY game_id, key`,
  );

  // The count and the write in one immediate transaction: two concurrent saves cannot both take the 100th place.
  const put = db.transaction(
    (uid: string, gameId: string, key: string, value: string, now: number): { created: boolean } => {
      const created = !exists.get(uid, gameId, key);
      if (created && count.get(uid, gameId)!.n >= SAVE_LIMITS.keysPerGame)
        throw new TooManySavesError(SAVE_LIMITS.keysPerGame);
      upsert.run({ uid, gameId, key, value, now });
      return { created };
    },
  );

  return {
    /** Every save of the user for the game, by key. */
    listFor(uid: string, gameId: string): SaveRecord[] {
      return list.all(uid, gameId).map(toSave);
    },

    get(uid: string, gameId: string, key: string): SaveRecord | undefined {
      const row = one.get(uid, gameId, key);
      return row && toSave(row);
    },

    /** Creates or replaces; throws TooManySavesError (and changes nothing) for a key past the limit. */
    put(uid: string, gameId: string, key: string, value: string, now: number): { created: boolean } {
      return put.immediate(uid, gameId, key, value, now);
    },

    /** False when nothing was saved under the key. */
    erase(uid: string, gameId: string, key: string): boolean {
      return remove.run(uid, gameId, key).changes > 0;
    },

    /** Every save of the user in every game, summarized (dashboard). */
    summariesOf(uid: string, previewChars: number): SaveSummary[] {
      return summaries
        .all({ uid, chars: previewChars })
        .map((r) => ({ gameId: r.game_id, key: r.key, bytes: r.bytes, head: r.head, updatedOn: r.updated_on }));
    },
  };
}

export type SavesRepository = ReturnType<typeof savesRepository>;
