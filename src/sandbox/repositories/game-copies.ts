/**
 * A game copied under another id, with its own api key: its definitions (achievements, products) and every player's
 * state in it (progress, holdings, plays, saves), but no tokens. What a test worker's game is (sandbox/workers.ts):
 * the players are everybody's, what they did in the copy is the worker's alone.
 */
import type { Database as Connection } from 'better-sqlite3';

export interface GameCopy {
  id: string;
  name: string;
  apiKey: string;
  signingSecret: string;
  label: string;
  createdOn: number;
}

/**
 * Replaces the game `copy.id` (whatever it holds) with a copy of `from` as it is now, in one transaction of the
 * caller's. Achievements and products get new row ids; progress follows its achievement by developer_id.
 */
export function copyGame(sqlite: Connection, from: string, copy: GameCopy): void {
  const to = copy.id;
  // Foreign keys cascade: the old copy's keys, definitions and every player's state in it go with it.
  sqlite.prepare('DELETE FROM games WHERE id = ?').run(to);
  sqlite
    .prepare(
      `INSERT INTO games (id, type, name, launchable, content_uri, created_on, signing)
       SELECT @to, type, @name, launchable, content_uri, created_on, signing FROM games WHERE id = @from`,
    )
    .run({ from, to, name: copy.name });
  sqlite
    .prepare(
      `INSERT INTO api_keys (api_key, game_id, signing_secret, partner, label, created_on)
       VALUES (?, ?, ?, 0, ?, ?)`,
    )
    .run(copy.apiKey, to, copy.signingSecret, copy.label, copy.createdOn);
  const params = { from, to };
  sqlite
    .prepare(
      `INSERT INTO achievements (parent_id, developer_id, name, description, admin_description, icon, start_value,
                                 target_value, score, state, tags, created_on, updated_on)
       SELECT @to, developer_id, name, description, admin_description, icon, start_value, target_value, score, state,
              tags, created_on, updated_on
         FROM achievements WHERE parent_id = @from ORDER BY id`,
    )
    .run(params);
  sqlite
    .prepare(
      `INSERT INTO user_achievements (uid, achievement_id, current_value, state, started_on, completed_on, updated_on)
       SELECT ua.uid, mine.id, ua.current_value, ua.state, ua.started_on, ua.completed_on, ua.updated_on
         FROM user_achievements ua
         JOIN achievements theirs ON theirs.id = ua.achievement_id AND theirs.parent_id = @from
         JOIN achievements mine ON mine.parent_id = @to AND mine.developer_id = theirs.developer_id
        ORDER BY ua.id`,
    )
    .run(params);
  sqlite
    .prepare(
      `INSERT INTO products (parent_id, sku, name, description, type, price_cents, display_order, data, image, status,
                             sold, created_on, updated_on, item)
       SELECT @to, sku, name, description, type, price_cents, display_order, data, image, status, sold, created_on,
              updated_on, item
         FROM products WHERE parent_id = @from ORDER BY id`,
    )
    .run(params);
  sqlite
    .prepare(
      `INSERT INTO holdings (uid, parent_id, item, quantity, created_on, updated_on)
       SELECT uid, @to, item, quantity, created_on, updated_on FROM holdings WHERE parent_id = @from`,
    )
    .run(params);
  sqlite
    .prepare(
      `INSERT INTO plays (uid, game_id, first_played_on)
       SELECT uid, @to, first_played_on FROM plays WHERE game_id = @from`,
    )
    .run(params);
  sqlite
    .prepare(
      `INSERT INTO game_saves (uid, game_id, key, value, updated_on)
       SELECT uid, @to, key, value, updated_on FROM game_saves WHERE game_id = @from`,
    )
    .run(params);
}

/** Removes a copied game and all that was done in it. */
export function removeGame(sqlite: Connection, id: string): void {
  sqlite.prepare('DELETE FROM games WHERE id = ?').run(id);
}

/** Every table that holds a game's rows, and whether copyGame copies them (tokens are a session's, not state). */
export const GAME_TABLES = {
  games: 'copied',
  api_keys: 'own key',
  achievements: 'copied',
  user_achievements: 'copied',
  products: 'copied',
  holdings: 'copied',
  plays: 'copied',
  game_saves: 'copied',
  tokens: 'not copied',
} as const;
