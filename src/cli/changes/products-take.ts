/**
 * `products take`: --qty packs of a pack sku, units of a base, as give counts them; a signed PUT
 * decrement; more than held is the service's 409.
 */
import { defineChange } from '../change-registry.js';
import type { ProductOptions } from '../commands/products/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

interface TakeOptions extends ProductOptions {
  qty?: string;
}

export default defineChange({
  command: 'products take',
  order: 2,
  description:
    'Take a product away: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT decrement; exit 1 if the user holds fewer)',
  arguments: [{ name: 'sku', key: 'sku', description: 'the product' }],
  options: [
    ...SCOPE_OPTIONS,
    {
      flags: '--qty <n>',
      description: 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units',
      default: '1',
    },
  ],
  examples: ['UID gems:500 --qty 2   # 2 packs: 1,000 units', 'UID gems --qty 30       # 30 units'],
  batchExample: 'xp-boost',
  async type() {
    const [{ productChange }, { checkQty, takeProduct }, { amountText }, { parseInteger }] = await Promise.all([
      import('../../batch/changes/products.js'),
      import('../../ops/products.js'),
      import('../../domain/packs.js'),
      import('../../ops/args.js'),
    ]);
    return productChange({
      action: 'take',
      parse(opts: TakeOptions, target) {
        const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
        checkQty(target, qty);
        return { qty, post: false };
      },
      what({ target, qty }) {
        const amount = amountText(target.sku, qty);
        return amount.includes('×') ? amount : `${amount} of ${target.sku}`;
      },
      perform: (client, uid, { target, qty }) => takeProduct(client, uid, target, qty),
    });
  },
});
