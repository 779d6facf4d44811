/** 4.4 Products: list (GET), grant (POST, unsigned), increment/decrement (PUT, signed). */
import { endpoint, ok, type ApiRoute, type HandlerContext } from '../http/endpoint.js';
import { fail, shown } from '../http/failure.js';
import { InsufficientQuantityError, type ProductRecord } from '../repositories/products.js';
import { presentEntry } from '../present.js';
import { productChangeParams, productGrantParams, productsListParams, type ProductsTarget } from '../schemas.js';

function checkTarget({ repos }: HandlerContext, t: ProductsTarget): void {
  if (!repos.users.findByUid(t.uid)) throw fail.notFound(`user ${t.uid}`);
  if (!repos.games.findParent(t.parentType, t.parentId)) {
    throw fail.notFound(`${t.parentType === 'Game' ? 'game' : 'website'} ${t.parentId}`);
  }
}

function productOrFail(ctx: HandlerContext, t: ProductsTarget & { sku: string }): ProductRecord {
  const product = ctx.repos.products.findBySku(t.parentType, t.parentId, t.sku);
  if (!product) throw fail.notFound(`product ${shown(t.sku)} of ${t.parentType === 'Game' ? 'game' : 'website'} ${t.parentId}`);
  return product;
}

const plural = (n: number) => `${n} unit${n === 1 ? '' : 's'}`;

export const productsRoute: ApiRoute = {
  path: '/products/user/:id',
  methods: {
    GET: endpoint({
      apiKey: 'required',
      signature: 'none',
      params: productsListParams,
      handle(ctx, p) {
        checkTarget(ctx, p);
        const only = p.sku === undefined ? undefined : productOrFail(ctx, { ...p, sku: p.sku });
        const held = ctx.repos.products.held(p.uid, p.parentType, p.parentId).filter((h) => !only || h.product.id === only.id);
        return ok(held.map((h) => presentEntry(h, `holds ${plural(h.quantity)}`)));
      },
    }),
    POST: endpoint({
      apiKey: 'required',
      signature: 'none',
      params: productGrantParams,
      handle(ctx, p) {
        checkTarget(ctx, p);
        const product = productOrFail(ctx, p);
        const held = ctx.repos.products.grant(p.uid, product.id, p.qty, ctx.now);
        return ok(presentEntry(held, `granted ${plural(p.qty)}`));
      },
    }),
    PUT: endpoint({
      apiKey: 'required',
      signature: 'required',
      params: productChangeParams,
      handle(ctx, p) {
        checkTarget(ctx, p);
        const product = productOrFail(ctx, p);
        if (p.direction === 'increment') {
          return ok(presentEntry(ctx.repos.products.grant(p.uid, product.id, p.qty, ctx.now), `added ${plural(p.qty)}`));
        }
        try {
          return ok(presentEntry(ctx.repos.products.take(p.uid, product.id, p.qty, ctx.now), `removed ${plural(p.qty)}`));
        } catch (error) {
          if (error instanceof InsufficientQuantityError) throw fail.insufficientQuantity(error.held, error.wanted);
          throw error;
        }
      },
    }),
  },
};
