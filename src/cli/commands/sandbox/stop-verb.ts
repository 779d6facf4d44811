/** `udcli sandbox stop`; the handler is stop.ts. */
import type { StopOptions } from './stop.js';
import type { Verb } from '../../verb.js';
import { WHICH } from './verb-options.js';

export const STOP: Verb = {
  name: 'stop',
  description: 'Stop the running sandbox (when several run: the one --port or --name names, or --all)',
  examples: ['udcli sandbox stop', 'udcli sandbox stop --port 9090', 'udcli sandbox stop --all'],
  options: [...WHICH, ['--all', 'every sandbox that runs']],
  run: async (factory, opts: StopOptions) => (await import('./stop.js')).stopCommand(factory, opts),
};
