/** `udcli products list|give|take`. */
import type { Command } from 'commander';
import { addBatchOptions } from '../../../batch/flags.js';
import type { Factory } from '../../../ops/factory.js';
import { BATCH_USER_ARGUMENT, batchExample } from '../../batch-help.js';

export interface ProductOptions {
  game?: string;
  type?: string;
}

export interface ListOptions extends ProductOptions {
  sku?: string;
}

export interface GiveOptions extends ProductOptions {
  qty?: string;
  post?: boolean;
}

export interface TakeOptions extends ProductOptions {
  qty?: string;
}

const UID = '01e528d59829836fd23b09085b56edab';

function parentOptions(cmd: Command): Command {
  return cmd
    .option('--game <id>', "the game (default: the profile's game_id)")
    .option('--type <type>', "Game or Website (default: the profile's type, else Game)");
}

export function register(program: Command, factory: Factory): void {
  const products = program
    .command('products')
    .description('Products (premium content) a user holds; give and take units')
    .addHelpText('after', `\nExamples:\n  $ udcli products list ${UID}\n${batchExample('products give', 'xp-boost')}`);

  parentOptions(products.command('list').description('List the products of the game, with what the user holds of each (HELD)').argument('<user>', 'a uid (32 hex digits) or a username'))
    .option('--sku <sku>', 'only this product')
    .addHelpText('after', `\nExamples:\n  $ udcli products list ${UID}\n  $ udcli products list ${UID} --sku GOLD_PACK -o csv`)
    .action(async (uid: string, opts: ListOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });

  parentOptions(
    products
      .command('give')
      .description('Give a product: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT, or POST with --post)')
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<sku>', 'the product'),
  )
    .option('--qty <n>', 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units', '1')
    .option('--post', 'send an unsigned POST grant (a purchase or gift) instead of a signed PUT')
    .addHelpText('after', `\nExamples:\n  $ udcli products give ${UID} gems:500 --qty 2   # 2 packs: 1,000 units\n  $ udcli products give ${UID} gems --qty 30       # 30 units\n${batchExample('products give', 'xp-boost')}`)
    .action(async (uid: string, sku: string, opts: GiveOptions) => {
      const { run } = await import('./give.js');
      await run(factory, { uid, sku }, opts);
    });

  parentOptions(
    products
      .command('take')
      .description('Take units of a product away (signed PUT decrement; exit 1 if the user holds fewer)')
      .argument('<user>', BATCH_USER_ARGUMENT)
      .argument('<sku>', 'the product'),
  )
    .option('--qty <n>', 'units to take, an integer ≥ 1 (units, whichever pack the sku names)', '1')
    .addHelpText('after', `\nExamples:\n  $ udcli products take ${UID} GOLD_PACK --qty 1\n${batchExample('products take', 'xp-boost')}`)
    .action(async (uid: string, sku: string, opts: TakeOptions) => {
      const { run } = await import('./take.js');
      await run(factory, { uid, sku }, opts);
    });
  // @FILE / @- in place of <uid>: --concurrency, --rate, --dry-run, --journal, --fail-fast, --retry-unknown
  for (const verb of ['give', 'take']) addBatchOptions(products.commands.find((c) => c.name() === verb)!);
}
