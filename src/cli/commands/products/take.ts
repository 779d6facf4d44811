import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import { amountText } from '../../../domain/packs.js';
import { parseInteger } from '../../../ops/args.js';
import type { Factory } from '../../../ops/factory.js';
import { takeProduct } from '../../../ops/products.js';
import { productChange } from './change.js';
import type { TakeOptions } from './index.js';

/** `products take`: signed PUT decrement of --qty units; more than held is the service's 409. */
export const takeChange = productChange({
  action: 'take',
  parse: (opts: TakeOptions) => ({ qty: parseInteger(opts.qty ?? '1', '--qty', { min: 1 }), post: false }),
  what: ({ target, qty }) => `${amountText(target.sku, qty, 'take')} of ${target.sku}`,
  perform: (client, uid, { target, qty }) => takeProduct(client, uid, target, qty),
});

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: TakeOptions & BatchFlags): Promise<void> {
  await runChange(factory, takeChange, args, opts);
}
