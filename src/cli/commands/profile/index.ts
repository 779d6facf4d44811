/** `udcli profile add|list|use|show|remove`: named sets of connection settings. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';

export interface AddOptions {
  baseUrl?: string;
  siteUrl?: string;
  apiKey?: string;
  signingSecret?: string;
  signingScheme?: string;
  verbOverride?: string;
  gameId?: string;
  type?: string;
  cookie?: string;
  production?: boolean;
  requireReason?: boolean;
  fromSandbox?: boolean;
}

export function register(program: Command, factory: Factory): void {
  const profile = program
    .command('profile')
    .description('Manage profiles: where udcli connects and with which credentials')
    .addHelpText(
      'after',
      `
Examples:
  $ udcli profile add live --base-url https://api.example.com --api-key B84276AA-5397-4B89-A8BA-0F16FFB7566F --game-id 1001 --production
  $ udcli profile use live
  $ udcli profile show
  $ udcli profile list`,
    );

  profile
    .command('add')
    .description('Add a profile')
    .argument('<name>', 'profile name: letters, digits, . _ -')
    .option('--base-url <url>', 'service base URL, e.g. https://api.example.com')
    .option('--site-url <url>', 'site hosting login and the token generator (default: the base URL)')
    .option('--api-key <key>', 'the game api key: 32 hex digits or a UUID')
    .option('--signing-secret <secret>', 'secret for hmac-sha256-v1 (agi needs none); prefer `udcli config set signing_secret -` (standard input)')
    .option('--signing-scheme <scheme>', "agi (default, the platform's own), hmac-sha256-v1 or none")
    .option('--verb-override <bool>', 'send PUT/DELETE as POST with method= (default: true under agi)')
    .option('--game-id <id>', 'default game for commands that take one')
    .option('--type <type>', 'Game (default) or Website')
    .option('--cookie <cookie>', 'site session cookie for the token generator')
    .option('--production', 'mark as production: mutations print a banner and ask first')
    .option('--require-reason', 'every change under this profile needs --reason and --ticket')
    .option('--from-sandbox', "fill in the sandbox's URL and the demo game's credentials")
    .addHelpText(
      'after',
      `
Examples:
  $ udcli profile add staging --base-url https://staging.example.com --api-key 0123456789abcdef0123456789abcdef --game-id 1001
  $ udcli profile add local2 --from-sandbox --base-url http://127.0.0.1:9000
  (agi, the default scheme, needs no signing secret; for hmac-sha256-v1 set it without
   putting it on the command line: udcli config set signing_secret - < secret.txt)`,
    )
    .action(async (name: string, opts: AddOptions) => {
      const { run } = await import('./add.js');
      await run(factory, { name }, opts);
    });

  profile
    .command('list')
    .alias('ls')
    .description('List the profiles (secrets are never shown)')
    .addHelpText('after', '\nExamples:\n  $ udcli profile list\n  $ udcli profile list --json')
    .action(async () => {
      const { run } = await import('./list.js');
      await run(factory);
    });

  profile
    .command('use')
    .description('Make a profile the current one')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExamples:\n  $ udcli profile use live\n  $ udcli profile use sandbox')
    .action(async (name: string) => {
      const { run } = await import('./use.js');
      await run(factory, { name });
    });

  profile
    .command('show')
    .description('Show a profile: every key (secrets redacted) and, for the active one, where each value comes from')
    .argument('[name]', 'profile name (default: the active profile)')
    .addHelpText('after', '\nExamples:\n  $ udcli profile show\n  $ udcli profile show live --json')
    .action(async (name: string | undefined) => {
      const { run } = await import('./show.js');
      await run(factory, name === undefined ? {} : { name });
    });

  profile
    .command('remove')
    .alias('rm')
    .description('Remove a profile (the built-in sandbox cannot be removed)')
    .argument('<name>', 'profile name')
    .addHelpText('after', '\nExamples:\n  $ udcli profile remove staging')
    .action(async (name: string) => {
      const { run } = await import('./remove.js');
      await run(factory, { name });
    });
}
