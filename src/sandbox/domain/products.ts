/**
 * The platform's two product types (SERVICE.md: Products; docs/PLATFORM.md), free of SQL and HTTP.
 * An unlockable is held or not. A consumable is held in units, counted on its base: its sku is
 * `BASE:PACK` (`gold:10`, `gold:100` are two packs of the one `gold`), and a request may name it
 * by `BASE` or by any `BASE:N`.
 */
import { splitPack } from '../../domain/packs.js';

export { splitPack, unitsMoved } from '../../domain/packs.js';

export type ProductKind = 'unlockable' | 'consumable';

export function productKind(type: string): ProductKind {
  return type === 'consumable' ? 'consumable' : 'unlockable';
}

/** What holdings are counted on: a consumable's base, an unlockable's sku. */
export function holdingItem(kind: ProductKind, sku: string): string {
  return kind === 'consumable' ? splitPack(sku).base : sku;
}

/** The units after a grant: a consumable adds them; an unlockable is held once however many are given. */
export function afterGrant(kind: ProductKind, held: number, qty: number): number {
  return kind === 'consumable' ? held + qty : 1;
}
