/**
 * A consumable's packs (SERVICE.md: Products; docs/PLATFORM.md): its sku is `BASE:PACK` (`gems:500`),
 * units are counted on the base, and a request may name the base or a pack. Shared by the
 * sandbox (what a grant adds) and the CLI (what a lost grant's reply would have shown).
 */

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
 * Units a `udcli products give|take` moves (docs/CLI.md): `give` naming a pack gives `qty` packs, by
 * the signed PUT as by the POST grant (support staff mean "the 25-pack they paid for"); `give`
 * naming the base, and every `take`, count `qty` units.
 */
export function unitsOfChange(sku: string, qty: number, action: 'give' | 'take'): number {
  return action === 'give' ? qty * splitPack(sku).pack : qty;
}

/** How a receipt names the quantity: `2 × gems:500 = 1,000 units`, or `25 units`. */
export function amountText(sku: string, qty: number, action: 'give' | 'take'): string {
  const units = unitsOfChange(sku, qty, action);
  const unitsText = `${units.toLocaleString('en-US')} ${units === 1 ? 'unit' : 'units'}`;
  return action === 'give' && splitPack(sku).pack > 1
    ? `${qty.toLocaleString('en-US')} × ${sku} = ${unitsText}`
    : unitsText;
}
