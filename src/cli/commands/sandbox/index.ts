/**
 * `udcli sandbox ...`: the local sandbox service. Each verb is declared once below (its help,
 * arguments, options and the handler it runs: src/cli/verb.ts) and loads its handler (and with it
 * fastify/SQLite) only when it runs.
 */
import type { Command } from 'commander';
import type { ExportOptions, InitOptions, LoadOptions } from './data.js';
import type { ClockAction, ClockOptions } from './clock.js';
import type { DiffOptions } from './diff.js';
import type { ImportOptions } from './import.js';
import type { GameOptions } from './game.js';
import type { LogsOptions } from './logs.js';
import type { PlayOptions } from './play.js';
import type { SnapshotOptions } from './snapshot.js';
import type { StopOptions } from './stop.js';
import type { RawExecOptions, RawSeedOptions, RawStartOptions } from './options.js';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, collect, type Verb, type VerbOption } from '../../verb.js';

const FAULTS_HELP =
  "inject the platform's awkward replies into /services/rest/v1, e.g. reset=0.1,slow=0.2:1500ms (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)";
const LATENCY_HELP =
  'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0)';
const INSECURE_HELP =
  "accept the game's dev server's https certificate unchecked (a self-signed one, e.g. https://localhost:5173)";
const NO_CONNECT_HELP = "do not put the connect script into the game's HTML pages";

const DB: VerbOption = ['--db <file>', 'database file (default: sandbox.db in the data dir)'];
const JSON_OPTION: VerbOption = ['--json', 'print JSON'];
const PORT: VerbOption = ['--port <port>', 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)'];
/** Which of the sandboxes on this machine (issue 53) status, stop and logs are about. */
const WHICH: readonly VerbOption[] = [
  ['--port <port>', 'the sandbox on this port (default: the one that runs)'],
  ['--name <name>', 'the sandbox started with this --name'],
];

