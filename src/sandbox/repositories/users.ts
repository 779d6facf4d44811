/** Users, who played which game, and friendships. */
import type { Database } from 'better-sqlite3';

export interface UserRecord {
  uid: string;
  username: string;
  gender: string;
  createdOn: number;
  /** `YYYY-MM-DD`, or `0000-00-00` when unknown (as the platform writes it). */
  birthday: string;
  premium: boolean;
  /** Shown with a valid api_key only (SERVICE.md: Users); empty when the data has none. */
  email: string;
}

/** A user to insert: birthday, premium and email are unknown / false / empty unless given. */
export type NewUser = Omit<UserRecord, 'birthday' | 'premium' | 'email'> &
  Partial<Pick<UserRecord, 'birthday' | 'premium' | 'email'>>;

export const UNKNOWN_BIRTHDAY = '0000-00-00';

/** A user (a friend) with whether they played the game asked about (null when no game was given). */
export interface FriendRecord extends UserRecord {
  played: boolean | null;
}

export interface UserRow {
  uid: string;
  username: string;
  gender: string;
  created_on: number;
  birthday: string;
  premium: number;
  email: string;
}

interface FriendRow extends UserRow {
  played: number | null;
}

const toUser = (r: UserRow): UserRecord => ({
  uid: r.uid,
  username: r.username,
  gender: r.gender,
  createdOn: r.created_on,
  birthday: r.birthday,
  premium: r.premium === 1,
  email: r.email,
});

const toFriend = (r: FriendRow): FriendRecord => ({ ...toUser(r), played: r.played === null ? null : r.played === 1 });

