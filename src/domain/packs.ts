/**
 * A consumable's packs (SERVICE.md: Products; docs/PLATFORM.md): its sku is `BASE:PACK` (`gems:500`),
 * units are counted on the base, and a request may name the base or a pack. Shared by the
 * sandbox (what a grant adds) and the CLI (what a lost grant's reply would have shown).
 */
import { grouped } from './grouped.js';

const PACKED = /^(.+):([1-9]\d{0,8})$/;

/** The base and pack size a `BASE:PACK` name carries; a name without `:PACK` is its own base, a pack of one. */
export function splitPack(sku: string): { base: string; pack: number } {
  const m = PACKED.exec(sku);
  return m ? { base: m[1]!, pack: Number(m[2]) } : { base: sku, pack: 1 };
}

/**
 * Units of a consumable a change moves: a grant (POST, a purchase or gift) naming a pack gives
 * `qty` packs, as buying that pack would (`gems:500`, qty 2: 1,000 units); a grant naming the
 * base, and every PUT (the SDK's `consume(sku, n)` takes n units), count `qty` units.
 */
export function unitsMoved(sku: string, qty: number, via: 'put' | 'post'): number {
  return via === 'post' ? qty * splitPack(sku).pack : qty;
}

/**
 * Units a `udcli products give|take` moves (docs/CLI.md): naming a pack (`gems:500`) moves `qty`
 * packs, by the signed PUT as by the POST grant (support staff mean "the 25-pack they paid for",
 * and a take undoes a give as typed); naming the base, `qty` units.
 */
export function unitsOfChange(sku: string, qty: number): number {
  return qty * splitPack(sku).pack;
}

/** How a receipt names the quantity: `2 × gems:500 = 1,000 units`, or `25 units`. */
export function amountText(sku: string, qty: number): string {
  const units = unitsOfChange(sku, qty);
  const unitsText = `${grouped(units)} ${units === 1 ? 'unit' : 'units'}`;
  return splitPack(sku).pack > 1 ? `${grouped(qty)} × ${sku} = ${unitsText}` : unitsText;
}
