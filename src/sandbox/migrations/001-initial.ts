/** Migration 1: the whole sandbox schema. Times are Unix seconds (INTEGER). */
export const version = 1;
export const name = 'initial schema';

export const sql = `
-- A game or a website: the parent of achievements and products.
CREATE TABLE games (
  id          TEXT PRIMARY KEY,
  type        TEXT NOT NULL DEFAULT 'Game' CHECK (type IN ('Game', 'Website')),
  name        TEXT NOT NULL,
  -- plays_game is reported only for launchable games (spec 4.5).
  launchable  INTEGER NOT NULL DEFAULT 0 CHECK (launchable IN (0, 1)),
  -- What the play page iframes; null until the studio sets it.
  content_uri TEXT,
  created_on  INTEGER NOT NULL
);

-- Each key belongs to one game and signs with its own secret.
CREATE TABLE api_keys (
  api_key        TEXT PRIMARY KEY CHECK (length(api_key) = 32 AND api_key = lower(api_key)),
  game_id        TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  signing_secret TEXT NOT NULL,
  -- Partner keys may omit the signature on achievement PUTs (spec 5.3).
  partner        INTEGER NOT NULL DEFAULT 0 CHECK (partner IN (0, 1)),
  label          TEXT NOT NULL DEFAULT '',
  created_on     INTEGER NOT NULL
);
CREATE INDEX api_keys_by_game ON api_keys (game_id);

CREATE TABLE users (
  uid        TEXT PRIMARY KEY CHECK (length(uid) = 32 AND uid = lower(uid)),
  username   TEXT NOT NULL UNIQUE,
  gender     TEXT NOT NULL,
  created_on INTEGER NOT NULL
);

-- Which users have played which game (plays_game).
CREATE TABLE plays (
  uid             TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  game_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  first_played_on INTEGER NOT NULL,
  PRIMARY KEY (uid, game_id)
) WITHOUT ROWID;

-- One row per direction: a friendship between A and B is (A, B) and (B, A).
CREATE TABLE friendships (
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  friend_uid TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_on INTEGER NOT NULL,
  PRIMARY KEY (uid, friend_uid),
  CHECK (uid <> friend_uid)
) WITHOUT ROWID;
-- The friends list order: friendship creation, then uid.
CREATE INDEX friendships_in_order ON friendships (uid, created_on, friend_uid);

CREATE TABLE achievements (
  id                INTEGER PRIMARY KEY,
  parent_id         TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  developer_id      TEXT NOT NULL,
  name              TEXT NOT NULL,
  description       TEXT NOT NULL DEFAULT '',
  admin_description TEXT NOT NULL DEFAULT '',
  icon              TEXT NOT NULL DEFAULT '',
  start_value       INTEGER NOT NULL DEFAULT 0,
  target_value      INTEGER NOT NULL,
  score             INTEGER NOT NULL DEFAULT 0,
  state             TEXT NOT NULL DEFAULT 'Active' CHECK (state IN ('Active', 'Inactive')),
  -- JSON object: tag id (string) -> label.
  tags              TEXT NOT NULL DEFAULT '{}',
  created_on        INTEGER NOT NULL,
  updated_on        INTEGER NOT NULL,
  UNIQUE (parent_id, developer_id),
  CHECK (target_value > start_value)
);

CREATE TABLE user_achievements (
  id             INTEGER PRIMARY KEY,
  uid            TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  achievement_id INTEGER NOT NULL REFERENCES achievements (id) ON DELETE CASCADE,
  current_value  INTEGER NOT NULL,
  state          TEXT NOT NULL CHECK (state IN ('Started', 'Completed')),
  started_on     INTEGER NOT NULL,
  completed_on   INTEGER,
  updated_on     INTEGER NOT NULL,
  UNIQUE (uid, achievement_id)
);
CREATE INDEX user_achievements_by_achievement ON user_achievements (achievement_id, state);

CREATE TABLE products (
  id            INTEGER PRIMARY KEY,
  parent_id     TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  sku           TEXT NOT NULL,
  name          TEXT NOT NULL,
  description   TEXT NOT NULL DEFAULT '',
  type          TEXT NOT NULL,
  price_cents   INTEGER NOT NULL CHECK (price_cents >= 0),
  display_order INTEGER NOT NULL DEFAULT 0,
  -- JSON array
  data          TEXT NOT NULL DEFAULT '[]',
  image         TEXT NOT NULL DEFAULT '',
  status        TEXT NOT NULL DEFAULT 'active',
  sold          INTEGER NOT NULL DEFAULT 0,
  created_on    INTEGER NOT NULL,
  updated_on    INTEGER NOT NULL,
  UNIQUE (parent_id, sku)
);

CREATE TABLE user_products (
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  quantity   INTEGER NOT NULL CHECK (quantity >= 0),
  created_on INTEGER NOT NULL,
  updated_on INTEGER NOT NULL,
  PRIMARY KEY (uid, product_id)
) WITHOUT ROWID;

-- Site login sessions (cookie value -> user).
CREATE TABLE sessions (
  id         TEXT PRIMARY KEY,
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  created_on INTEGER NOT NULL
);

-- Auth tokens from the token generator: bound to one user and one game.
CREATE TABLE tokens (
  token      TEXT PRIMARY KEY,
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  game_id    TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  created_on INTEGER NOT NULL,
  expires_on INTEGER NOT NULL
);
CREATE INDEX tokens_by_expiry ON tokens (expires_on);

CREATE TABLE meta (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
`;
