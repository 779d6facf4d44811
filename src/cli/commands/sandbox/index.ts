/**
 * `udcli sandbox ...`: the local sandbox service. Each verb loads its handler (and with it
 * fastify/SQLite) only when it runs.
 */
import type { Command } from 'commander';
import type { ExportOptions, InitOptions, LoadOptions } from './data.js';
import type { ClockOptions } from './clock.js';
import type { DiffOptions } from './diff.js';
import type { ImportOptions } from './import.js';
import type { GameOptions } from './game.js';
import type { LogsOptions } from './logs.js';
import type { PlayOptions } from './play.js';
import type { SnapshotOptions } from './snapshot.js';
import type { RawExecOptions, RawSeedOptions, RawStartOptions } from './options.js';
import type { Factory } from '../../../ops/factory.js';

const FAULTS_HELP =
  "inject the platform's awkward replies into /services/rest/v1, e.g. reset=0.1,slow=0.2:1500ms (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)";
const GAME_DIR_HELP = 'serve the game from this folder at /play/GAME/game/ (on the game host, an origin of its own)';
const GAME_URL_HELP = 'serve the game from this dev server (proxied, websockets too) at /play/GAME/game/ (on the game host)';
const GAME_HELP = 'the game --game-dir / --game-url serve (default: the first game)';
const NO_CONNECT_HELP = "do not put the connect script into the game's HTML pages";
const LATENCY_HELP = 'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0)';
const INSECURE_HELP = "accept the game's dev server's https certificate unchecked (a self-signed one, e.g. https://localhost:5173)";
const ALLOW_DIR_HELP = 'a folder games may later be served from (sandbox play --game-dir on the running sandbox): repeat for more; --game-dir is allowed already';
const collect = (value: string, previous: string[] = []): string[] => [...previous, value];
const FAULT_SEED_HELP = 'seed of the fault draws: the same seed faults the same requests of the same sequence (default: random, printed at start)';

