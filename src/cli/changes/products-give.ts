/** `products give`: --qty packs of a pack sku, units of a base; signed PUT, or the POST grant with --post. */
import { defineChange } from '../change-registry.js';
import type { ProductOptions } from '../commands/products/index.js';
import { QTY_EXAMPLES, QTY_OPTION, SCOPE_OPTIONS } from '../scope-options.js';

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
    QTY_OPTION,
    { flags: '--post', description: 'send an unsigned POST grant (a purchase or gift) instead of a signed PUT' },
  ],
  examples: [...QTY_EXAMPLES],
  batchExample: 'xp-boost',
  async type() {
    const [{ productChange }, { parseQty, giveProduct }] = await Promise.all([
      import('../../batch/changes/products.js'),
      import('../../ops/products.js'),
    ]);
    return productChange({
      action: 'give',
      parse(opts: GiveOptions, target) {
        const qty = parseQty(opts.qty, target);
        return { qty, post: opts.post === true };
      },
      perform: (client, uid, { target, qty, post }) => giveProduct(client, uid, target, qty, post ? 'post' : 'put'),
    });
  },
});