export function usersRepository(db: Database) {
  const byUid = db.prepare<[string], UserRow>('SELECT * FROM users WHERE uid = ?');
  const byUsername = db.prepare<[string], UserRow>('SELECT * FROM users WHERE username = ?');
  const countAll = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users');
  const playersOfGame = db.prepare<[string, number], UserRow>(
    'SELECT u.* FROM plays p JOIN users u ON u.uid = p.uid WHERE p.game_id = ? ORDER BY p.first_played_on, u.rowid LIMIT ?',
  );
  const firstUsers = db.prepare<[number], UserRow>('SELECT * FROM users ORDER BY rowid LIMIT ?');
  // A range on the username index (its unique constraint), so a prefix costs a seek, not a scan
  // of every user; the substr test drops whatever the range lets in that does not start with it.
  const byUsernamePrefix = db.prepare<[{ prefix: string; limit: number }], UserRow>(
    `SELECT * FROM users
      WHERE username >= @prefix AND username < @prefix || char(1114111) AND substr(username, 1, length(@prefix)) = @prefix
      ORDER BY username LIMIT @limit`,
  );
  const insertUser = db.prepare(
    `INSERT OR IGNORE INTO users (uid, username, gender, created_on, birthday, premium, email)
     VALUES (@uid, @username, @gender, @createdOn, @birthday, @premium, @email)`,
  );
  const played = db.prepare<[string, string], { one: number }>(
    'SELECT 1 AS one FROM plays WHERE uid = ? AND game_id = ?',
  );
  // A user and whether they played a game, in one statement (GET users/{uid}.json, the hottest read).
  // Positional parameters: better-sqlite3 binds an object's named ones at several times the cost.
  const playing = (where: string) => ({
    game: db.prepare<[string, string], FriendRow>(
      `SELECT u.*, EXISTS (SELECT 1 FROM plays p WHERE p.uid = u.uid AND p.game_id = ?) AS played FROM users u WHERE ${where}`,
    ),
    none: db.prepare<[string], FriendRow>(`SELECT u.*, NULL AS played FROM users u WHERE ${where}`),
  });
  const byUidPlaying = playing('u.uid = ?');
  const byUsernamePlaying = playing('u.username = ?');
  const insertPlay = db.prepare('INSERT OR IGNORE INTO plays (uid, game_id, first_played_on) VALUES (?, ?, ?)');
  const insertFriendship = db.prepare(
    'INSERT OR IGNORE INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, ?)',
  );
  const friendCount = db.prepare<[string], { n: number }>('SELECT count(*) AS n FROM friendships WHERE uid = ?');
  // Stable order: friendship creation, then uid (contract). The page is cut from the covering
  // index first and only its rows are joined: OFFSET then skips index entries, not joined rows
  // (page 200 of 100,000 friends: ~5 ms instead of ~250 ms).
  const friendsPage = db.prepare<[{ gameId: string | null; uid: string; limit: number; offset: number }], FriendRow>(
    `SELECT u.uid, u.username, u.gender, u.created_on, u.birthday, u.premium, u.email,
            CASE WHEN @gameId IS NULL THEN NULL ELSE p.uid IS NOT NULL END AS played
       FROM (SELECT friend_uid, created_on FROM friendships WHERE uid = @uid
              ORDER BY created_on, friend_uid LIMIT @limit OFFSET @offset) f
       JOIN users u ON u.uid = f.friend_uid
       LEFT JOIN plays p ON p.uid = f.friend_uid AND p.game_id = @gameId
      ORDER BY f.created_on, f.friend_uid`,
  );

  return {
    findByUid(uid: string): UserRecord | undefined {
      const row = byUid.get(uid);
      return row && toUser(row);
    },

    /**
     * A user by uid or exact username, with whether they played `gameId` (null when gameId is
     * null): findByUid or findByUsername and hasPlayed in one statement.
     */
    findPlaying(lookup: { uid: string } | { username: string }, gameId: string | null): FriendRecord | undefined {
      const [statements, key] = 'uid' in lookup ? [byUidPlaying, lookup.uid] : [byUsernamePlaying, lookup.username];
      const row = gameId === null ? statements.none.get(key) : statements.game.get(gameId, key);
      return row && toFriend(row);
    },

    /** Exact (case-sensitive) username match. */
    findByUsername(username: string): UserRecord | undefined {
      const row = byUsername.get(username);
      return row && toUser(row);
    },

    /** Users whose username starts with `prefix` (case-sensitive), in username order. */
    searchByUsernamePrefix(prefix: string, limit: number): UserRecord[] {
      return byUsernamePrefix.all({ prefix, limit }).map(toUser);
    },

    count(): number {
      return countAll.get()?.n ?? 0;
    },

    /** The first `limit` users who play `gameId`, earliest first. */
    playersOf(gameId: string, limit: number): UserRecord[] {
      return playersOfGame.all(gameId, limit).map(toUser);
    },

    /** The first `limit` users, in the order they were added. */
    first(limit: number): UserRecord[] {
      return firstUsers.all(limit).map(toUser);
    },

    /** Inserts unless the uid or username exists; true when inserted. */
    insert(user: NewUser): boolean {
      const { birthday = UNKNOWN_BIRTHDAY, premium = false, email = '' } = user;
      return insertUser.run({ ...user, birthday, premium: premium ? 1 : 0, email }).changes === 1;
    },

    hasPlayed(uid: string, gameId: string): boolean {
      return played.get(uid, gameId) !== undefined;
    },

    recordPlay(uid: string, gameId: string, at: number): void {
      insertPlay.run(uid, gameId, at);
    },

    /** Makes a and b friends of each other (both directions), unless they already are. */
    addFriendship(a: string, b: string, at: number): void {
      insertFriendship.run(a, b, at);
      insertFriendship.run(b, a, at);
    },

    friendCount(uid: string): number {
      return friendCount.get(uid)?.n ?? 0;
    },

    /** One page of friends; `played` is about `gameId` (null when gameId is null). */
    friends(uid: string, gameId: string | null, limit: number, offset: number): FriendRecord[] {
      return friendsPage.all({ gameId, uid, limit, offset }).map(toFriend);
    },
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
