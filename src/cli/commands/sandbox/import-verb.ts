/** `udcli sandbox import <recording> [datafile]`; the handler is import.ts. */
import type { ImportOptions } from './import.js';
import type { Verb } from '../../verb.js';

export const IMPORT: Verb = {
  name: 'import',
  description:
    'Write a data file of the state a recording (HAR) shows: profiles, friends, quests and progress, products held, saves',
  arguments: [
    ['<recording>', 'a HAR file (udcli --har, a browser, Playwright)'],
    ['[datafile]', 'where to write it (YAML, or JSON for a .json name; default: stdout)'],
  ],
  options: [
    ['--keep-personal', "keep players' personal fields (birthday, email), which are left out by default"],
    ['--force', 'replace an existing data file'],
  ],
  after: `
The state is the last one the recording shows, under the recorded uids, game ids, skus and
quest ids. Each game gets a new sandbox key: recorded keys are never copied.

Examples:
  $ udcli sandbox import player-case.har case.yaml
  $ udcli sandbox start --data case.yaml`,
  run: async (factory, recording: string, datafile: string | undefined, opts: ImportOptions) =>
    (await import('./import.js')).importCommand(factory, recording, datafile, opts),
};
