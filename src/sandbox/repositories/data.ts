/**
 * The SQL of loading and exporting sandbox data files (sandbox/data/): upserts for everything a
 * file defines, and ordered cursors over the whole state. Prepared only by `sandbox load|export`
 * and `start --data`, so no other command pays for them.
 */
import type { Database } from 'better-sqlite3';
import type { DefinitionRow } from './achievements.js';
import type { ProductRow } from './products.js';
import type { UserRow } from './users.js';

export interface ExportedGameRow {
  id: string;
  type: string;
  name: string;
  launchable: number;
  content_uri: string | null;
  signing: string;
}

export function dataRepository(db: Database) {
  const run = (sql: string) => db.prepare(sql);
  return {
    upsertGame: run(
      `INSERT INTO games (id, type, name, launchable, content_uri, signing, created_on)
       VALUES (@id, @type, @name, @launchable, @contentUri, @signing, @now)
       ON CONFLICT (id) DO UPDATE SET type = excluded.type, name = excluded.name, launchable = excluded.launchable,
         content_uri = excluded.content_uri, signing = excluded.signing`,
    ),
    upsertKey: run(
      `INSERT INTO api_keys (api_key, game_id, signing_secret, partner, label, created_on)
       VALUES (@apiKey, @gameId, @signingSecret, @partner, @label, @now)
       ON CONFLICT (api_key) DO UPDATE SET game_id = excluded.game_id, signing_secret = excluded.signing_secret,
         partner = excluded.partner, label = excluded.label`,
    ),
    upsertAchievement: run(
      `INSERT INTO achievements (parent_id, developer_id, name, description, admin_description, icon, start_value,
         target_value, score, state, tags, created_on, updated_on)
       VALUES (@parentId, @developerId, @name, @description, @adminDescription, @icon, @startValue,
         @targetValue, @score, @state, @tags, @now, @now)
       ON CONFLICT (parent_id, developer_id) DO UPDATE SET name = excluded.name, description = excluded.description,
         admin_description = excluded.admin_description, icon = excluded.icon, start_value = excluded.start_value,
         target_value = excluded.target_value, score = excluded.score, state = excluded.state, tags = excluded.tags,
         updated_on = excluded.updated_on`,
    ),
    achievementId: db.prepare<[string, string], { id: number; target_value: number }>(
      'SELECT id, target_value FROM achievements WHERE parent_id = ? AND developer_id = ?',
    ),
    upsertProduct: run(
      `INSERT INTO products (parent_id, sku, item, name, description, type, price_cents, display_order, data, image,
         status, sold, created_on, updated_on)
       VALUES (@parentId, @sku, @item, @name, @description, @type, @priceCents, @displayOrder, @data, @image,
         @status, 0, @now, @now)
       ON CONFLICT (parent_id, sku) DO UPDATE SET item = excluded.item, name = excluded.name,
         description = excluded.description, type = excluded.type, price_cents = excluded.price_cents,
         display_order = excluded.display_order, data = excluded.data, image = excluded.image,
         status = excluded.status, updated_on = excluded.updated_on`,
    ),
    upsertUser: run(
      `INSERT INTO users (uid, username, gender, created_on, birthday, premium, email)
       VALUES (@uid, @username, @gender, @createdOn, @birthday, @premium, @email)
       ON CONFLICT (uid) DO UPDATE SET username = excluded.username, gender = excluded.gender,
         created_on = excluded.created_on, birthday = excluded.birthday, premium = excluded.premium, email = excluded.email`,
    ),
    uidOfUsername: db.prepare<[string], { uid: string }>('SELECT uid FROM users WHERE username = ?'),
    addPlay: run('INSERT OR IGNORE INTO plays (uid, game_id, first_played_on) VALUES (?, ?, ?)'),
    addFriendship: run('INSERT OR IGNORE INTO friendships (uid, friend_uid, created_on) VALUES (?, ?, ?)'),
    setProgress: run(
      `INSERT INTO user_achievements (uid, achievement_id, current_value, state, started_on, completed_on, updated_on)
       VALUES (@uid, @achievementId, @value, @state, coalesce(@startedOn, @now), @completedOn, @now)
       ON CONFLICT (uid, achievement_id) DO UPDATE SET current_value = excluded.current_value, state = excluded.state,
         started_on = coalesce(@startedOn, started_on), completed_on = excluded.completed_on, updated_on = excluded.updated_on`,
    ),
    setHolding: run(
      `INSERT INTO holdings (uid, parent_id, item, quantity, created_on, updated_on) VALUES (@uid, @parentId, @item, @quantity, @now, @now)
       ON CONFLICT (uid, parent_id, item) DO UPDATE SET quantity = excluded.quantity, updated_on = excluded.updated_on`,
    ),
    putSave: run(
      `INSERT INTO game_saves (uid, game_id, key, value, updated_on) VALUES (@uid, @gameId, @key, @value, @now)
       ON CONFLICT (uid, game_id, key) DO UPDATE SET value = excluded.value, updated_on = excluded.updated_on`,
    ),

    // --- export: the whole state, in an order that a load into an empty database reproduces ---
    games: db.prepare<[], ExportedGameRow>(
      'SELECT id, type, name, launchable, content_uri, signing FROM games ORDER BY id',
    ),
    keysOf: db.prepare<[string], { api_key: string; signing_secret: string; partner: number; label: string }>(
      'SELECT api_key, signing_secret, partner, label FROM api_keys WHERE game_id = ? ORDER BY partner, api_key',
    ),
    achievementsOf: db.prepare<
      [string],
      Omit<DefinitionRow, 'id' | 'parent_id' | 'parent_type' | 'created_on' | 'updated_on' | 'completion_count'>
    >(
      `SELECT developer_id, name, description, admin_description, icon, start_value, target_value, score, state, tags
         FROM achievements WHERE parent_id = ? ORDER BY id`,
    ),
    productsOf: db.prepare<
      [string],
      Pick<ProductRow, 'sku' | 'type' | 'name' | 'description' | 'price_cents' | 'display_order' | 'status' | 'image'>
    >(
      'SELECT sku, type, name, description, price_cents, display_order, status, image FROM products WHERE parent_id = ? ORDER BY display_order, id',
    ),
    users: db.prepare<[], UserRow>(
      'SELECT uid, username, gender, created_on, birthday, premium, email FROM users ORDER BY created_on, uid',
    ),
    /** Friends who come after the user in export order (each friendship is written once, under the first). */
    laterFriendsOf: db.prepare<[{ uid: string; createdOn: number }], { username: string }>(
      `SELECT u.username FROM friendships f JOIN users u ON u.uid = f.friend_uid
        WHERE f.uid = @uid AND (u.created_on > @createdOn OR (u.created_on = @createdOn AND u.uid > @uid))
        ORDER BY f.created_on, f.friend_uid`,
    ),
    playsOf: db.prepare<[string], { game_id: string }>('SELECT game_id FROM plays WHERE uid = ? ORDER BY game_id'),
    progressOf: db.prepare<
      [string],
      { parent_id: string; developer_id: string; current_value: number; state: string; completed_on: number | null }
    >(
      `SELECT a.parent_id, a.developer_id, ua.current_value, ua.state, ua.completed_on FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id
        WHERE ua.uid = ? ORDER BY a.parent_id, a.id`,
    ),
    holdingsOf: db.prepare<[string], { parent_id: string; item: string; quantity: number }>(
      'SELECT parent_id, item, quantity FROM holdings WHERE uid = ? AND quantity > 0 ORDER BY parent_id, item',
    ),
    saveCount: db.prepare<[string, string], { n: number }>(
      'SELECT count(*) AS n FROM game_saves WHERE uid = ? AND game_id = ?',
    ),
    savesOf: db.prepare<[string], { game_id: string; key: string; value: string }>(
      'SELECT game_id, key, value FROM game_saves WHERE uid = ? ORDER BY game_id, key',
    ),
  };
}

/** One read transaction around a generator: what it yields is one moment's state while others write. */
export function* inOneRead<T>(sqlite: Database, read: () => Generator<T>): Generator<T> {
  sqlite.exec('BEGIN');
  try {
    yield* read();
  } finally {
    sqlite.exec('COMMIT');
  }
}
