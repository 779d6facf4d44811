import type { Column } from '../../output/types.js';
import type { ProductEntry } from '../../domain/types.js';
import { countIn } from '../../domain/holdings.js';
import { cellText } from '../args.js';

/** Units held of a consumable: a count in purchase.data; undefined for `false`, `"active"`, nothing. */
export function quantityOf(entry: ProductEntry): number | undefined {
  return countIn(entry?.purchase?.data);
}

/**
 * Whether the user holds it: `yes` (an unlockable, or held with no count given), the units of a
 * consumable (`17`), or `-` (not held: `success: false`, `data: false`, zero units).
 */
export function heldText(entry: ProductEntry): string {
  const purchase = entry?.purchase;
  if (!purchase || typeof purchase !== 'object') return '-';
  const quantity = quantityOf(entry);
  if (quantity !== undefined) return quantity > 0 ? String(quantity) : '-';
  const success =
    purchase.success === true || purchase.success === ('true' as unknown) || purchase.success === (1 as unknown);
  if (!success || purchase.data === false || purchase.data === null) return '-';
  return 'yes';
}

export const PRODUCT_COLUMNS: ReadonlyArray<Column<ProductEntry>> = [
  { key: 'sku', header: 'SKU', cell: (e) => cellText(e?.product?.sku) },
  { key: 'name', header: 'NAME', cell: (e) => cellText(e?.product?.name) },
  { key: 'type', header: 'TYPE', cell: (e) => cellText(e?.product?.type) },
  { key: 'held', header: 'HELD', cell: heldText },
  { key: 'price', header: 'PRICE', cell: (e) => cellText(e?.product?.price) },
];

/**
 * What --fields picks from: the product's own fields and `held` and `quantity` (units held) at the top
 * level (so `--fields sku,held,quantity` means what it says), plus `purchase` and `product` as received.
 * Without --fields, entries are printed exactly as the service sent them.
 */
export function fieldView(entry: ProductEntry): ProductEntry & Record<string, unknown> {
  const product = entry?.product && typeof entry.product === 'object' ? entry.product : {};
  const held = heldText(entry);
  // quantity: the units of a consumable; 1 or 0 for an unlockable held or not.
  const quantity = quantityOf(entry) ?? (held === '-' ? 0 : 1);
  return { ...product, held, quantity, purchase: entry?.purchase, product: entry?.product } as ProductEntry &
    Record<string, unknown>;
}

/** The rows to print: as received, or the field view when --fields narrows them. */
export function forFields(entries: ProductEntry[], fields: readonly string[] | undefined): ProductEntry[] {
  return fields ? entries.map(fieldView) : entries;
}
