import type { Column } from '../../../output/types.js';
import type { ProductEntry } from '../../../spec/types.js';
import { cellText } from '../../args.js';

/** Units held, from purchase.data.quantity; blank when the service sends `false` or nothing. */
export function quantityOf(entry: ProductEntry): number | undefined {
  const data = entry?.purchase?.data;
  if (data && typeof data === 'object' && 'quantity' in data) {
    const q = Number((data as { quantity: unknown }).quantity);
    if (Number.isFinite(q)) return q;
  }
  return undefined;
}

export const PRODUCT_COLUMNS: ReadonlyArray<Column<ProductEntry>> = [
  { key: 'sku', header: 'SKU', cell: (e) => cellText(e?.product?.sku) },
  { key: 'name', header: 'NAME', cell: (e) => cellText(e?.product?.name) },
  { key: 'type', header: 'TYPE', cell: (e) => cellText(e?.product?.type) },
  { key: 'quantity', header: 'QUANTITY', cell: (e) => cellText(quantityOf(e)) },
  { key: 'price', header: 'PRICE', cell: (e) => cellText(e?.product?.price) },
];

/**
 * What --fields picks from: the product's own fields and `quantity` at the top level (so
 * `--fields sku,quantity` means what it says), plus `purchase` and `product` as received.
 * Without --fields, entries are printed exactly as the service sent them.
 */
export function fieldView(entry: ProductEntry): ProductEntry & Record<string, unknown> {
  const product = entry?.product && typeof entry.product === 'object' ? entry.product : {};
  return { ...product, quantity: quantityOf(entry) ?? null, purchase: entry?.purchase, product: entry?.product } as ProductEntry &
    Record<string, unknown>;
}

/** The rows to print: as received, or the field view when --fields narrows them. */
export function forFields(entries: ProductEntry[], fields: readonly string[] | undefined): ProductEntry[] {
  return fields ? entries.map(fieldView) : entries;
}
