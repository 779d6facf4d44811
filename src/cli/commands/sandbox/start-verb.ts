/** `udcli sandbox start`: its help and options; the handler is start.ts. */
import type { RawStartOptions } from './start-options.js';
import type { Verb } from '../../verb.js';
import { SERVER_OPTIONS } from './verb-options.js';

export const START: Verb = {
  name: 'start',
  description: 'Start the sandbox (foreground until Ctrl-C, or --detach)',
  examples: [
    'udcli sandbox start',
    'udcli sandbox start --detach --port 9090',
    'udcli sandbox start --db :memory: --token-ttl 60 --rate-limit 20/s',
    'udcli sandbox start --faults reset=0.1,slow=0.2:1500ms --fault-seed 7',
    'udcli sandbox start --latency 40ms',
    'udcli sandbox start --detach --game-url http://localhost:5173/',
    'udcli sandbox start --data racers.yaml --reset',
  ],
  options: [
    ['--port <port>', 'port to listen on, 0 = any free port (default: 8787)'],
    ['--host <host>', 'address to bind (default: 127.0.0.1)'],
    ['--db <file>', 'database file, or :memory: (default: sandbox.db in the data dir)'],
    ['--seed <mode>', 'demo: seed the demo data into an empty database; none: leave it empty (default: demo)'],
    [
      '--data <file>',
      'load your data file (YAML or JSON; see sandbox init) instead of the demo data; a database that holds anything else is refused',
    ],
    ['--reset', 'with --data: replace whatever the database holds with the file'],
    ...SERVER_OPTIONS,
    ['--detach', 'run in the background; output goes to sandbox.log in the data dir'],
    [
      '--name <name>',
      'run beside other sandboxes under this name, with a database and log of its own (default: the default sandbox, else port-PORT beside it)',
    ],
    ['--allow-remote', 'allow a --host other machines can reach (the sandbox has password-less login)'],
    [
      '--public-url <url>',
      'the URL other machines reach it at (a name, a tunnel): answered besides localhost and the bound address; needs --allow-remote',
    ],
  ],
  run: async (factory, opts: RawStartOptions) => (await import('./start.js')).startCommand(factory, opts),
};
