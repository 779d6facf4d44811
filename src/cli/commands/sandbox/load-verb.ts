/** `udcli sandbox load <file>`; the handler is data.ts. */
import type { LoadOptions } from './data.js';
import type { Verb } from '../../verb.js';
import { DB } from './verb-options.js';

export const LOAD: Verb = {
  name: 'load',
  description:
    'Load a data file (YAML or JSON) into the sandbox database, all or nothing; a running sandbox sees it at once',
  examples: ['udcli sandbox load qa.yaml', 'udcli sandbox load qa.json --db ci.db'],
  arguments: [['<file>', 'the data file']],
  options: [DB, ['--json', 'print the summary as JSON']],
  run: async (factory, file: string, opts: LoadOptions) => (await import('./data.js')).loadCommand(factory, file, opts),
};
