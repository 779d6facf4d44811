/** `udcli sandbox status`; the handler is status.ts. */
import type { Verb } from '../../verb.js';
import { JSON_OPTION, WHICH } from './verb-options.js';

export const STATUS: Verb = {
  name: 'status',
  description: 'Show whether the sandbox runs, and where (exit 1 when it does not)',
  examples: ['udcli sandbox status', 'udcli sandbox status --json', 'udcli sandbox status --port 9090'],
  options: [JSON_OPTION, ...WHICH],
  run: async (factory, opts: { json?: boolean; port?: string; name?: string }) =>
    (await import('./status.js')).statusCommand(factory, opts),
};