/** What `start` and `exec` both set on the sandbox they run: tokens, rate, faults, latency and the game host. */
const SERVER_OPTIONS: readonly VerbOption[] = [
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

const start: Verb = {
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

const exec: Verb = {
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

const play: Verb = {
  name: 'play',
  description:
    "Open a game's play page, the game served by the sandbox's game host (starts a detached sandbox if none runs)",
  arguments: [['[game]', "the game, e.g. 1001 (default: the profile's game, else the first)"]],
  options: [
    ['--game-dir <dir>', 'serve the game from this folder (e.g. your build output)'],
    ['--game-url <url>', 'serve the game from this dev server, e.g. http://localhost:5173/'],
    ['--as <user>', 'play as this username (the page asks to confirm)'],
    ['--no-open', 'only print the URL, open no browser'],
    ['--no-connect', NO_CONNECT_HELP],
    ['--insecure-game-host', `${INSECURE_HELP}; for a sandbox play starts (a running one keeps its own)`],
    ['--latency <duration>', `${LATENCY_HELP}; for a sandbox play starts (a running one keeps its own)`],
  ],
  after: `
The play page's URL is printed on stdout, and opened in a browser when stdout is a terminal.
The game is served by the sandbox's game host, an origin of its own (the sandbox's port + 1),
which the play page iframes. The game's pages get <script src="http://HOST:PORT/_sandbox/connect.js">
first in their head (not with --no-connect). Other paths of the game host (a dev server's
/@vite/client, /assets/...) and websockets go to the game source used last. A running sandbox
serves a --game-dir only inside a folder allowed when it started (its --game-dir, --allow-game-dir).

Examples:
  $ udcli sandbox play
  $ udcli sandbox play 1001 --game-url http://localhost:5173/
  $ udcli sandbox play --game-dir ./dist --as alice --no-open`,
  run: async (factory, gameId: string | undefined, opts: PlayOptions) =>
    (await import('./play.js')).playCommand(factory, gameId, opts),
};

const game: Verb = {
  name: 'game',
  description: 'Show a sandbox game, or set its content URI (what the play page /play/{game_id} shows)',
  examples: ['udcli sandbox game show 1001', 'udcli sandbox game set-uri 1001 http://localhost:3000/game'],
  verbs: [
    {
      name: 'set-uri',
      description:
        'Set the content URI the play page iframes (an http or https URL); a running sandbox sees it at once',
      examples: ['udcli sandbox game set-uri 1001 http://localhost:3000/game'],
      arguments: [
        ['<game_id>', 'the game, e.g. 1001'],
        ['<url>', 'the http(s) URL of your game, e.g. http://localhost:3000/'],
      ],
      options: [DB, ['--json', 'print the game as JSON']],
      run: async (factory, gameId: string, url: string, opts: GameOptions) =>
        (await import('./game.js')).setUriCommand(factory, gameId, url, opts),
    },
    {
      name: 'show',
      description: 'Show a game: name, content URI, play page, api keys',
      examples: ['udcli sandbox game show 1001'],
      arguments: [['<game_id>', 'the game, e.g. 1001']],
      options: [DB, JSON_OPTION],
      run: async (factory, gameId: string, opts: GameOptions) =>
        (await import('./game.js')).showCommand(factory, gameId, opts),
    },
  ],
};

const dataVerbs: Verb[] = [
  {
    name: 'init',
    description: 'Write a commented starter data file for your own game (default: sandbox-data.yaml; - for stdout)',
    examples: ['udcli sandbox init qa.yaml', 'udcli sandbox start --data qa.yaml'],
    arguments: [['[file]', 'where to write it']],
    options: [['--force', 'replace existing files (the data file and the schema written beside it)']],
    run: async (factory, file: string | undefined, opts: InitOptions) =>
      (await import('./data.js')).initCommand(factory, file, opts),
  },
  {
    name: 'schema',
    description: 'Print the JSON Schema of sandbox data files (for editors and CI checks)',
    examples: ['udcli sandbox schema > sandbox-data.schema.json'],
    run: async (factory) => (await import('./data.js')).schemaCommand(factory),
  },
  {
    name: 'load',
    description:
      'Load a data file (YAML or JSON) into the sandbox database, all or nothing; a running sandbox sees it at once',
    examples: ['udcli sandbox load qa.yaml', 'udcli sandbox load qa.json --db ci.db'],
    arguments: [['<file>', 'the data file']],
    options: [DB, ['--json', 'print the summary as JSON']],
    run: async (factory, file: string, opts: LoadOptions) =>
      (await import('./data.js')).loadCommand(factory, file, opts),
  },
  {
    name: 'export',
    description:
      'Write the whole sandbox database as a data file (YAML, or JSON for a .json file); - or nothing for stdout',
    examples: ['udcli sandbox export qa-after.yaml', 'udcli sandbox export --format json | jq .users[0]'],
    arguments: [['[file]', 'where to write it (default: stdout)']],
    options: [DB, ['--format <format>', 'yaml or json (default: from the file name, else yaml)']],
    run: async (factory, file: string | undefined, opts: ExportOptions) =>
      (await import('./data.js')).exportCommand(factory, file, opts),
  },
];

const diff: Verb = {
  name: 'diff',
  description:
    'Compare a recording of the platform (HAR) with what the sandbox answers: exit 0 same, 1 different, 2 bad input',
  arguments: [['[files...]', 'HAR files: from --har, a browser\'s "Save all as HAR", Playwright\'s recordHar']],
  options: [
    ['--json', 'print one JSON object: compared, same, differing, skipped, differences'],
    [
      '--ignore <path>',
      'leave out this path and what is below it, e.g. payload[].percent_complete (repeatable)',
      collect,
    ],
    ['--strict', 'compare everything, the values that drift between runs (dates, sessions, tokens, ids) too'],
    ['--data <file>', "load this data file into the scratch sandbox before the recording's state"],
    [
      '--live <user>',
      "read this user (uid or username) from the profile's server (reads only: it never sends a change), record and diff",
    ],
    ['--game <id>', "with --live: the game whose quests and products to read (default: the profile's game_id)"],
    ['--save-key <key>', 'with --live: read this game save too'],
  ],
  after: `
Every exchange under /services/rest/v1/ (any host) is sent again to a scratch sandbox (a
temporary database: never the recorded host, never your sandbox), seeded with the state the
recording's replies show, keys mapped to its own and signed changes signed afresh. Differences:
status, format (JSON, XML, HTML, empty), missing (only in the recording), extra (only in the
sandbox), type, value, schema (the recorded reply against the sandbox's OpenAPI description).
Dates, sessions, tokens, signatures and the sandbox's own URLs drift and are not compared
unless --strict. Paths start at the envelope: payload.premium, payload[].product.price.

--live USER (a uid or a username) sends only GET requests (the user, the first page of
friends, the quest definitions and list and the products of --game or the profile's game,
--save-key's save) with the selected profile (or --base-url and --api-key), whatever the
profile: it never changes anything. With --har FILE they are kept.

Examples:
  $ udcli --har session.har achievements inc 0123…cdef FIRST_WIN
  $ udcli sandbox diff session.har
  $ udcli sandbox diff chrome-export.har --ignore payload[].avatar --json
  $ udcli --profile prod sandbox diff --live 0123456789abcdef0123456789abcdef --save-key slot1
  $ udcli sandbox diff --live demo_player --game 1002`,
  run: async (factory, files: string[], opts: DiffOptions) =>
    (await import('./diff.js')).diffCommand(factory, files, opts),
};

const importVerb: Verb = {
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

/** `snapshot save` and `snapshot restore`: a NAME, the database, and the handler of the same name. */
function snapshotVerb(name: 'save' | 'restore', description: string, nameHelp: string): Verb {
  return {
    name,
    description,
    examples: [`udcli sandbox snapshot ${name} before-test`],
    arguments: [['<name>', nameHelp]],
    options: [DB],
    run: async (factory, snapshotName: string, opts: SnapshotOptions) =>
      (await import('./snapshot.js'))[`${name}Command`](factory, snapshotName, opts),
  };
}

const snapshot: Verb = {
  name: 'snapshot',
  description: 'Save the sandbox database under a name, restore it, list or delete snapshots',
  examples: [
    'udcli sandbox snapshot save before-test',
    'udcli sandbox snapshot restore before-test',
    'udcli sandbox snapshot list',
  ],
  verbs: [
    snapshotVerb(
      'save',
      'Save the database as snapshot NAME (an existing one of that name is replaced only once the new one is complete)',
      'letters, digits, - _ .',
    ),
    snapshotVerb(
      'restore',
      'Put the database back to snapshot NAME (one transaction; a running sandbox sees it at once)',
      'a saved snapshot',
    ),
    {
      name: 'list',
      description: 'List the saved snapshots',
      examples: ['udcli sandbox snapshot list --json'],
      options: [JSON_OPTION],
      run: async (factory, opts: SnapshotOptions) => (await import('./snapshot.js')).listCommand(factory, opts),
    },
    {
      name: 'delete',
      description: 'Delete snapshot NAME',
      examples: ['udcli sandbox snapshot delete before-test'],
      arguments: [['<name>', 'a saved snapshot']],
      run: async (factory, name: string) => (await import('./snapshot.js')).deleteCommand(factory, name),
    },
  ],
};

const stop: Verb = {
  name: 'stop',
  description: 'Stop the running sandbox (when several run: the one --port or --name names, or --all)',
  examples: ['udcli sandbox stop', 'udcli sandbox stop --port 9090', 'udcli sandbox stop --all'],
  options: [...WHICH, ['--all', 'every sandbox that runs']],
  run: async (factory, opts: StopOptions) => (await import('./stop.js')).stopCommand(factory, opts),
};

const logs: Verb = {
  name: 'logs',
  description:
    "Show the detached sandbox's log like tail: the last 10 lines (start-up messages and one line per request, secrets redacted)",
  after: `
A request line: time, method, path and query (api keys and signatures redacted), status, ms,
and why it failed (an injected fault: "fault: KIND"; a reset fault is logged as 444, no reply).
A signed change sent as the platform's SDK sends it (unsigned, answered by a 401 challenge, then
retried signed) is one line: the retry's, marked "(after signature challenge)"; --challenges
shows the challenges too. A challenge no signed retry answered is shown as the failure it is.
A filter (--status, --path, --since) keeps only the request lines that match all of them;
-n counts the lines shown, after filtering. A foreground sandbox prints the same lines on its
output; GET /_sandbox/requests gives the last 1000 as JSON; sandbox exec --log FILE keeps them.

Examples:
  $ udcli sandbox logs
  $ udcli sandbox logs -n 50 --status 4xx,5xx
  $ udcli sandbox logs --status 401 --challenges
  $ udcli sandbox logs --follow --path /achievements
  $ udcli sandbox logs -n all --since 10m --json | jq .reason`,
  options: [
    ['-n, --lines <n>', 'the last N lines, or all (default: 10)'],
    ['-f, --follow', 'then keep printing lines as they are written, until Ctrl-C (starts at the end)'],
    ['--status <list>', 'only requests with these statuses or classes, e.g. 4xx, 401, 5xx,429'],
    ['--path <text>', 'only requests whose path contains TEXT'],
    ['--since <when>', 'only requests since a duration ago (10m, 2h, 1d) or an ISO date-time'],
    ['--challenges', "also the 401 challenges answered by a signed retry (shown in their retry's line otherwise)"],
    ['--json', 'only the request lines, one JSON object each'],
    ...WHICH,
  ],
  run: async (factory, opts: LogsOptions) => (await import('./logs.js')).logsCommand(factory, opts),
};

const status: Verb = {
  name: 'status',
  description: 'Show whether the sandbox runs, and where (exit 1 when it does not)',
  examples: ['udcli sandbox status', 'udcli sandbox status --json', 'udcli sandbox status --port 9090'],
  options: [JSON_OPTION, ...WHICH],
  run: async (factory, opts: { json?: boolean; port?: string; name?: string }) =>
    (await import('./status.js')).statusCommand(factory, opts),
};

const reset: Verb = {
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

/** One verb of `sandbox clock`: the action it asks for, given its argument when it takes one. */
function clockVerb(
  words: Pick<Verb, 'name' | 'description' | 'examples'>,
  argument: readonly [string, string] | undefined,
  action: (value: string) => ClockAction,
): Verb {
  const clock = async (factory: Factory, value: string, opts: ClockOptions) =>
    (await import('./clock.js')).clockCommand(factory, action(value), opts);
  return {
    ...words,
    ...(argument === undefined ? {} : { arguments: [argument] }),
    options: [PORT, JSON_OPTION],
    run:
      argument === undefined
        ? async (factory, opts: ClockOptions) => clock(factory, '', opts)
        : async (factory, value: string, opts: ClockOptions) => clock(factory, value, opts),
  };
}

const clock: Verb = {
  name: 'clock',
  description:
    "Show or move the running sandbox's virtual clock (token, session and challenge expiry, the hmac timestamp window)",
  examples: [
    'udcli sandbox clock now',
    'udcli sandbox clock advance 901s',
    'udcli sandbox clock set 2030-01-01T00:00:00Z',
    'udcli sandbox clock reset',
  ],
  verbs: [
    clockVerb(
      {
        name: 'now',
        description: "Show the sandbox's time and its offset from the real clock",
        examples: ['udcli sandbox clock now', 'udcli sandbox clock now --port 9090 --json'],
      },
      undefined,
      () => ({ action: 'now' }),
    ),
    clockVerb(
      {
        name: 'advance',
        description: 'Move the clock forward: seconds, or a number with s, m, h or d (e.g. 901s, 15m)',
        examples: ['udcli sandbox clock advance 901s   # a 900 s token has expired', 'udcli sandbox clock advance 1d'],
      },
      ['<duration>', 'e.g. 901s, 15m, 2h, 1d, or plain seconds'],
      (value) => ({ action: 'advance', value }),
    ),
    clockVerb(
      {
        name: 'set',
        description:
          'Put the clock at a date-time (ISO 8601, UTC unless it names a zone), or now (the real time); backwards is allowed',
        examples: [
          'udcli sandbox clock set 2030-01-01T00:00:00Z',
          'udcli sandbox clock set now   # back to the real time',
        ],
      },
      ['<iso>', 'e.g. 2030-01-01T00:00:00Z, or now'],
      (value) => ({ action: 'set', value }),
    ),
    clockVerb(
      {
        name: 'reset',
        description: 'Put the clock back on the real time (offset 0)',
        examples: ['udcli sandbox clock reset'],
      },
      undefined,
      () => ({ action: 'reset' }),
    ),
  ],
};

const info: Verb = {
  name: 'info',
  description:
    'Show what the sandbox holds now, asked of it: URLs, games and keys, users with their progress and holdings, quests and products',
  after:
    "\nThe sandbox: --base-url URL (or a profile's) names one; else the running local one, else its database file.\n\nExamples:\n  $ udcli sandbox info\n  $ udcli sandbox info --json\n  $ udcli --base-url http://127.0.0.1:9090 sandbox info",
  options: [JSON_OPTION],
  run: async (factory, opts: { json?: boolean }) => (await import('./info.js')).infoCommand(factory, opts),
};

const seed: Verb = {
  name: 'seed',
  description: 'Add generated data: users, a hub user with friends, achievements, products',
  examples: [
    'udcli sandbox seed --users 100000 --friends 100000',
    'udcli sandbox seed --users 5000 --seed 7 --db bench.db',
  ],
  options: [
    ['--users <n>', 'users to generate (default: 1000)'],
    ['--friends <n>', 'friends of the generated hub user, at most --users (default: 500)'],
    ['--achievements <n>', 'achievements on game 1001 (default: 10)'],
    ['--products <n>', 'products on game 1001 (default: 5)'],
    ['--seed <s>', 'same seed, same data (default: 1)'],
    DB,
    ['--json', 'print the summary as JSON'],
  ],
  run: async (factory, opts: RawSeedOptions) => (await import('./seed.js')).seedCommand(factory, opts),
};

export const SANDBOX: Verb = {
  name: 'sandbox',
  description: 'Run the local sandbox of the User Data REST Service (SQLite, demo data)',
  examples: ['udcli sandbox start --detach', 'udcli sandbox info', 'udcli sandbox exec -- npm test'],
  verbs: [
    start,
    exec,
    play,
    game,
    ...dataVerbs,
    diff,
    importVerb,
    snapshot,
    stop,
    logs,
    status,
    reset,
    clock,
    info,
    seed,
  ],
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, SANDBOX);
}
