/**
 * How much of a product a user holds, read from a products entry as the platform sends it
 * (SERVICE.md: Products and Tolerance): `purchase.data` is the units of a consumable, `true`
 * for a held unlockable (the platform's data-objects page; `"active"` in its README's sample),
 * `false` when not held; other clients have met numeric strings and
 * `{quantity}` objects. Shared by the table's HELD column and the receipts' undo.
 */
import type { ProductEntry } from './types.js';

/** A count in `purchase.data`: a number, a numeric string, or an object's `quantity`/`qty`. */
export function countIn(data: unknown): number | undefined {
  const count = (v: unknown): number | undefined => {
    if (typeof v === 'number' && Number.isFinite(v)) return v;
    if (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v)) return Number(v);
    return undefined;
  };
  if (data && typeof data === 'object') {
    const record = data as Record<string, unknown>;
    return count(record.quantity) ?? count(record.qty);
  }
  return count(data);
}

const truthy = (v: unknown) => v === true || v === 'true' || v === 1;

/**
 * Units held: the count when one is given, 1 for a held unlockable, 0 when not held
 * (`success: false`, or no entry); null when the entry says held but not how much.
 */
export function unitsHeld(entry: ProductEntry | null | undefined): number | null {
  if (!entry) return 0;
  const purchase = entry.purchase as Partial<ProductEntry['purchase']> | undefined;
  if (!purchase || typeof purchase !== 'object') return null;
  const count = countIn(purchase.data);
  if (count !== undefined) return count;
  if (!truthy(purchase.success)) return 0;
  // Held, but how much is not said (some platforms answer success with data false).
  return purchase.data === true || purchase.data === 'active' ? 1 : null;
}
