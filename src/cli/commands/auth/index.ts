/** `udcli auth verify|token`: check a user token, or get a test token from the site. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';

export interface TokenOptions {
  as?: string;
  cookie?: string;
  export?: boolean;
}

export function register(program: Command, factory: Factory): void {
  const auth = program
    .command('auth')
    .description('Verify user tokens and get test tokens')
    .addHelpText(
      'after',
      '\nExample:\n  $ eval "$(udcli auth token 1001 --as demo_player --export)"\n  $ udcli auth verify',
    );

  auth
    .command('verify')
    .description('Authenticate a user from user_id and auth_token (exit 3 when not authenticated)')
    .argument('[user_id]', 'the user_id (32 hex digits); default $UDCLI_USER_ID')
    .argument('[auth_token]', 'the auth_token (32 hex digits); default $UDCLI_AUTH_TOKEN')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli auth verify 01e528d59829836fd23b09085b56edab 5f2b...e91c\n  $ eval "$(udcli auth token 1001 --as demo_player --export)" && udcli auth verify',
    )
    .action(async (userId: string | undefined, authToken: string | undefined) => {
      const { run } = await import('./verify.js');
      await run(factory, { userId, authToken });
    });

  auth
    .command('token')
    .description('Get a test token from the token generator (needs a site session)')
    .argument('[game_id]', "the game; default the profile's game_id")
    .option('--as <username>', 'log in to the sandbox site as this user first (sandbox only)')
    .option('--cookie <cookie>', "the site session cookie to send (default: the profile's cookie)")
    .option('--export', 'print UDCLI_USER_ID=... and UDCLI_AUTH_TOKEN=... for eval in a shell')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli auth token 1001 --as demo_player\n  $ eval "$(udcli auth token 1001 --as demo_player --export)"',
    )
    .action(async (gameId: string | undefined, opts: TokenOptions) => {
      const { run } = await import('./token.js');
      await run(factory, { gameId }, opts);
    });
}
