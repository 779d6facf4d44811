/** `udcli user <uid|username>`: one user's profile. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';

export interface UserOptions {
  username?: boolean;
  public?: boolean;
}

export function register(program: Command, factory: Factory): void {
  program
    .command('user')
    .description('Look a user up by uid or username')
    .argument('<uid|username>', '32 hex digits are a uid; anything else is a username')
    .option('--username', 'look the argument up as a username even if it is 32 hex digits')
    .option('--public', 'ask without the api key: only the public fields (uid, username, avatar)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli user demo_player\n  $ udcli user 01e528d59829836fd23b09085b56edab --json\n  $ udcli user demo_player --public',
    )
    .action(async (ref: string, opts: UserOptions) => {
      const { run } = await import('./view.js');
      await run(factory, { ref }, opts);
    });
}
