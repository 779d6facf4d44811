/** Games (and websites) and their api keys. */
import type { Database } from 'better-sqlite3';
import { GAME_SIGNINGS, type GameSigning } from '../../domain/contract.js';
import type { ParentType } from '../../domain/types.js';

/** Which signing scheme a game accepts on signed requests (SERVICE.md: Signatures). */
export { GAME_SIGNINGS, type GameSigning };

export interface GameRecord {
  id: string;
  type: ParentType;
  name: string;
  launchable: boolean;
  contentUri: string | null;
  signing: GameSigning;
  createdOn: number;
}

export interface ApiKeyRecord {
  apiKey: string;
  gameId: string;
  signingSecret: string;
  partner: boolean;
  label: string;
  createdOn: number;
}

/** An api key with the game it belongs to. */
export interface ApiKeyWithGame extends ApiKeyRecord {
  game: GameRecord;
}

interface GameRow {
  id: string;
  type: ParentType;
  name: string;
  launchable: number;
  content_uri: string | null;
  signing: string;
  created_on: number;
}

interface ApiKeyRow {
  api_key: string;
  game_id: string;
  signing_secret: string;
  partner: number;
  label: string;
  created_on: number;
}

const toGame = (r: GameRow): GameRecord => ({
  id: r.id,
  type: r.type,
  name: r.name,
  launchable: r.launchable === 1,
  contentUri: r.content_uri,
  // A hand-edited value: accept both rather than lock the game out.
  signing: GAME_SIGNINGS.find((s) => s === r.signing) ?? 'both',
  createdOn: r.created_on,
});

const toKey = (r: ApiKeyRow): ApiKeyRecord => ({
  apiKey: r.api_key,
  gameId: r.game_id,
  signingSecret: r.signing_secret,
  partner: r.partner === 1,
  label: r.label,
  createdOn: r.created_on,
});

export function gamesRepository(db: Database) {
  const byId = db.prepare<[string], GameRow>('SELECT * FROM games WHERE id = ?');
  const byTypeAndId = db.prepare<[string, string], GameRow>('SELECT * FROM games WHERE type = ? AND id = ?');
  const all = db.prepare<[], GameRow>('SELECT * FROM games ORDER BY id');
  const keyByValue = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE api_key = ?');
  const keysOfGame = db.prepare<[string], ApiKeyRow>(
    'SELECT * FROM api_keys WHERE game_id = ? ORDER BY partner, api_key',
  );
  const insertGame = db.prepare(
    `INSERT OR IGNORE INTO games (id, type, name, launchable, content_uri, signing, created_on)
     VALUES (@id, @type, @name, @launchable, @contentUri, @signing, @createdOn)`,
  );
  const updateContentUri = db.prepare<[string | null, string]>('UPDATE games SET content_uri = ? WHERE id = ?');
  const insertKey = db.prepare(
    `INSERT OR IGNORE INTO api_keys (api_key, game_id, signing_secret, partner, label, created_on)
     VALUES (@apiKey, @gameId, @signingSecret, @partner, @label, @createdOn)`,
  );

  return {
    find(id: string): GameRecord | undefined {
      const row = byId.get(id);
      return row && toGame(row);
    },

    /** The parent of achievements/products: a game (type Game) or a website (type Website). */
    findParent(type: ParentType, id: string): GameRecord | undefined {
      const row = byTypeAndId.get(type, id);
      return row && toGame(row);
    },

    list(): GameRecord[] {
      return all.all().map(toGame);
    },

    /** `apiKey` must already be normalized (32 lower-case hex digits). */
    findApiKey(apiKey: string): ApiKeyWithGame | undefined {
      const key = keyByValue.get(apiKey);
      if (!key) return undefined;
      const game = byId.get(key.game_id);
      return game && { ...toKey(key), game: toGame(game) };
    },

    apiKeysOf(gameId: string): ApiKeyRecord[] {
      return keysOfGame.all(gameId).map(toKey);
    },

    /** Inserts unless a game with this id exists. */
    insert(game: GameRecord): void {
      insertGame.run({ ...game, launchable: game.launchable ? 1 : 0 });
    },

    /** Sets (or with null clears) what the play page iframes; false when there is no such game. */
    setContentUri(id: string, uri: string | null): boolean {
      return updateContentUri.run(uri, id).changes === 1;
    },

    /** Inserts unless the key exists. */
    insertApiKey(key: ApiKeyRecord): void {
      insertKey.run({ ...key, partner: key.partner ? 1 : 0 });
    },
  };
}

export type GamesRepository = ReturnType<typeof gamesRepository>;
