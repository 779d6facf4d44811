/** `udcli products list`, and the changes declared in src/cli/changes/products-*.ts. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { batchExample } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { addScopeOptions } from '../../scope-options.js';

export interface ProductOptions {
  game?: string;
  type?: string;
}

export interface ListOptions extends ProductOptions {
  sku?: string;
}

const UID = '01e528d59829836fd23b09085b56edab';

export async function register(program: Command, factory: Factory): Promise<void> {
  const products = program
    .command('products')
    .description('Products (premium content) a user holds; give and take units')
    .addHelpText('after', `\nExamples:\n  $ udcli products list ${UID}\n${batchExample('products give', 'xp-boost')}`);

  addScopeOptions(products.command('list').description('List the products of the game, with what the user holds of each (HELD)').argument('<user>', 'a uid (32 hex digits) or a username'))
    .option('--sku <sku>', 'only this product')
    .addHelpText('after', `\nExamples:\n  $ udcli products list ${UID}\n  $ udcli products list ${UID} --sku GOLD_PACK -o csv`)
    .action(async (uid: string, opts: ListOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });

  // give, take: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(products, factory);
}
