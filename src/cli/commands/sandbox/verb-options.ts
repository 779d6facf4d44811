/** What several `udcli sandbox` verbs say alike: their shared options and help. */
import { collect, type VerbOption } from '../../verb.js';

export const FAULTS_HELP =
  "inject the platform's awkward replies into /services/rest/v1, e.g. reset=0.1,slow=0.2:1500ms (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)";
export const LATENCY_HELP =
  'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0)';
export const INSECURE_HELP =
  "accept the game's dev server's https certificate unchecked (a self-signed one, e.g. https://localhost:5173)";
export const NO_CONNECT_HELP = "do not put the connect script into the game's HTML pages";

export const DB: VerbOption = ['--db <file>', 'database file (default: sandbox.db in the data dir)'];
export const JSON_OPTION: VerbOption = ['--json', 'print JSON'];
export const PORT: VerbOption = [
  '--port <port>',
  'the sandbox on this port of 127.0.0.1 (default: the running sandbox)',
];
/** Which of the sandboxes on this machine (issue 53) status, stop and logs are about. */
export const WHICH: readonly VerbOption[] = [
  ['--port <port>', 'the sandbox on this port (default: the one that runs)'],
  ['--name <name>', 'the sandbox started with this --name'],
];

/** What `start` and `exec` both set on the sandbox they run: tokens, rate, faults, latency and the game host. */
export const SERVER_OPTIONS: readonly VerbOption[] = [
  ['--token-ttl <seconds>', 'lifetime of tokens from the token generator (default: 900)'],
  ['--rate-limit <n/s>', 'answer 429 beyond N requests per second per api_key, e.g. 10/s'],
  ['--faults <spec>', FAULTS_HELP],
  [
    '--fault-seed <n>',
    'seed of the fault draws: the same seed faults the same requests of the same sequence (default: random, printed at start)',
  ],
  ['--latency <duration>', LATENCY_HELP],
  ['--game-dir <dir>', 'serve the game from this folder at /play/GAME/game/ (on the game host, an origin of its own)'],
  [
    '--game-url <url>',
    'serve the game from this dev server (proxied, websockets too) at /play/GAME/game/ (on the game host)',
  ],
  ['--game <id>', 'the game --game-dir / --game-url serve (default: the first game)'],
  ['--no-connect', NO_CONNECT_HELP],
  ['--insecure-game-host', INSECURE_HELP],
  [
    '--allow-game-dir <dir>',
    'a folder games may later be served from (sandbox play --game-dir on the running sandbox): repeat for more; --game-dir is allowed already',
    collect,
  ],
];
