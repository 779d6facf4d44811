/** Site login sessions and the auth tokens handed out by the token generator. */
import type { Database } from 'better-sqlite3';

export interface TokenRecordRow {
  token: string;
  uid: string;
  gameId: string;
  createdOn: number;
  expiresOn: number;
}

interface TokenRow {
  token: string;
  uid: string;
  game_id: string;
  created_on: number;
  expires_on: number;
}

export function authRepository(db: Database) {
  const insertSession = db.prepare('INSERT INTO sessions (id, uid, created_on) VALUES (?, ?, ?)');
  const sessionUid = db.prepare<[string, number], { uid: string }>(
    'SELECT uid FROM sessions WHERE id = ? AND created_on > ?',
  );
  const purgeSessions = db.prepare('DELETE FROM sessions WHERE created_on <= ?');
  const insertToken = db.prepare(
    'INSERT INTO tokens (token, uid, game_id, created_on, expires_on) VALUES (@token, @uid, @gameId, @createdOn, @expiresOn)',
  );
  const tokenByValue = db.prepare<[string], TokenRow>('SELECT * FROM tokens WHERE token = ?');
  // Tokens long past expiry are forgotten; recently expired ones still answer "token expired".
  const purge = db.prepare('DELETE FROM tokens WHERE expires_on < ?');
  // One transaction each, taking the write lock first: an attempt that meets another process's
  // lock has changed nothing, so the caller may run it again (http/busy.ts).
  const addSession = db.transaction((id: string, uid: string, now: number, expiredBefore: number) => {
    purgeSessions.run(expiredBefore);
    insertSession.run(id, uid, now);
  });
  const addToken = db.transaction((token: TokenRecordRow, purgeBefore: number) => {
    purge.run(purgeBefore);
    insertToken.run(token);
  });

  return {
    /** A new session; sessions that ended before `expiredBefore` are forgotten on the way. */
    createSession(id: string, uid: string, now: number, expiredBefore: number): void {
      addSession.immediate(id, uid, now, expiredBefore);
    },

    /** The user of a session started after `startedAfter` (older ones have ended). */
    sessionUser(id: string, startedAfter: number): string | undefined {
      return sessionUid.get(id, startedAfter)?.uid;
    },

    createToken(token: TokenRecordRow, purgeBefore: number): void {
      addToken.immediate(token, purgeBefore);
    },

    findToken(token: string): TokenRecordRow | undefined {
      const row = tokenByValue.get(token);
      return (
        row && {
          token: row.token,
          uid: row.uid,
          gameId: row.game_id,
          createdOn: row.created_on,
          expiresOn: row.expires_on,
        }
      );
    },
  };
}

export type AuthRepository = ReturnType<typeof authRepository>;