export function register(program: Command, factory: Factory): void {
  const sandbox = program
    .command('sandbox')
    .description('Run the local sandbox of the User Data REST Service (SQLite, demo data)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox start --detach\n  $ udcli sandbox info\n  $ udcli sandbox exec -- npm test');

  sandbox
    .command('start')
    .description('Start the sandbox (foreground until Ctrl-C, or --detach)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox start\n  $ udcli sandbox start --detach --port 9090\n  $ udcli sandbox start --db :memory: --token-ttl 60 --rate-limit 20/s\n  $ udcli sandbox start --faults reset=0.1,slow=0.2:1500ms --fault-seed 7\n  $ udcli sandbox start --latency 40ms\n  $ udcli sandbox start --detach --game-url http://localhost:5173/\n  $ udcli sandbox start --data racers.yaml --reset')
    .option('--port <port>', 'port to listen on, 0 = any free port (default: 8787)')
    .option('--host <host>', 'address to bind (default: 127.0.0.1)')
    .option('--db <file>', 'database file, or :memory: (default: sandbox.db in the data dir)')
    .option('--seed <mode>', 'demo: seed the demo data into an empty database; none: leave it empty (default: demo)')
    .option('--data <file>', 'load your data file (YAML or JSON; see sandbox init) instead of the demo data; a database that holds anything else is refused')
    .option('--reset', 'with --data: replace whatever the database holds with the file')
    .option('--token-ttl <seconds>', 'lifetime of tokens from the token generator (default: 900)')
    .option('--rate-limit <n/s>', 'answer 429 beyond N requests per second per api_key, e.g. 10/s')
    .option('--faults <spec>', FAULTS_HELP)
    .option('--fault-seed <n>', FAULT_SEED_HELP)
    .option('--latency <duration>', LATENCY_HELP)
    .option('--game-dir <dir>', GAME_DIR_HELP)
    .option('--game-url <url>', GAME_URL_HELP)
    .option('--game <id>', GAME_HELP)
    .option('--no-connect', NO_CONNECT_HELP)
    .option('--insecure-game-host', INSECURE_HELP)
    .option('--allow-game-dir <dir>', ALLOW_DIR_HELP, collect)
    .option('--detach', 'run in the background; output goes to sandbox.log in the data dir')
    .option('--allow-remote', 'allow a --host other machines can reach (the sandbox has password-less login)')
    .option('--public-url <url>', 'the URL other machines reach it at (a name, a tunnel): answered besides localhost and the bound address; needs --allow-remote')
    .action(async (opts: RawStartOptions) => {
      const { startCommand } = await import('./start.js');
      await startCommand(factory, opts);
    });

  sandbox
    .command('exec')
    .description("Run a command against a fresh sandbox (free port, temporary database); exit with the command's code")
    .usage('[options] -- <command ...>')
    .argument('[command...]', 'the command and its arguments, after --')
    .option('--port <port>', 'port to listen on (default: 0, any free port)')
    .option('--seed <mode>', 'demo: the demo data; none: an empty database (default: demo)')
    .option('--data <file>', 'start from your data file instead of the demo data')
    .option('--snapshot <name>', 'start from a saved snapshot (udcli sandbox snapshot save)')
    .option('--log <file>', "write every request line of the run to FILE (when the command fails, the last 20 are printed on stderr either way)")
    .option('--token-ttl <seconds>', 'lifetime of tokens from the token generator (default: 900)')
    .option('--rate-limit <n/s>', 'answer 429 beyond N requests per second per api_key, e.g. 10/s')
    .option('--faults <spec>', FAULTS_HELP)
    .option('--fault-seed <n>', FAULT_SEED_HELP)
    .option('--latency <duration>', LATENCY_HELP)
    .option('--game-dir <dir>', GAME_DIR_HELP)
    .option('--game-url <url>', GAME_URL_HELP)
    .option('--game <id>', GAME_HELP)
    .option('--no-connect', NO_CONNECT_HELP)
    .option('--insecure-game-host', INSECURE_HELP)
    .option('--allow-game-dir <dir>', ALLOW_DIR_HELP, collect)
    .addHelpText(
      'after',
      `
The command runs without a shell (use sh -c '...' for one), with its input and output on this
terminal, and with this environment added:
  UDCLI_BASE_URL, UDCLI_SITE_URL   the sandbox's URL
  UDCLI_API_KEY, UDCLI_SIGNING_SECRET, UDCLI_GAME_ID   the demo game's credentials (with --data or
                                   --snapshot and no demo game: the first game that has a key)
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
    )
    .action(async (command: string[], opts: RawExecOptions) => {
      const { execCommand } = await import('./exec.js');
      await execCommand(factory, command, opts);
    });

  sandbox
    .command('play')
    .description("Open a game's play page, the game served by the sandbox's game host (starts a detached sandbox if none runs)")
    .argument('[game]', "the game, e.g. 1001 (default: the profile's game, else the first)")
    .option('--game-dir <dir>', 'serve the game from this folder (e.g. your build output)')
    .option('--game-url <url>', 'serve the game from this dev server, e.g. http://localhost:5173/')
    .option('--as <user>', 'play as this username (the page asks to confirm)')
    .option('--no-open', 'only print the URL, open no browser')
    .option('--no-connect', NO_CONNECT_HELP)
    .option('--insecure-game-host', `${INSECURE_HELP}; for a sandbox play starts (a running one keeps its own)`)
    .option('--latency <duration>', `${LATENCY_HELP}; for a sandbox play starts (a running one keeps its own)`)
    .addHelpText(
      'after',
      `
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
    )
    .action(async (gameId: string | undefined, opts: PlayOptions) => {
      const { playCommand } = await import('./play.js');
      await playCommand(factory, gameId, opts);
    });

  const game = sandbox
    .command('game')
    .description("Show a sandbox game, or set its content URI (what the play page /play/{game_id} shows)")
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox game show 1001\n  $ udcli sandbox game set-uri 1001 http://localhost:3000/game');

  game
    .command('set-uri')
    .description('Set the content URI the play page iframes (an http or https URL); a running sandbox sees it at once')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox game set-uri 1001 http://localhost:3000/game')
    .argument('<game_id>', 'the game, e.g. 1001')
    .argument('<url>', 'the http(s) URL of your game, e.g. http://localhost:3000/')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--json', 'print the game as JSON')
    .action(async (gameId: string, url: string, opts: GameOptions) => {
      const { setUriCommand } = await import('./game.js');
      await setUriCommand(factory, gameId, url, opts);
    });

  game
    .command('show')
    .description('Show a game: name, content URI, play page, api keys')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox game show 1001')
    .argument('<game_id>', 'the game, e.g. 1001')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--json', 'print JSON')
    .action(async (gameId: string, opts: GameOptions) => {
      const { showCommand } = await import('./game.js');
      await showCommand(factory, gameId, opts);
    });

  sandbox
    .command('init')
    .description('Write a commented starter data file for your own game (default: sandbox-data.yaml; - for stdout)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox init qa.yaml\n  $ udcli sandbox start --data qa.yaml')
    .argument('[file]', 'where to write it')
    .option('--force', 'replace existing files (the data file and the schema written beside it)')
    .action(async (file: string | undefined, opts: InitOptions) => {
      const { initCommand } = await import('./data.js');
      await initCommand(factory, file, opts);
    });

  sandbox
    .command('schema')
    .description('Print the JSON Schema of sandbox data files (for editors and CI checks)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox schema > sandbox-data.schema.json')
    .action(async () => {
      const { schemaCommand } = await import('./data.js');
      await schemaCommand(factory);
    });

  sandbox
    .command('load')
    .description('Load a data file (YAML or JSON) into the sandbox database, all or nothing; a running sandbox sees it at once')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox load qa.yaml\n  $ udcli sandbox load qa.json --db ci.db')
    .argument('<file>', 'the data file')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--json', 'print the summary as JSON')
    .action(async (file: string, opts: LoadOptions) => {
      const { loadCommand } = await import('./data.js');
      await loadCommand(factory, file, opts);
    });

  sandbox
    .command('export')
    .description('Write the whole sandbox database as a data file (YAML, or JSON for a .json file); - or nothing for stdout')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox export qa-after.yaml\n  $ udcli sandbox export --format json | jq .users[0]')
    .argument('[file]', 'where to write it (default: stdout)')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--format <format>', 'yaml or json (default: from the file name, else yaml)')
    .action(async (file: string | undefined, opts: ExportOptions) => {
      const { exportCommand } = await import('./data.js');
      await exportCommand(factory, file, opts);
    });

  sandbox
    .command('diff')
    .description("Compare a recording of the platform (HAR) with what the sandbox answers: exit 0 same, 1 different, 2 bad input")
    .argument('[files...]', 'HAR files: from --har, a browser\'s "Save all as HAR", Playwright\'s recordHar')
    .option('--json', 'print one JSON object: compared, same, differing, skipped, differences')
    .option('--ignore <path>', 'leave out this path and what is below it, e.g. payload[].percent_complete (repeatable)', (value: string, previous: string[] = []) => [...previous, value])
    .option('--strict', 'compare everything, the values that drift between runs (dates, sessions, tokens, ids) too')
    .option('--data <file>', 'load this data file into the scratch sandbox before the recording\'s state')
    .option('--live <user>', "read this user (uid or username) from the profile's server (reads only: it never sends a change), record and diff")
    .option('--game <id>', "with --live: the game whose quests and products to read (default: the profile's game_id)")
    .option('--save-key <key>', 'with --live: read this game save too')
    .addHelpText(
      'after',
      `
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
    )
    .action(async (files: string[], opts: DiffOptions) => {
      const { diffCommand } = await import('./diff.js');
      await diffCommand(factory, files, opts);
    });

  sandbox
    .command('import')
    .description('Write a data file of the state a recording (HAR) shows: profiles, friends, quests and progress, products held, saves')
    .argument('<recording>', 'a HAR file (udcli --har, a browser, Playwright)')
    .argument('[datafile]', 'where to write it (YAML, or JSON for a .json name; default: stdout)')
    .option('--keep-personal', "keep players' personal fields (birthday, email), which are left out by default")
    .option('--force', 'replace an existing data file')
    .addHelpText(
      'after',
      `
The state is the last one the recording shows, under the recorded uids, game ids, skus and
quest ids. Each game gets a new sandbox key: recorded keys are never copied.

Examples:
  $ udcli sandbox import player-case.har case.yaml
  $ udcli sandbox start --data case.yaml`,
    )
    .action(async (recording: string, datafile: string | undefined, opts: ImportOptions) => {
      const { importCommand } = await import('./import.js');
      await importCommand(factory, recording, datafile, opts);
    });

  const snapshot = sandbox
    .command('snapshot')
    .description('Save the sandbox database under a name, restore it, list or delete snapshots')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox snapshot save before-test\n  $ udcli sandbox snapshot restore before-test\n  $ udcli sandbox snapshot list');

  snapshot
    .command('save')
    .description('Save the database as snapshot NAME (an existing one of that name is replaced only once the new one is complete)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox snapshot save before-test')
    .argument('<name>', 'letters, digits, - _ .')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .action(async (name: string, opts: SnapshotOptions) => {
      const { saveCommand } = await import('./snapshot.js');
      await saveCommand(factory, name, opts);
    });

  snapshot
    .command('restore')
    .description('Put the database back to snapshot NAME (one transaction; a running sandbox sees it at once)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox snapshot restore before-test')
    .argument('<name>', 'a saved snapshot')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .action(async (name: string, opts: SnapshotOptions) => {
      const { restoreCommand } = await import('./snapshot.js');
      await restoreCommand(factory, name, opts);
    });

  snapshot
    .command('list')
    .description('List the saved snapshots')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox snapshot list --json')
    .option('--json', 'print JSON')
    .action(async (opts: SnapshotOptions) => {
      const { listCommand } = await import('./snapshot.js');
      await listCommand(factory, opts);
    });

  snapshot
    .command('delete')
    .description('Delete snapshot NAME')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox snapshot delete before-test')
    .argument('<name>', 'a saved snapshot')
    .action(async (name: string) => {
      const { deleteCommand } = await import('./snapshot.js');
      await deleteCommand(factory, name);
    });

  sandbox
    .command('stop')
    .description('Stop the running sandbox')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox stop')
    .action(async () => {
      const { stopCommand } = await import('./stop.js');
      await stopCommand(factory);
    });

  sandbox
    .command('logs')
    .description("Show the detached sandbox's log like tail: the last 10 lines (start-up messages and one line per request, secrets redacted)")
    .addHelpText(
      'after',
      `
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
    )
    .option('-n, --lines <n>', 'the last N lines, or all (default: 10)')
    .option('-f, --follow', 'then keep printing lines as they are written, until Ctrl-C (starts at the end)')
    .option('--status <list>', 'only requests with these statuses or classes, e.g. 4xx, 401, 5xx,429')
    .option('--path <text>', 'only requests whose path contains TEXT')
    .option('--since <when>', 'only requests since a duration ago (10m, 2h, 1d) or an ISO date-time')
    .option('--challenges', "also the 401 challenges answered by a signed retry (shown in their retry's line otherwise)")
    .option('--json', 'only the request lines, one JSON object each')
    .action(async (opts: LogsOptions) => {
      const { logsCommand } = await import('./logs.js');
      await logsCommand(factory, opts);
    });

  sandbox
    .command('status')
    .description('Show whether the sandbox runs, and where (exit 1 when it does not)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox status\n  $ udcli sandbox status --json')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { statusCommand } = await import('./status.js');
      await statusCommand(factory, opts);
    });

  sandbox
    .command('reset')
    .description('Put the sandbox database back to what it was started with (its data file, else the demo data); a running sandbox is reset live')
    .addHelpText(
      'after',
      `
A running sandbox (the one the pid file names, or the one \`sandbox exec\` runs the command
against) is reset in place through POST /_sandbox/reset: its clients stay connected and the
next request sees the new state. A test suite can POST /_sandbox/reset itself (seed=demo|none,
or data=TEXT&file=NAME). Otherwise the database file is deleted and recreated.

Examples:
  $ udcli sandbox reset
  $ udcli sandbox reset --data qa.yaml
  $ curl -X POST "$UDCLI_BASE_URL/_sandbox/reset"   # between test cases`,
    )
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--seed <mode>', 'demo or none, instead of what it was started with')
    .option('--data <file>', 'your data file, instead of what it was started with')
    .action(async (opts: { db?: string; seed?: string; data?: string }) => {
      const { resetCommand } = await import('./reset.js');
      await resetCommand(factory, opts);
    });

  const clock = sandbox
    .command('clock')
    .description("Show or move the running sandbox's virtual clock (token, session and challenge expiry, the hmac timestamp window)")
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox clock now\n  $ udcli sandbox clock advance 901s\n  $ udcli sandbox clock set 2030-01-01T00:00:00Z\n  $ udcli sandbox clock reset');

  clock
    .command('now')
    .description("Show the sandbox's time and its offset from the real clock")
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox clock now\n  $ udcli sandbox clock now --port 9090 --json')
    .option('--port <port>', 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)')
    .option('--json', 'print JSON')
    .action(async (opts: ClockOptions) => {
      const { clockCommand } = await import('./clock.js');
      await clockCommand(factory, { action: 'now' }, opts);
    });

  clock
    .command('advance')
    .description('Move the clock forward: seconds, or a number with s, m, h or d (e.g. 901s, 15m)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox clock advance 901s   # a 900 s token has expired\n  $ udcli sandbox clock advance 1d')
    .argument('<duration>', 'e.g. 901s, 15m, 2h, 1d, or plain seconds')
    .option('--port <port>', 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)')
    .option('--json', 'print JSON')
    .action(async (duration: string, opts: ClockOptions) => {
      const { clockCommand } = await import('./clock.js');
      await clockCommand(factory, { action: 'advance', value: duration }, opts);
    });

  clock
    .command('set')
    .description('Put the clock at a date-time (ISO 8601, UTC unless it names a zone), or now (the real time); backwards is allowed')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox clock set 2030-01-01T00:00:00Z\n  $ udcli sandbox clock set now   # back to the real time')
    .argument('<iso>', 'e.g. 2030-01-01T00:00:00Z, or now')
    .option('--port <port>', 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)')
    .option('--json', 'print JSON')
    .action(async (iso: string, opts: ClockOptions) => {
      const { clockCommand } = await import('./clock.js');
      await clockCommand(factory, { action: 'set', value: iso }, opts);
    });

  clock
    .command('reset')
    .description('Put the clock back on the real time (offset 0)')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox clock reset')
    .option('--port <port>', 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)')
    .option('--json', 'print JSON')
    .action(async (opts: ClockOptions) => {
      const { clockCommand } = await import('./clock.js');
      await clockCommand(factory, { action: 'reset' }, opts);
    });

  sandbox
    .command('info')
    .description('Show what the sandbox holds now, asked of it: URLs, games and keys, users with their progress and holdings, quests and products')
    .addHelpText('after', '\nThe sandbox: --base-url URL (or a profile\'s) names one; else the running local one, else its database file.\n\nExamples:\n  $ udcli sandbox info\n  $ udcli sandbox info --json\n  $ udcli --base-url http://127.0.0.1:9090 sandbox info')
    .option('--json', 'print JSON')
    .action(async (opts: { json?: boolean }) => {
      const { infoCommand } = await import('./info.js');
      await infoCommand(factory, opts);
    });

  sandbox
    .command('seed')
    .description('Add generated data: users, a hub user with friends, achievements, products')
    .addHelpText('after', '\nExamples:\n  $ udcli sandbox seed --users 100000 --friends 100000\n  $ udcli sandbox seed --users 5000 --seed 7 --db bench.db')
    .option('--users <n>', 'users to generate (default: 1000)')
    .option('--friends <n>', 'friends of the generated hub user, at most --users (default: 500)')
    .option('--achievements <n>', 'achievements on game 1001 (default: 10)')
    .option('--products <n>', 'products on game 1001 (default: 5)')
    .option('--seed <s>', 'same seed, same data (default: 1)')
    .option('--db <file>', 'database file (default: sandbox.db in the data dir)')
    .option('--json', 'print the summary as JSON')
    .action(async (opts: RawSeedOptions) => {
      const { seedCommand } = await import('./seed.js');
      await seedCommand(factory, opts);
    });
}
