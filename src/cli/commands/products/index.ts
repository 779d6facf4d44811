/** `udcli products list`, and the changes declared in src/cli/changes/products-*.ts. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID, batchExample } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { addScopeOptions, type ScopeOptions } from '../../scope-options.js';

export type ProductOptions = ScopeOptions;

export interface ListOptions extends ProductOptions {
  sku?: string;
}

export async function register(program: Command, factory: Factory): Promise<void> {
  const products = program
    .command('products')
    .description('Products (premium content) a user holds; give and take units')
    .addHelpText(
      'after',
      `\nExamples:\n  $ udcli products list ${EXAMPLE_UID}\n${batchExample('products give', 'xp-boost')}`,
    );

  addScopeOptions(
    products
      .command('list')
      .description('List the products of the game, with what the user holds of each (HELD)')
      .argument('<user>', 'a uid (32 hex digits) or a username'),
  )
    .option('--sku <sku>', 'only this product')
    .addHelpText(
      'after',
      `\nExamples:\n  $ udcli products list ${EXAMPLE_UID}\n  $ udcli products list ${EXAMPLE_UID} --sku GOLD_PACK -o csv`,
    )
    .action(async (uid: string, opts: ListOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });

  // give, take: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(products, factory);
}
