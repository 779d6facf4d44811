/** `udcli sandbox exec -- <command ...>`; the handler is exec.ts. */
import type { RawExecOptions } from './exec-options.js';
import type { Verb } from '../../verb.js';
import { SERVER_OPTIONS } from './verb-options.js';

export const EXEC: Verb = {
  name: 'exec',
  description: "Run a command against a fresh sandbox (free port, temporary database); exit with the command's code",
  usage: '[options] -- <command ...>',
  arguments: [['[command...]', 'the command and its arguments, after --']],
  options: [
    ['--port <port>', 'port to listen on (default: 0, any free port)'],
    ['--seed <mode>', 'demo: the demo data; none: an empty database (default: demo)'],
    ['--data <file>', 'start from your data file instead of the demo data'],
    ['--snapshot <name>', 'start from a saved snapshot (udcli sandbox snapshot save)'],
    [
      '--log <file>',
      'write every request line of the run to FILE (when the command fails, the last 20 are printed on stderr either way)',
    ],
    ...SERVER_OPTIONS,
  ],
  after: `
The command runs without a shell (use sh -c '...' for one), with its input and output on this
terminal, and with this environment added:
  UDCLI_BASE_URL, UDCLI_SITE_URL   the sandbox's URL
  UDCLI_API_KEY, UDCLI_SIGNING_SECRET, UDCLI_GAME_ID   the demo game's credentials (with --data or --snapshot and no demo game: the first game that has a key)
  UDCLI_PROFILE=sandbox            the built-in profile (no key of another profile applies)
  UDCLI_SANDBOX_DB                 the temporary database (for udcli sandbox game set-uri --db)
Put -- before the command, so that its options are not read as udcli's. When the command fails,
the sandbox's last 20 request lines follow on stderr; --log FILE keeps every one. Between test
cases, \`udcli sandbox reset\` (or POST $UDCLI_BASE_URL/_sandbox/reset) resets this sandbox.

Examples:
  $ udcli sandbox exec -- npm test
  $ udcli sandbox exec --token-ttl 5 -- sh -c 'udcli auth token 1001 --as alice --export'
  $ udcli sandbox exec --data qa.yaml -- npm test
  $ udcli sandbox exec --faults reset=0.1 --fault-seed 7 -- npm test
  $ udcli sandbox exec --latency 40ms -- npm test
  $ udcli sandbox exec --log requests.log -- npm test
  $ udcli sandbox exec --game-dir dist -- npx playwright test   # opens $UDCLI_SITE_URL/play/1001`,
  run: async (factory, command: string[], opts: RawExecOptions) =>
    (await import('./exec.js')).execCommand(factory, command, opts),
};
