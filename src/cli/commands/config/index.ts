/** `udcli config get|set|unset|path`: the keys of the active profile (or --profile). */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';

const KEYS = 'base_url, site_url, api_key, signing_secret, signing_scheme, verb_override, game_id, type, cookie, production';

export function register(program: Command, factory: Factory): void {
  const config = program
    .command('config')
    .description("Read and change the active profile's keys")
    .addHelpText(
      'after',
      `
Keys: ${KEYS}

Examples:
  $ udcli config get base_url
  $ udcli config set game_id 1002
  $ udcli --profile live config set api_key B84276AA-5397-4B89-A8BA-0F16FFB7566F
  $ udcli config path`,
    );

  config
    .command('get')
    .description('Print the value in effect (secrets redacted); its source goes to stderr when not the profile')
    .argument('<key>', KEYS)
    .addHelpText('after', '\nExamples:\n  $ udcli config get base_url\n  $ udcli --profile live config get game_id')
    .action(async (key: string) => {
      const { run } = await import('./get.js');
      await run(factory, { key });
    });

  config
    .command('set')
    .description('Set a key of the active profile (validated; "-" reads the value from stdin)')
    .argument('<key>', KEYS)
    .argument('<value>', 'the value, or - to read it from stdin (keeps secrets out of shell history)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ udcli config set game_id 1002\n  $ printf %s "$SECRET" | udcli config set signing_secret -',
    )
    .action(async (key: string, value: string) => {
      const { run } = await import('./set.js');
      await run(factory, { key, value });
    });

  config
    .command('unset')
    .description('Remove a key from the active profile (the built-in default applies again)')
    .argument('<key>', KEYS)
    .addHelpText('after', '\nExamples:\n  $ udcli config unset cookie')
    .action(async (key: string) => {
      const { run } = await import('./unset.js');
      await run(factory, { key });
    });

  config
    .command('path')
    .description('Print the path of the config file')
    .addHelpText('after', '\nExamples:\n  $ udcli config path\n  $ chmod 600 "$(udcli config path)"')
    .action(async () => {
      const { configFilePath } = await import('../../../config/paths.js');
      const out = await factory.output();
      out.text(configFilePath(factory.io.env));
    });
}
