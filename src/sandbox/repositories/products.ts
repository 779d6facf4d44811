/** Products of a game and how many units each user holds. */
import type { Database } from 'better-sqlite3';
import type { ParentType } from '../../spec/types.js';

export interface ProductRecord {
  id: number;
  parentId: string;
  parentType: ParentType;
  sku: string;
  name: string;
  description: string;
  type: string;
  priceCents: number;
  displayOrder: number;
  data: unknown[];
  image: string;
  status: string;
  sold: number;
  createdOn: number;
  updatedOn: number;
}

export type NewProduct = Omit<ProductRecord, 'id' | 'parentType'>;

export interface HeldProduct {
  product: ProductRecord;
  quantity: number;
}

/** Thrown inside the take transaction: it rolls back, so nothing changes. */
export class InsufficientQuantityError extends Error {
  constructor(
    readonly held: number,
    readonly wanted: number,
  ) {
    super(`insufficient quantity: holds ${held}, asked to take ${wanted}`);
  }
}

interface ProductRow {
  id: number;
  parent_id: string;
  parent_type: ParentType;
  sku: string;
  name: string;
  description: string;
  type: string;
  price_cents: number;
  display_order: number;
  data: string;
  image: string;
  status: string;
  sold: number;
  created_on: number;
  updated_on: number;
}

interface HeldRow extends ProductRow {
  quantity: number;
}

function parseData(json: string): unknown[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

const toProduct = (r: ProductRow): ProductRecord => ({
  id: r.id,
  parentId: r.parent_id,
  parentType: r.parent_type,
  sku: r.sku,
  name: r.name,
  description: r.description,
  type: r.type,
  priceCents: r.price_cents,
  displayOrder: r.display_order,
  data: parseData(r.data),
  image: r.image,
  status: r.status,
  sold: r.sold,
  createdOn: r.created_on,
  updatedOn: r.updated_on,
});

const PRODUCT_COLUMNS = `p.id, p.parent_id, g.type AS parent_type, p.sku, p.name, p.description, p.type, p.price_cents,
  p.display_order, p.data, p.image, p.status, p.sold, p.created_on, p.updated_on`;

export function productsRepository(db: Database) {
  const bySku = db.prepare<[string, ParentType, string], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id
      WHERE p.parent_id = ? AND g.type = ? AND p.sku = ?`,
  );
  const byId = db.prepare<[number], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id WHERE p.id = ?`,
  );
  const ofParent = db.prepare<[string, ParentType], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id
      WHERE p.parent_id = ? AND g.type = ? ORDER BY p.display_order, p.id`,
  );
  const held = db.prepare<[string, string, ParentType], HeldRow>(
    `SELECT ${PRODUCT_COLUMNS}, up.quantity
       FROM user_products up JOIN products p ON p.id = up.product_id JOIN games g ON g.id = p.parent_id
      WHERE up.uid = ? AND p.parent_id = ? AND g.type = ? AND up.quantity >= 1
      ORDER BY p.display_order, p.id`,
  );
  const quantity = db.prepare<[string, number], { quantity: number }>(
    'SELECT quantity FROM user_products WHERE uid = ? AND product_id = ?',
  );
  const setQuantity = db.prepare(
    `INSERT INTO user_products (uid, product_id, quantity, created_on, updated_on) VALUES (@uid, @productId, @quantity, @now, @now)
     ON CONFLICT (uid, product_id) DO UPDATE SET quantity = excluded.quantity, updated_on = excluded.updated_on`,
  );
  const addSold = db.prepare('UPDATE products SET sold = sold + ? WHERE id = ?');
  const insertProduct = db.prepare(
    `INSERT OR IGNORE INTO products (parent_id, sku, name, description, type, price_cents, display_order, data, image,
       status, sold, created_on, updated_on)
     VALUES (@parentId, @sku, @name, @description, @type, @priceCents, @displayOrder, @data, @image,
       @status, @sold, @createdOn, @updatedOn)`,
  );
  const productId = db.prepare<[string, string], { id: number }>('SELECT id FROM products WHERE parent_id = ? AND sku = ?');

  const held1 = (uid: string, productId: number): number => quantity.get(uid, productId)?.quantity ?? 0;

  const grant = db.transaction((uid: string, productId: number, qty: number, now: number): HeldProduct => {
    const after = held1(uid, productId) + qty;
    setQuantity.run({ uid, productId, quantity: after, now });
    addSold.run(qty, productId);
    const row = byId.get(productId);
    if (!row) throw new Error(`product ${productId} vanished`);
    return { product: toProduct(row), quantity: after };
  });

  const take = db.transaction((uid: string, productId: number, qty: number, now: number): HeldProduct => {
    const before = held1(uid, productId);
    if (qty > before) throw new InsufficientQuantityError(before, qty);
    setQuantity.run({ uid, productId, quantity: before - qty, now });
    const row = byId.get(productId);
    if (!row) throw new Error(`product ${productId} vanished`);
    return { product: toProduct(row), quantity: before - qty };
  });

  return {
    findBySku(parentType: ParentType, parentId: string, sku: string): ProductRecord | undefined {
      const row = bySku.get(parentId, parentType, sku);
      return row && toProduct(row);
    },

    productsOf(parentType: ParentType, parentId: string): ProductRecord[] {
      return ofParent.all(parentId, parentType).map(toProduct);
    },

    /** What the user holds (quantity >= 1) of the parent's products, in display order. */
    held(uid: string, parentType: ParentType, parentId: string): HeldProduct[] {
      return held.all(uid, parentId, parentType).map((r) => ({ product: toProduct(r), quantity: r.quantity }));
    },

    quantity(uid: string, productId: number): number {
      return held1(uid, productId);
    },

    /** Adds units (a purchase or gift) and counts them as sold; one immediate transaction. */
    grant(uid: string, productId: number, qty: number, now: number): HeldProduct {
      return grant.immediate(uid, productId, qty, now);
    },

    /** Removes units; throws InsufficientQuantityError (and changes nothing) when fewer are held. */
    take(uid: string, productId: number, qty: number, now: number): HeldProduct {
      return take.immediate(uid, productId, qty, now);
    },

    /** Inserts unless (parent, sku) exists; returns the product's id. */
    insert(product: NewProduct): number {
      insertProduct.run({ ...product, data: JSON.stringify(product.data) });
      const row = productId.get(product.parentId, product.sku);
      if (!row) throw new Error(`product ${product.sku} was not stored`);
      return row.id;
    },

    /** Seeding: sets a holding as given. */
    setQuantity(uid: string, productId: number, qty: number, now: number): void {
      setQuantity.run({ uid, productId, quantity: qty, now });
    },
  };
}

export type ProductsRepository = ReturnType<typeof productsRepository>;
