/**
 * Products of a game and what each user holds of them (SERVICE.md: Products). Holdings are kept
 * per item (domain/products.ts): every pack of a consumable shares its base's units.
 */
import type { Database } from 'better-sqlite3';
import type { ParentType } from '../../domain/types.js';
import { afterGrant, holdingItem, productKind, splitPack, type ProductKind } from '../domain/products.js';

export interface ProductRecord {
  id: number;
  parentId: string;
  parentType: ParentType;
  sku: string;
  /** What holdings are counted on (the consumable's base, else the sku). */
  item: string;
  kind: ProductKind;
  name: string;
  description: string;
  type: string;
  priceCents: number;
  displayOrder: number;
  /** `[]`, or `{"consumable_qty": PACK}` for a consumable. */
  data: unknown;
  image: string;
  status: string;
  sold: number;
  createdOn: number;
  updatedOn: number;
}

/** What a user holds of one item of a game, and the products that count on it. */
export interface HoldingRecord {
  parentId: string;
  item: string;
  /** Units: 1 for a held unlockable. */
  quantity: number;
  updatedOn: number;
  /** The products counted on this item (a consumable's packs), in display order; none when the product is gone. */
  products: Array<{ sku: string; name: string; kind: ProductKind }>;
}

export type NewProduct = Omit<ProductRecord, 'id' | 'parentType' | 'item' | 'kind' | 'data'> & { data?: unknown };

