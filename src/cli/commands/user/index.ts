/** `udcli user <uid|username>`: one user's profile. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { UserOptions } from './view.js';
import { addVerb, type Verb } from '../../verb.js';

export const USER: Verb = {
  name: 'user',
  description: 'Look a user up by uid or username',
  arguments: [['<uid|username>', '32 hex digits are a uid; anything else is a username']],
  options: [
    ['--username', 'look the argument up as a username even if it is 32 hex digits'],
    ['--public', 'ask without the api key: only the public fields (uid, username, avatar)'],
  ],
  examples: [
    'udcli user demo_player',
    'udcli user 01e528d59829836fd23b09085b56edab --json',
    'udcli user demo_player --public',
  ],
  run: async (factory, ref: string, opts: UserOptions) => (await import('./view.js')).run(factory, { ref }, opts),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, USER);
}
