import type { Factory } from '../../../ops/factory.js';
import type { ParentType } from '../../../domain/types.js';
import { parseKey, parseParentType, parseUserArg, printList, resolveGame } from '../../../ops/args.js';
import { resolveUid } from '../../../ops/users.js';
import { PRODUCT_COLUMNS, forFields } from '../../../ops/columns/products.js';
import type { ProductOptions } from './index.js';

export interface ListOptions extends ProductOptions {
  sku?: string;
}

export async function run(factory: Factory, args: { uid: string }, opts: ListOptions): Promise<void> {
  const user = parseUserArg(args.uid, 'uid', 'products list');
  const sku = opts.sku === undefined ? undefined : parseKey(opts.sku, 'sku');
  const explicitType = opts.type === undefined ? undefined : parseParentType(opts.type);
  const settings = await factory.settings();
  const parentId = resolveGame(opts.game, settings, 'pass --game ID');
  const query: { parentId: string; type?: ParentType; sku?: string } = {
    parentId,
    type: explicitType ?? settings.type,
  };
  if (sku !== undefined) query.sku = sku;

  const client = await factory.client();
  const uid = await resolveUid(client, user);
  const out = await factory.output();
  const reply = await out.spin('Fetching products', () => client.listProducts(uid, query));
  await printList(
    factory,
    { bodyText: reply.bodyText, payload: forFields(reply.payload ?? [], factory.globals().fields) },
    PRODUCT_COLUMNS,
  );
}
