/** `udcli sandbox seed`; the handler is seed.ts. */
import type { RawSeedOptions } from './seed-options.js';
import type { Verb } from '../../verb.js';
import { DB } from './verb-options.js';

export const SEED: Verb = {
  name: 'seed',
  description: 'Add generated data: users, a hub user with friends, achievements, products',
  examples: [
    'udcli sandbox seed --users 100000 --friends 100000',
    'udcli sandbox seed --users 5000 --seed 7 --db bench.db',
  ],
  options: [
    ['--users <n>', 'users to generate (default: 1000)'],
    ['--friends <n>', 'friends of the generated hub user, at most --users (default: 500)'],
    ['--achievements <n>', 'achievements on game 1001 (default: 10)'],
    ['--products <n>', 'products on game 1001 (default: 5)'],
    ['--seed <s>', 'same seed, same data (default: 1)'],
    DB,
    ['--json', 'print the summary as JSON'],
  ],
  run: async (factory, opts: RawSeedOptions) => (await import('./seed.js')).seedCommand(factory, opts),
};
