/** `udcli sandbox info`; the handler is info.ts. */
import type { Verb } from '../../verb.js';
import { JSON_OPTION } from './verb-options.js';

export const INFO: Verb = {
  name: 'info',
  description:
    'Show what the sandbox holds now, asked of it: URLs, games and keys, users with their progress and holdings, quests and products',
  after:
    "\nThe sandbox: --base-url URL (or a profile's) names one; else the running local one, else its database file.\n\nExamples:\n  $ udcli sandbox info\n  $ udcli sandbox info --json\n  $ udcli --base-url http://127.0.0.1:9090 sandbox info",
  options: [JSON_OPTION],
  run: async (factory, opts: { json?: boolean }) => (await import('./info.js')).infoCommand(factory, opts),
};
