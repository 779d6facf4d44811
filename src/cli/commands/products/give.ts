import { runChange } from '../../../batch/change.js';
import type { BatchFlags } from '../../../batch/flags.js';
import { amountText } from '../../../domain/packs.js';
import { parseInteger } from '../../../ops/args.js';
import type { Factory } from '../../../ops/factory.js';
import { checkGiveQty, giveProduct } from '../../../ops/products.js';
import { productChange } from './change.js';
import type { GiveOptions } from './index.js';

/** `products give`: --qty packs of a pack sku, units of a base; signed PUT, or the POST grant with --post. */
export const giveChange = productChange({
  action: 'give',
  parse(opts: GiveOptions, target) {
    const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
    checkGiveQty(target, qty);
    return { qty, post: opts.post === true };
  },
  what({ target, qty }) {
    const amount = amountText(target.sku, qty, 'give');
    return amount.includes('×') ? amount : `${amount} of ${target.sku}`;
  },
  perform: (client, uid, { target, qty, post }) => giveProduct(client, uid, target, qty, post ? 'post' : 'put'),
});

export async function run(factory: Factory, args: { uid: string; sku: string }, opts: GiveOptions & BatchFlags): Promise<void> {
  await runChange(factory, giveChange, args, opts);
}
