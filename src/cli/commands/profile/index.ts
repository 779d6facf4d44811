/** `udcli profile add|list|use|show|remove`: named sets of connection settings. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { AddOptions } from './add.js';
import { addVerb, type Verb } from '../../verb.js';

const add: Verb = {
  name: 'add',
  description: 'Add a profile',
  arguments: [['<name>', 'profile name: letters, digits, . _ -']],
  options: [
    ['--base-url <url>', 'service base URL, e.g. https://api.example.com'],
    ['--site-url <url>', 'site hosting login and the token generator (default: the base URL)'],
    ['--api-key <key>', 'the game api key: 32 hex digits or a UUID'],
    [
      '--signing-secret <secret>',
      'secret for hmac-sha256-v1 (agi needs none); prefer `udcli config set signing_secret -` (standard input)',
    ],
    ['--signing-scheme <scheme>', "agi (default, the platform's own), hmac-sha256-v1 or none"],
    ['--verb-override <bool>', 'send PUT/DELETE as POST with method= (default: true under agi)'],
    ['--game-id <id>', 'default game for commands that take one'],
    ['--type <type>', 'Game (default) or Website'],
    ['--cookie <cookie>', 'site session cookie for the token generator'],
    [
      '--audit-url <url>',
      "the team's trail: a PostgreSQL URL without a password (postgres://user@host:5432/db); the password comes from PGPASSWORD, UDCLI_AUDIT_PASSWORD or a prompt",
    ],
    ['--production', 'mark as production: mutations print a banner and ask first'],
    ['--require-reason', 'every change under this profile needs --reason and --ticket'],
    ['--from-sandbox', "fill in the sandbox's URL and the demo game's credentials"],
  ],
  after: `
Examples:
  $ udcli profile add staging --base-url https://staging.example.com --api-key 0123456789abcdef0123456789abcdef --game-id 1001
  $ udcli profile add local2 --from-sandbox --base-url http://127.0.0.1:9000

agi, the default signing scheme, needs no signing secret; for hmac-sha256-v1 set it without putting it on the command line: udcli config set signing_secret - < secret.txt`,
  run: async (factory, name: string, opts: AddOptions) => (await import('./add.js')).run(factory, { name }, opts),
};

export const PROFILE: Verb = {
  name: 'profile',
  description: 'Manage profiles: where udcli connects and with which credentials',
  after: `
Examples:
  $ udcli profile add live --base-url https://api.example.com --api-key B84276AA-5397-4B89-A8BA-0F16FFB7566F --game-id 1001 --production
  $ udcli profile use live
  $ udcli profile show
  $ udcli profile list`,
  verbs: [
    add,
    {
      name: 'list',
      alias: 'ls',
      description: 'List the profiles (secrets are never shown)',
      examples: ['udcli profile list', 'udcli profile list --json'],
      run: async (factory) => (await import('./list.js')).run(factory),
    },
    {
      name: 'use',
      description: 'Make a profile the current one',
      arguments: [['<name>', 'profile name']],
      examples: ['udcli profile use live', 'udcli profile use sandbox'],
      run: async (factory, name: string) => (await import('./use.js')).run(factory, { name }),
    },
    {
      name: 'show',
      description: 'Show a profile: every key (secrets redacted) and, for the active one, where each value comes from',
      arguments: [['[name]', 'profile name (default: the active profile)']],
      examples: ['udcli profile show', 'udcli profile show live --json'],
      run: async (factory, name: string | undefined) =>
        (await import('./show.js')).run(factory, name === undefined ? {} : { name }),
    },
    {
      name: 'import',
      description:
        "Install a team's profiles, their policy and default from a YAML or JSON file (no secrets in it); your own secrets are kept",
      arguments: [['<file>', 'the team file: profiles: { NAME: { base_url: …, production: true, default: true, … } }']],
      examples: ['udcli profile import team.yaml', 'udcli profile show'],
      run: async (factory, file: string) => (await import('./import.js')).run(factory, { file }),
    },
    {
      name: 'remove',
      alias: 'rm',
      description: 'Remove a profile (the built-in sandbox cannot be removed)',
      arguments: [['<name>', 'profile name']],
      examples: ['udcli profile remove staging'],
      run: async (factory, name: string) => (await import('./remove.js')).run(factory, { name }),
    },
  ],
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, PROFILE);
}