export interface HeldProduct {
  product: ProductRecord;
  /** Units of the item held after the request: 0 or 1 for an unlockable. */
  quantity: number;
  /** False when the request changed nothing (an unlockable already held). */
  changed: boolean;
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

export interface ProductRow {
  id: number;
  parent_id: string;
  parent_type: ParentType;
  sku: string;
  item: string;
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

function parseData(json: string): unknown {
  try {
    const value: unknown = JSON.parse(json);
    return value !== null && typeof value === 'object' ? value : [];
  } catch {
    return [];
  }
}

const toProduct = (r: ProductRow): ProductRecord => ({
  id: r.id,
  parentId: r.parent_id,
  parentType: r.parent_type,
  sku: r.sku,
  item: r.item,
  kind: productKind(r.type),
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

const PRODUCT_COLUMNS = `p.id, p.parent_id, g.type AS parent_type, p.sku, p.item, p.name, p.description, p.type, p.price_cents,
  p.display_order, p.data, p.image, p.status, p.sold, p.created_on, p.updated_on`;

export function productsRepository(db: Database) {
  const bySku = db.prepare<[string, ParentType, string], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id
      WHERE p.parent_id = ? AND g.type = ? AND p.sku = ?`,
  );
  const consumablesOfItem = db.prepare<[string, ParentType, string], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id
      WHERE p.parent_id = ? AND g.type = ? AND p.item = ? AND p.type = 'consumable' ORDER BY p.display_order, p.id`,
  );
  const byId = db.prepare<[number], ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p JOIN games g ON g.id = p.parent_id WHERE p.id = ?`,
  );
  const listed = db.prepare<[string, string, ParentType], HeldRow>(
    `SELECT ${PRODUCT_COLUMNS}, coalesce(h.quantity, 0) AS quantity
       FROM products p JOIN games g ON g.id = p.parent_id
       LEFT JOIN holdings h ON h.uid = ? AND h.parent_id = p.parent_id AND h.item = p.item
      WHERE p.parent_id = ? AND g.type = ? AND p.status = 'active'
      ORDER BY p.display_order, p.id`,
  );
  const quantity = db.prepare<[string, string, string], { quantity: number }>(
    'SELECT quantity FROM holdings WHERE uid = ? AND parent_id = ? AND item = ?',
  );
  const setQuantity = db.prepare(
    `INSERT INTO holdings (uid, parent_id, item, quantity, created_on, updated_on) VALUES (@uid, @parentId, @item, @quantity, @now, @now)
     ON CONFLICT (uid, parent_id, item) DO UPDATE SET quantity = excluded.quantity, updated_on = excluded.updated_on`,
  );
  const holdingsOf = db.prepare<
    [string],
    {
      parent_id: string;
      item: string;
      quantity: number;
      updated_on: number;
      sku: string | null;
      name: string | null;
      type: string | null;
    }
  >(
    `SELECT h.parent_id, h.item, h.quantity, h.updated_on, p.sku, p.name, p.type
       FROM holdings h LEFT JOIN products p ON p.parent_id = h.parent_id AND p.item = h.item
      WHERE h.uid = ? AND h.quantity > 0
      ORDER BY h.parent_id, h.item, p.display_order, p.id`,
  );
  const addSold = db.prepare('UPDATE products SET sold = sold + ? WHERE id = ?');
  const insertProduct = db.prepare(
    `INSERT OR IGNORE INTO products (parent_id, sku, item, name, description, type, price_cents, display_order, data, image,
       status, sold, created_on, updated_on)
     VALUES (@parentId, @sku, @item, @name, @description, @type, @priceCents, @displayOrder, @data, @image,
       @status, @sold, @createdOn, @updatedOn)`,
  );
  const productId = db.prepare<[string, string], { id: number }>(
    'SELECT id FROM products WHERE parent_id = ? AND sku = ?',
  );

  const heldOf = (uid: string, p: ProductRecord): number => quantity.get(uid, p.parentId, p.item)?.quantity ?? 0;
  const store = (uid: string, p: ProductRecord, units: number, now: number) =>
    setQuantity.run({ uid, parentId: p.parentId, item: p.item, quantity: units, now });
  const reread = (p: ProductRecord): ProductRecord => {
    const row = byId.get(p.id);
    if (!row) throw new Error(`product ${p.id} vanished`);
    return toProduct(row);
  };

  const grant = db.transaction((uid: string, p: ProductRecord, qty: number, now: number): HeldProduct => {
    const before = heldOf(uid, p);
    const after = afterGrant(p.kind, before, qty);
    if (after === before) return { product: p, quantity: before, changed: false };
    store(uid, p, after, now);
    addSold.run(after - before, p.id);
    return { product: reread(p), quantity: after, changed: true };
  });

  const take = db.transaction((uid: string, p: ProductRecord, qty: number, now: number): HeldProduct => {
    const before = heldOf(uid, p);
    if (qty > before) throw new InsufficientQuantityError(before, qty);
    store(uid, p, before - qty, now);
    return { product: reread(p), quantity: before - qty, changed: true };
  });

  return {
    findBySku(parentType: ParentType, parentId: string, sku: string): ProductRecord | undefined {
      const row = bySku.get(parentId, parentType, sku);
      return row && toProduct(row);
    },

    /**
     * The products a request's sku names: the product with that exact sku, else every pack of
     * the consumable whose base it names (`gold` or `gold:7` → `gold:10`, `gold:100`); [] for none.
     */
    named(parentType: ParentType, parentId: string, sku: string): ProductRecord[] {
      const exact = bySku.get(parentId, parentType, sku);
      if (exact) return [toProduct(exact)];
      return consumablesOfItem.all(parentId, parentType, splitPack(sku).base).map(toProduct);
    },

    /** Every active product of the parent with what the user holds of it, in display order. */
    listFor(uid: string, parentType: ParentType, parentId: string): HeldProduct[] {
      return listed
        .all(uid, parentId, parentType)
        .map((r) => ({ product: toProduct(r), quantity: r.quantity, changed: false }));
    },

    /** Everything the user holds (units above 0), by game and item. */
    holdingsOf(uid: string): HoldingRecord[] {
      const out: HoldingRecord[] = [];
      for (const r of holdingsOf.all(uid)) {
        let last = out.at(-1);
        if (last?.parentId !== r.parent_id || last.item !== r.item) {
          last = { parentId: r.parent_id, item: r.item, quantity: r.quantity, updatedOn: r.updated_on, products: [] };
          out.push(last);
        }
        if (r.sku !== null) last.products.push({ sku: r.sku, name: r.name ?? '', kind: productKind(r.type ?? '') });
      }
      return out;
    },

    /** Units the user holds of the product's item. */
    quantity(uid: string, product: ProductRecord): number {
      return heldOf(uid, product);
    },

    /** Adds units (a purchase or gift) and counts them as sold; one immediate transaction. */
    grant(uid: string, product: ProductRecord, qty: number, now: number): HeldProduct {
      return grant.immediate(uid, product, qty, now);
    },

    /** Removes units; throws InsufficientQuantityError (and changes nothing) when fewer are held. */
    take(uid: string, product: ProductRecord, qty: number, now: number): HeldProduct {
      return take.immediate(uid, product, qty, now);
    },

    /** Inserts unless (parent, sku) exists; returns the product's id. A consumable's data defaults to its pack size. */
    insert(product: NewProduct): number {
      const kind = productKind(product.type);
      const data = product.data ?? (kind === 'consumable' ? { consumable_qty: splitPack(product.sku).pack } : []);
      insertProduct.run({ ...product, item: holdingItem(kind, product.sku), data: JSON.stringify(data) });
      const row = productId.get(product.parentId, product.sku);
      if (!row) throw new Error(`product ${product.sku} was not stored`);
      return row.id;
    },

    /** Seeding: sets a holding of the product's item as given. */
    setQuantity(uid: string, productId: number, qty: number, now: number): void {
      const row = byId.get(productId);
      if (!row) throw new Error(`no product ${productId}`);
      store(uid, toProduct(row), qty, now);
    },
  };
}

export type ProductsRepository = ReturnType<typeof productsRepository>;
