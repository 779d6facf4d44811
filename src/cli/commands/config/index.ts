/** `udcli config get|set|unset|path`: the keys of the active profile (or --profile). */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';

const KEYS =
  'base_url, site_url, api_key, signing_secret, signing_scheme, verb_override, game_id, type, cookie, production, require_reason, operator, operator_required, operators, products_allowed, max_quantity, max_players, ticket_pattern, approval_over';
const KEY: readonly [string, string] = ['<key>', KEYS];

export const CONFIG: Verb = {
  name: 'config',
  description: "Read and change the active profile's keys",
  after: `
Keys: ${KEYS}

Examples:
  $ udcli config get base_url
  $ udcli config set game_id 1002
  $ udcli --profile live config set api_key B84276AA-5397-4B89-A8BA-0F16FFB7566F
  $ udcli config path`,
  verbs: [
    {
      name: 'get',
      description: 'Print the value in effect (secrets redacted); its source goes to stderr when not the profile',
      arguments: [KEY],
      examples: ['udcli config get base_url', 'udcli --profile live config get game_id'],
      run: async (factory, key: string) => (await import('./get.js')).run(factory, { key }),
    },
    {
      name: 'set',
      description: 'Set a key of the active profile (validated; "-" reads the value from stdin)',
      arguments: [KEY, ['<value>', 'the value, or - to read it from stdin (keeps secrets out of shell history)']],
      examples: ['udcli config set game_id 1002', 'printf %s "$SECRET" | udcli config set signing_secret -'],
      run: async (factory, key: string, value: string) => (await import('./set.js')).run(factory, { key, value }),
    },
    {
      name: 'unset',
      description: 'Remove a key from the active profile (the built-in default applies again)',
      arguments: [KEY],
      examples: ['udcli config unset cookie'],
      run: async (factory, key: string) => (await import('./unset.js')).run(factory, { key }),
    },
    {
      name: 'path',
      description: 'Print the path of the config file',
      examples: ['udcli config path', 'chmod 600 "$(udcli config path)"'],
      run: async (factory) => {
        const { configFilePath } = await import('../../../config/paths.js');
        (await factory.output()).text(configFilePath(factory.io.env));
      },
    },
  ],
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, CONFIG);
}
