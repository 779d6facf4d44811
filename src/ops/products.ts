/**
 * One user's product changes, as functions of (client, uid, ...) so the command handlers and
 * the batch runner (@FILE in place of <uid>) share them. Arguments are already validated.
 */
import { LIMITS } from '../domain/contract.js';
import type { ApiClient, ProductTarget, Reply } from '../client/types.js';
import { ApiError, UsageError } from '../errors.js';
import { amountText, unitsOfChange } from '../domain/packs.js';
import type { ProductEntry } from '../domain/types.js';
import { parseInteger, parseKey } from './args.js';
import { resolveParent, type ResolveTarget } from './achievements.js';
import { withSuggestion } from './suggest.js';
import { grouped } from '../domain/grouped.js';

/**
 * Gives `qty`: naming a pack (`gems:500`) that many packs, naming the base that many units
 * (`unitsOfChange`). By a signed PUT increment=true (which counts units, so the pack's units are
 * sent), or with via 'post' an unsigned POST grant (a purchase or gift, which counts packs
 * itself). Neither is idempotent; the client never retries them once sent.
 */
export function giveProduct(
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  qty: number,
  via: 'put' | 'post' = 'put',
): Promise<Reply<ProductEntry>> {
  return via === 'post'
    ? client.grantProduct(uid, target, qty)
    : client.adjustProduct(uid, target, unitsOfChange(target.sku, qty), 'increment');
}

/** The service's largest qty (SERVICE.md: parameters). */
const MAX_UNITS = LIMITS.maxCount;

/** `--qty` against what the service takes at once (packs × pack size). Throws UsageError; sends nothing. */
/** `--qty` as give and take read it: an integer ≥ 1 whose units the service takes at once. */
export function parseQty(given: string | undefined, target: ProductTarget): number {
  const qty = parseInteger(given ?? '1', '--qty', { min: 1 });
  checkQty(target, qty);
  return qty;
}

export function checkQty(target: ProductTarget, qty: number): void {
  const units = unitsOfChange(target.sku, qty);
  if (units > MAX_UNITS) {
    throw new UsageError(
      `invalid --qty: ${amountText(target.sku, qty)}, more than the ${grouped(MAX_UNITS)} the service takes at once`,
    );
  }
}

/**
 * Takes `qty`, counted as a give counts it: naming a pack that many packs, naming the base that
 * many units (signed PUT decrement=true, which counts units). More than held: ApiError 409, nothing changes.
 */
export async function takeProduct(
  client: ApiClient,
  uid: string,
  target: ProductTarget,
  qty: number,
): Promise<Reply<ProductEntry>> {
  const units = unitsOfChange(target.sku, qty);
  try {
    return await client.adjustProduct(uid, target, units, 'decrement');
  } catch (err) {
    if (err instanceof ApiError && err.code === 409 && err.hint === undefined) {
      err.hint = `the user holds fewer than ${grouped(units)} units of ${target.sku}; nothing was changed (see \`udcli products list ${uid} --sku ${target.sku}\`)`;
    }
    throw err;
  }
}

/** The user's current entry for the sku, or null when they hold none (for before/after views). */
export async function readProduct(client: ApiClient, uid: string, target: ProductTarget): Promise<ProductEntry | null> {
  const query: { parentId: string; type?: ProductTarget['type']; sku: string } = {
    parentId: target.parentId,
    sku: target.sku,
  };
  if (target.type !== undefined) query.type = target.type;
  const reply = await client.listProducts(uid, query);
  // The contract's sandbox answers one entry for a sku (a base: its smallest pack, with the base's
  // units); a platform that lists every pack shows the base's units on each, so any one will do.
  const entries = reply.payload ?? [];
  return entries.find((e) => e?.product?.sku === target.sku) ?? entries[0] ?? null;
}

/**
 * Which product a command means: --game (else the profile's game_id, else a usage error),
 * --type (else the profile's type) and the sku argument. Throws UsageError; sends nothing.
 */
export const resolveProductTarget: ResolveTarget<ProductTarget> = (settings, opts, sku) => {
  const key = parseKey(sku, 'sku');
  const { type, pid } = resolveParent(settings, opts);
  return { parentId: pid, type, sku: key };
};

/** For `.catch()` after a change: a 404 for the sku gets the closest listed one as a hint. */
export function suggestSku(client: ApiClient, uid: string, target: ProductTarget): (error: unknown) => Promise<never> {
  return (error) =>
    withSuggestion(error, {
      what: 'product',
      typed: target.sku,
      listCommand: `udcli products list ${uid}`,
      known: async () =>
        (
          (await client.listProducts(uid, { parentId: target.parentId, ...(target.type ? { type: target.type } : {}) }))
            .payload ?? []
        ).map((e) => e.product.sku),
    });
}
