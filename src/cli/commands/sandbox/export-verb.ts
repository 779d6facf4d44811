/** `udcli sandbox export [file]`; the handler is data.ts. */
import type { ExportOptions } from './data.js';
import type { Verb } from '../../verb.js';
import { DB } from './verb-options.js';

export const EXPORT: Verb = {
  name: 'export',
  description:
    'Write the whole sandbox database as a data file (YAML, or JSON for a .json file); - or nothing for stdout',
  examples: ['udcli sandbox export qa-after.yaml', 'udcli sandbox export --format json | jq .users[0]'],
  arguments: [['[file]', 'where to write it (default: stdout)']],
  options: [DB, ['--format <format>', 'yaml or json (default: from the file name, else yaml)']],
  run: async (factory, file: string | undefined, opts: ExportOptions) =>
    (await import('./data.js')).exportCommand(factory, file, opts),
};
