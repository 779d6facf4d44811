/** `udcli products list`, and the changes declared in src/cli/changes/products-*.ts. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { EXAMPLE_UID, batchExample } from '../../batch-help.js';
import { registerChanges } from '../../change-registry.js';
import { SCOPE_VERB_OPTIONS, type ScopeOptions } from '../../scope-options.js';
import { addVerb, type Verb } from '../../verb.js';
import type { ListOptions } from './list.js';

export type ProductOptions = ScopeOptions;

export const PRODUCTS: Verb = {
  name: 'products',
  description: 'Products (premium content) a user holds; give and take units',
  after: `\nExamples:\n  $ udcli products list ${EXAMPLE_UID}\n${batchExample('products give', 'xp-boost')}`,
  verbs: [
    {
      name: 'list',
      description: 'List the products of the game, with what the user holds of each (HELD)',
      arguments: [['<user>', 'a uid (32 hex digits) or a username']],
      options: [...SCOPE_VERB_OPTIONS, ['--sku <sku>', 'only this product']],
      examples: [`udcli products list ${EXAMPLE_UID}`, `udcli products list ${EXAMPLE_UID} --sku GOLD_PACK -o csv`],
      run: async (factory, uid: string, opts: ListOptions) => (await import('./list.js')).run(factory, { uid }, opts),
    },
  ],
};

export async function register(program: Command, factory: Factory): Promise<void> {
  // give, take: one declaration each in src/cli/changes/ (the change registry).
  await registerChanges(addVerb(program, factory, PRODUCTS), factory);
}
