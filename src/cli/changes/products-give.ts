/** `products give`: --qty packs of a pack sku, units of a base; signed PUT, or the POST grant with --post. */
import { defineChange } from '../change-registry.js';
import type { ProductOptions } from '../commands/products/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

interface GiveOptions extends ProductOptions {
  qty?: string;
  post?: boolean;
}

export default defineChange({
  command: 'products give',
  order: 1,
  description:
    'Give a product: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT, or POST with --post)',
  arguments: [{ name: 'sku', key: 'sku', description: 'the product' }],
  options: [
    ...SCOPE_OPTIONS,
    {
      flags: '--qty <n>',
      description: 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units',
      default: '1',
    },
    { flags: '--post', description: 'send an unsigned POST grant (a purchase or gift) instead of a signed PUT' },
  ],
  examples: ['UID gems:500 --qty 2   # 2 packs: 1,000 units', 'UID gems --qty 30       # 30 units'],
  batchExample: 'xp-boost',
  async type() {
    const [{ productChange }, { checkQty, giveProduct }, { amountText }, { parseInteger }] = await Promise.all([
      import('../../batch/changes/products.js'),
      import('../../ops/products.js'),
      import('../../domain/packs.js'),
      import('../../ops/args.js'),
    ]);
    return productChange({
      action: 'give',
      parse(opts: GiveOptions, target) {
        const qty = parseInteger(opts.qty ?? '1', '--qty', { min: 1 });
        checkQty(target, qty);
        return { qty, post: opts.post === true };
      },
      what({ target, qty }) {
        const amount = amountText(target.sku, qty);
        return amount.includes('×') ? amount : `${amount} of ${target.sku}`;
      },
      perform: (client, uid, { target, qty, post }) => giveProduct(client, uid, target, qty, post ? 'post' : 'put'),
    });
  },
});
