/** `udcli auth verify|token`: check a user token, or get a test token from the site. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { TokenOptions } from './token.js';
import { addVerb, type Verb } from '../../verb.js';

export const AUTH: Verb = {
  name: 'auth',
  description: 'Verify user tokens and get test tokens',
  after: '\nExample:\n  $ eval "$(udcli auth token 1001 --as demo_player --export)"\n  $ udcli auth verify',
  verbs: [
    {
      name: 'verify',
      description: 'Authenticate a user from user_id and auth_token (exit 3 when not authenticated)',
      arguments: [
        ['[user_id]', 'the user_id (32 hex digits); default $UDCLI_USER_ID'],
        ['[auth_token]', 'the auth_token (32 hex digits); default $UDCLI_AUTH_TOKEN'],
      ],
      examples: [
        'udcli auth verify 01e528d59829836fd23b09085b56edab 5f2b...e91c',
        'eval "$(udcli auth token 1001 --as demo_player --export)" && udcli auth verify',
      ],
      run: async (factory, userId: string | undefined, authToken: string | undefined) =>
        (await import('./verify.js')).run(factory, { userId, authToken }),
    },
    {
      name: 'token',
      description: 'Get a test token from the token generator (needs a site session)',
      arguments: [['[game_id]', "the game; default the profile's game_id"]],
      options: [
        ['--as <username>', 'log in to the sandbox site as this user first (sandbox only)'],
        ['--cookie <cookie>', "the site session cookie to send (default: the profile's cookie)"],
        ['--export', 'print UDCLI_USER_ID=... and UDCLI_AUTH_TOKEN=... for eval in a shell'],
      ],
      examples: ['udcli auth token 1001 --as demo_player', 'eval "$(udcli auth token 1001 --as demo_player --export)"'],
      run: async (factory, gameId: string | undefined, opts: TokenOptions) =>
        (await import('./token.js')).run(factory, { gameId }, opts),
    },
  ],
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, AUTH);
}
