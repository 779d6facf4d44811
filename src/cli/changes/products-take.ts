/** `products take`: signed PUT decrement of --qty units; more than held is the service's 409. */
import { defineChange } from '../change-registry.js';
import type { ProductOptions } from '../commands/products/index.js';
import { SCOPE_OPTIONS } from '../scope-options.js';

interface TakeOptions extends ProductOptions {
  qty?: string;
}

export default defineChange({
  command: 'products take',
  order: 2,
  description: 'Take units of a product away (signed PUT decrement; exit 1 if the user holds fewer)',
  arguments: [{ name: 'sku', key: 'sku', description: 'the product' }],
  options: [
    ...SCOPE_OPTIONS,
    {
      flags: '--qty <n>',
      description: 'units to take, an integer ≥ 1 (units, whichever pack the sku names)',
      default: '1',
    },
  ],
  examples: ['UID GOLD_PACK --qty 1'],
  batchExample: 'xp-boost',
  async type() {
    const [{ productChange }, { takeProduct }, { amountText }, { parseInteger }] = await Promise.all([
      import('../../batch/changes/products.js'),
      import('../../ops/products.js'),
      import('../../domain/packs.js'),
      import('../../ops/args.js'),
    ]);
    return productChange({
      action: 'take',
      parse: (opts: TakeOptions) => ({ qty: parseInteger(opts.qty ?? '1', '--qty', { min: 1 }), post: false }),
      what: ({ target, qty }) => `${amountText(target.sku, qty, 'take')} of ${target.sku}`,
      perform: (client, uid, { target, qty }) => takeProduct(client, uid, target, qty),
    });
  },
});
