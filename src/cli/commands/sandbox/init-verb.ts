/** `udcli sandbox init [file]`; the handler is data.ts. */
import type { InitOptions } from './data.js';
import type { Verb } from '../../verb.js';

export const INIT: Verb = {
  name: 'init',
  description: 'Write a commented starter data file for your own game (default: sandbox-data.yaml; - for stdout)',
  examples: ['udcli sandbox init qa.yaml', 'udcli sandbox start --data qa.yaml'],
  arguments: [['[file]', 'where to write it']],
  options: [['--force', 'replace existing files (the data file and the schema written beside it)']],
  run: async (factory, file: string | undefined, opts: InitOptions) =>
    (await import('./data.js')).initCommand(factory, file, opts),
};
