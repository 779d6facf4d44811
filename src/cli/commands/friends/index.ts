/** `udcli friends <uid>`: a user's friends, one page or all of them. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';

export interface FriendsOptions {
  limit?: string;
  offset?: string;
  page?: string;
  all?: boolean;
}

export function register(program: Command, factory: Factory): void {
  program
    .command('friends')
    .description("List a user's friends")
    .argument('<user>', 'a uid (32 hex digits) or a username')
    .option('--limit <n>', 'friends per page, 1 to 500 (server default 500)')
    .option('--offset <n>', 'skip this many friends first')
    .option('--page <n>', 'page number, starting at 1 (instead of --offset)')
    .option('--all', 'every friend, fetched 500 at a time and streamed (with -o ndjson or csv)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli friends 01e528d59829836fd23b09085b56edab --limit 20\n  $ udcli friends 01e528d59829836fd23b09085b56edab --all -o ndjson > friends.ndjson',
    )
    .action(async (uid: string, opts: FriendsOptions) => {
      const { run } = await import('./list.js');
      await run(factory, { uid }, opts);
    });
}
