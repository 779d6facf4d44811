/** `udcli friends <uid>`: a user's friends, one page or all of them. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { FriendsOptions } from './list.js';
import { addVerb, type Verb } from '../../verb.js';

export const FRIENDS: Verb = {
  name: 'friends',
  description: "List a user's friends",
  arguments: [['<user>', 'a uid (32 hex digits) or a username']],
  options: [
    ['--limit <n>', 'friends per page, 1 to 500 (server default 500)'],
    ['--offset <n>', 'skip this many friends first'],
    ['--page <n>', 'page number, starting at 1 (instead of --offset)'],
    ['--all', 'every friend, fetched 500 at a time and streamed (with -o ndjson or csv)'],
  ],
  examples: [
    'udcli friends 01e528d59829836fd23b09085b56edab --limit 20',
    'udcli friends 01e528d59829836fd23b09085b56edab --all -o ndjson > friends.ndjson',
  ],
  run: async (factory, uid: string, opts: FriendsOptions) => (await import('./list.js')).run(factory, { uid }, opts),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, FRIENDS);
}
