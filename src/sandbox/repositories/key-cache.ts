/**
 * The api keys (with their games) the request pipeline looks up on every call, kept in memory
 * until the data changes: two SQLite lookups less a request. How a cache here knows the data
 * changed (dataVersionOf) is shared with the reply cache (http/reply-cache.ts).
 *
 * The database is shared: `udcli sandbox load`, `snapshot restore` or `clock set` may write the
 * same file while the server runs. So every lookup first asks SQLite whether anything changed:
 * - another connection (any process) committed: `PRAGMA data_version` moves. It is asked once per
 *   turn of the event loop, not per lookup: a change another connection commits can only come
 *   before or after a whole turn as this process sees it (its own code runs synchronously in
 *   between), so the next request, in a later turn, sees it;
 * - this connection wrote a watched table: TEMP triggers (this connection's only) call back
 *   here, whatever code wrote them (reset, the dashboard, `game set-uri`, ...).
 * Either empties the cache. While this connection's own transaction has written those tables
 * (and may still roll back), lookups go to the database and nothing is cached.
 * Entries are frozen: every request shares them.
 */
import type { Database } from 'better-sqlite3';
import type { ApiKeyWithGame, GamesRepository } from './games.js';

export interface KeyLookup {
  /** Like GamesRepository.findApiKey (`apiKey` normalized), as the database holds it now. */
  find(apiKey: string): ApiKeyWithGame | undefined;
}

/** Keys remembered at most (made-up keys are remembered as unknown): beyond, it starts over. */
export const KEY_CACHE_ENTRIES = 10_000;

/** What the caches read: the keys and their games, and the users with what they played (reply-cache.ts). */
const WATCHED_TABLES = ['games', 'api_keys', 'users', 'plays'] as const;
const CHANGED_FUNCTION = 'udcli_keys_changed';

/** Writes to the watched tables by one connection, as its triggers report them. */
interface OwnWrites {
  generation: number;
  /** A write was reported and the transaction it happened in may not have ended yet. */
  pending: boolean;
}

// One counter and one set of triggers per connection, however many caches read it.
const ownWritesOf = new WeakMap<Database, OwnWrites>();

/** The write is over (committed or rolled back): what was cached before it is stale. */
function settle(own: OwnWrites): void {
  own.pending = false;
  own.generation++;
}

function watchOwnWrites(sqlite: Database): OwnWrites {
  let own = ownWritesOf.get(sqlite);
  if (own !== undefined) return own;
  const writes: OwnWrites = { generation: 0, pending: false };
  own = writes;
  // better-sqlite3 runs a transaction synchronously, so once the code that wrote has returned to
  // the event loop, its transaction is over; one held open across an await is waited for.
  const settleWhenOver = () => {
    if (sqlite.open && sqlite.inTransaction) setImmediate(settleWhenOver);
    else if (writes.pending) settle(writes);
  };
  sqlite.function(CHANGED_FUNCTION, { deterministic: false }, () => {
    writes.generation++;
    if (!writes.pending) {
      writes.pending = true;
      queueMicrotask(settleWhenOver);
    }
    return null;
  });
  for (const table of WATCHED_TABLES) {
    for (const event of ['INSERT', 'UPDATE', 'DELETE']) {
      sqlite.exec(
        `CREATE TEMP TRIGGER IF NOT EXISTS ${CHANGED_FUNCTION}_${table}_${event.toLowerCase()} AFTER ${event} ON main.${table} BEGIN SELECT ${CHANGED_FUNCTION}(); END`,
      );
    }
  }
  ownWritesOf.set(sqlite, own);
  return own;
}

function frozen(key: ApiKeyWithGame): ApiKeyWithGame {
  Object.freeze(key.game);
  return Object.freeze(key);
}

/**
 * What cached data read from the watched tables is as of. `current()` is a token that moves
 * whenever those tables may have changed (another connection committed, or this one wrote them), or
 * null while this connection's own transaction has written them (nothing may be cached then).
 */
export interface DataVersion {
  current(): string | null;
}

const dataVersions = new WeakMap<Database, DataVersion>();

/** The DataVersion of a connection: one for all its caches, which asks SQLite at most once a turn. */
export function dataVersionOf(sqlite: Database): DataVersion {
  let data = dataVersions.get(sqlite);
  if (data === undefined) {
    data = newDataVersion(sqlite);
    dataVersions.set(sqlite, data);
  }
  return data;
}

function newDataVersion(sqlite: Database): DataVersion {
  const own = watchOwnWrites(sqlite);
  const dataVersion = sqlite.prepare<[], number>('PRAGMA data_version').pluck();
  let versionThisTurn: number | null = null;
  const forgetVersion = () => {
    versionThisTurn = null;
  };
  let token = '';
  let tokenVersion = -1;
  let tokenGeneration = -1;
  return {
    current() {
      if (own.pending) {
        // Our own write to a watched table: until its transaction is over, nothing is cached.
        if (sqlite.inTransaction) return null;
        settle(own);
      }
      if (versionThisTurn === null) {
        versionThisTurn = dataVersion.get()!;
        setImmediate(forgetVersion);
      }
      if (versionThisTurn !== tokenVersion || own.generation !== tokenGeneration) {
        tokenVersion = versionThisTurn;
        tokenGeneration = own.generation;
        token = `${tokenVersion}:${tokenGeneration}`;
      }
      return token;
    },
  };
}

export function cachedKeyLookup(
  sqlite: Database,
  games: Pick<GamesRepository, 'findApiKey'>,
  maxEntries = KEY_CACHE_ENTRIES,
): KeyLookup {
  const data = dataVersionOf(sqlite);
  const entries = new Map<string, ApiKeyWithGame | null>();
  let seen: string | null = null;

  return {
    find(apiKey) {
      const version = data.current();
      if (version === null) return games.findApiKey(apiKey);
      if (version !== seen) {
        entries.clear();
        seen = version;
      }
      const cached = entries.get(apiKey);
      if (cached !== undefined) return cached ?? undefined;
      const found = games.findApiKey(apiKey);
      if (entries.size >= maxEntries) entries.clear();
      entries.set(apiKey, found === undefined ? null : frozen(found));
      return found;
    },
  };
}
