/** `udcli sandbox reset`; the handler is reset.ts. */
import type { Verb } from '../../verb.js';
import { DB } from './verb-options.js';

export const RESET: Verb = {
  name: 'reset',
  description:
    'Put the sandbox database back to what it was started with (its data file, else the demo data); a running sandbox is reset live',
  after: `
A running sandbox (the one the pid file names, or the one \`sandbox exec\` runs the command
against) is reset in place through POST /_sandbox/reset: its clients stay connected and the
next request sees the new state. A test suite can POST /_sandbox/reset itself (seed=demo|none,
or data=TEXT&file=NAME). Otherwise the database file is deleted and recreated.

Examples:
  $ udcli sandbox reset
  $ udcli sandbox reset --data qa.yaml
  $ curl -X POST "$UDCLI_BASE_URL/_sandbox/reset"   # between test cases`,
  options: [
    DB,
    ['--seed <mode>', 'demo or none, instead of what it was started with'],
    ['--data <file>', 'your data file, instead of what it was started with'],
  ],
  run: async (factory, opts: { db?: string; seed?: string; data?: string }) =>
    (await import('./reset.js')).resetCommand(factory, opts),
};
