/**
 * 4.4 Products (SERVICE.md: Products): list every product of the game held or not (GET), grant
 * (POST, unsigned), increment/decrement (PUT, signed). A consumable is named by its `BASE:PACK`
 * sku, its base, or any `BASE:N`; its units are counted on the base.
 */
import { ENDPOINTS } from '../../domain/endpoints.js';
import { apiRoute, endpoint, namedParent, ok, type ApiRoute, type HandlerContext } from '../http/endpoint.js';
import { fail, shown } from '../http/failure.js';
import { InsufficientQuantityError, type HeldProduct, type ProductRecord } from '../repositories/products.js';
import { splitPack, unitsMoved } from '../domain/products.js';
import { presentEntry } from '../present.js';
import { productChangeParams, productGrantParams, productsListParams, type ProductsTarget } from '../schemas.js';

function checkTarget({ repos }: HandlerContext, t: ProductsTarget): void {
  if (!repos.users.findByUid(t.uid)) throw fail.notFound(`user ${t.uid}`);
  if (!repos.games.findParent(t.parentType, t.parentId)) {
    throw fail.notFound(`${t.parentType === 'Game' ? 'game' : 'website'} ${t.parentId}`);
  }
}

function namedOrFail(ctx: HandlerContext, t: ProductsTarget & { sku: string }): ProductRecord[] {
  const products = ctx.repos.products.named(t.parentType, t.parentId, t.sku);
  if (products.length === 0)
    throw fail.notFound(`product ${shown(t.sku)} of ${t.parentType === 'Game' ? 'game' : 'website'} ${t.parentId}`);
  return products;
}

/** The product a change is reported on: the one named exactly, else the base's first pack. */
const changeTarget = (ctx: HandlerContext, t: ProductsTarget & { sku: string }): ProductRecord =>
  namedOrFail(ctx, t)[0]!;

/**
 * A consumable named by its base names every pack; the platform answers one entry for it (the
 * SDK's retrievePurchase resolves only a single entry): the smallest pack, with the base's units.
 */
function oneEntry(entries: HeldProduct[]): HeldProduct[] {
  if (entries.length <= 1) return entries;
  const smallest = entries.reduce((best, h) =>
    splitPack(h.product.sku).pack < splitPack(best.product.sku).pack ? h : best,
  );
  return [smallest];
}

const units = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;

function holdsMessage(h: HeldProduct): string {
  if (h.quantity < 1) return 'not held';
  return h.product.kind === 'consumable' ? `holds ${units(h.quantity)}` : 'held';
}

function grantMessage(h: HeldProduct, qty: number, verb: string): string {
  if (!h.changed) return 'already held';
  return h.product.kind === 'consumable' ? `${verb} ${units(qty)}; holds ${units(h.quantity)}` : `${verb}; held`;
}

const productsRoute: ApiRoute = apiRoute(
  endpoint({
    row: ENDPOINTS.listProducts,
    params: productsListParams,
    parentOf: namedParent,
    handle(ctx, p) {
      checkTarget(ctx, p);
      const only =
        p.sku === undefined ? undefined : new Set(namedOrFail(ctx, { ...p, sku: p.sku }).map((product) => product.id));
      const all = ctx.repos.products.listFor(p.uid, p.parentType, p.parentId);
      const listed = only ? oneEntry(all.filter((h) => only.has(h.product.id))) : all;
      return ok(listed.map((h) => presentEntry(h, holdsMessage(h))));
    },
  }),
  endpoint({
    row: ENDPOINTS.grantProduct,
    params: productGrantParams,
    parentOf: namedParent,
    handle(ctx, p) {
      checkTarget(ctx, p);
      const added = unitsMoved(p.sku, p.qty, 'post');
      const product = changeTarget(ctx, p);
      // A grant naming a pack buys that pack: one the game does not sell (`gems:7` beside gems:500) is no product, not
      // 7 × qty units.
      if (product.sku !== p.sku && splitPack(p.sku).base !== p.sku) {
        throw fail.notFound(
          `product ${shown(p.sku)} of ${p.parentType === 'Game' ? 'game' : 'website'} ${p.parentId} (no such pack)`,
        );
      }
      // A purchase (the play page's store buys this way) only of what is on sale; a signed PUT may still give it.
      if (product.status !== 'active')
        throw fail.notFound(
          `product ${shown(p.sku)} on sale in ${p.parentType === 'Game' ? 'game' : 'website'} ${p.parentId} (it is ${shown(product.status, 16)})`,
        );
      const held = ctx.repos.products.grant(p.uid, product, added, ctx.now);
      return ok(presentEntry(held, grantMessage(held, added, 'granted')));
    },
  }),
  endpoint({
    row: ENDPOINTS.adjustProduct,
    params: productChangeParams,
    parentOf: namedParent,
    handle(ctx, p) {
      checkTarget(ctx, p);
      const product = changeTarget(ctx, p);
      if (p.direction === 'increment') {
        const held = ctx.repos.products.grant(p.uid, product, p.qty, ctx.now);
        return ok(presentEntry(held, grantMessage(held, p.qty, 'added')));
      }
      try {
        const held = ctx.repos.products.take(p.uid, product, p.qty, ctx.now);
        return ok(
          presentEntry(
            held,
            product.kind === 'consumable'
              ? `removed ${units(p.qty)}; holds ${units(held.quantity)}`
              : 'removed; not held',
          ),
        );
      } catch (error) {
        if (error instanceof InsufficientQuantityError) throw fail.insufficientQuantity(error.held, error.wanted);
        throw error;
      }
    },
  }),
);

/** This module's routes, in the order /openapi.json lists them (routes/index.ts reads them). */
export const ROUTES: readonly ApiRoute[] = [productsRoute];
