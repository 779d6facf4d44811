/**
 * `products take`: --qty packs of a pack sku, units of a base, as give counts them; a signed PUT
 * decrement; more than held is the service's 409.
 */
import { defineChange } from '../change-registry.js';
import type { ProductOptions } from '../commands/products/index.js';
import { QTY_EXAMPLES, QTY_OPTION, SCOPE_OPTIONS } from '../scope-options.js';

interface TakeOptions extends ProductOptions {
  qty?: string;
}

export default defineChange({
  command: 'products take',
  order: 2,
  description:
    'Take a product away: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT decrement; exit 1 if the user holds fewer)',
  arguments: [{ name: 'sku', key: 'sku', description: 'the product' }],
  options: [...SCOPE_OPTIONS, QTY_OPTION],
  examples: [...QTY_EXAMPLES],
  batchExample: 'xp-boost',
  async type() {
    const [{ productChange }, { parseQty, takeProduct }] = await Promise.all([
      import('../../batch/changes/products.js'),
      import('../../ops/products.js'),
    ]);
    return productChange({
      action: 'take',
      parse(opts: TakeOptions, target) {
        const qty = parseQty(opts.qty, target);
        return { qty, post: false };
      },
      perform: (client, uid, { target, qty }) => takeProduct(client, uid, target, qty),
    });
  },
});
