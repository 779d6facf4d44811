/**
 * Migration 2: what the platform's SDK shows beyond the spec (SERVICE.md: Signatures, Users,
 * Products). Existing databases keep their data: games keep accepting both signing schemes, a
 * consumable whose sku has no `:PACK` is its own base (a pack of one), and every holding moves
 * from its product to the product's base.
 */
export const version = 2;
export const name = 'platform protocol: per-game signing, user extras, products by base';

export const sql = `
-- Which signing scheme the game accepts on signed requests (SERVICE.md: Signatures).
ALTER TABLE games ADD COLUMN signing TEXT NOT NULL DEFAULT 'both'
  CHECK (signing IN ('agi', 'hmac-sha256-v1', 'both'));

-- The extra fields a valid api_key shows (SERVICE.md: Users).
ALTER TABLE users ADD COLUMN birthday TEXT NOT NULL DEFAULT '0000-00-00';
ALTER TABLE users ADD COLUMN premium INTEGER NOT NULL DEFAULT 0 CHECK (premium IN (0, 1));

-- What a holding is counted on: the base of a consumable's BASE:PACK sku, else the sku itself.
ALTER TABLE products ADD COLUMN item TEXT NOT NULL DEFAULT '';
UPDATE products SET item = CASE
  WHEN type = 'consumable' AND instr(sku, ':') > 1 THEN substr(sku, 1, instr(sku, ':') - 1)
  ELSE sku END;
CREATE INDEX products_by_item ON products (parent_id, item);

-- Holdings per user and item: units of a consumable's base, 0 or 1 of an unlockable.
CREATE TABLE holdings (
  uid        TEXT NOT NULL REFERENCES users (uid) ON DELETE CASCADE,
  parent_id  TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
  item       TEXT NOT NULL,
  quantity   INTEGER NOT NULL CHECK (quantity >= 0),
  created_on INTEGER NOT NULL,
  updated_on INTEGER NOT NULL,
  PRIMARY KEY (uid, parent_id, item)
) WITHOUT ROWID;
INSERT INTO holdings (uid, parent_id, item, quantity, created_on, updated_on)
  SELECT up.uid, p.parent_id, p.item,
         CASE WHEN p.type = 'consumable' THEN sum(up.quantity) ELSE min(1, sum(up.quantity)) END,
         min(up.created_on), max(up.updated_on)
    FROM user_products up JOIN products p ON p.id = up.product_id
   GROUP BY up.uid, p.parent_id, p.item;
DROP TABLE user_products;
`;
