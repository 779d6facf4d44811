#!/usr/bin/env node
/**
 * `npm run bench`: udcli measured side by side with a reference doing the same work with the same
 * dependencies, in the same invocation, as ratios (machines are noisy; absolute times are
 * reported, not judged). Each reference says in its header what it does and why it is the fair
 * floor (bench/ref/); the one-shot rows check that both sides load the same packages and
 * built-ins (bench/lib/modules.js). Needs the built code: run `npm run build` first.
 *
 *   node bench/run.js            full run (≥ 5 measured runs a row), writes bench/results.{md,json}
 *   node bench/run.js --quick    3 runs a row and smaller sizes, same outputs
 *   node bench/run.js --smoke    tiny sizes, 1 run each, writes into a temp dir (or --out DIR)
 *   options: --out DIR (where results.{md,json} go), --only a,b (rows by id prefix: startup,
 *            user, list, inc, embedded, friends, data, batch, journal, sandbox, har-diff, gc-soak,
 *            node, mock; a row's Node 24 twin ends in -node24), --soak-ms N (the gc-soak rows'
 *            length; bench/node.js),
 *            --runs N (measured runs a row), --before FILE (an earlier results.json to compare
 *            against; default bench/results-before.json for full runs when it exists),
 *            --mocks / --no-mocks / --mocks-dir DIR (the mock-server rows, bench/mocks.js),
 *            --render (only rewrite results.md from results.json, e.g. after editing CHANGES.md)
 *
 * The start-up rows and the one-shot rows (user, user-floor, list, inc) run twice: on the Node
 * running the bench and on the newest Node 24 from the npm registry (rows `...-node24`; not in
 * --smoke runs unless --only names such a row, or $UDCLI_BENCH_NODE24 points at a node binary),
 * udcli and its reference on the same Node.
 *
 * Rules: reference and udcli runs interleaved (ABAB), warm-up runs excluded, medians reported
 * with the spread of the runs and the machine's load during the row (bench/lib/load-monitor.js;
 * a row during which other processes took a quarter of the machine says "measured under load").
 * Processes are timed whole (spawn to close, hrtime); peak RSS comes from the child itself
 * (bench/lib/rss-preload.js, getrusage maxRSS at exit). Everything listens on 127.0.0.1 only;
 * temp dirs and child processes are cleaned up also on failure and Ctrl-C.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { freePort } from './lib/free-port.js';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { cleanEnv, killAll, mustRun, nodeJson, startCliSandbox, startServer } from './lib/proc.js';
import { startLoadMonitor } from './lib/load-monitor.js';
import { MODULES_PRELOAD, dependencyDifference, loadedDependencies } from './lib/modules.js';
import { benchHarDiff } from './har-diff.js';
import { benchUsedSignatures } from './used-signatures.js';
import { gcSoak, npmCi, registryNode, scratchClone } from './node.js';
import { MOCK_IDS, benchMocks } from './mocks.js';

/** @typedef {Parameters<typeof import('./lib/proc.js').timedNode>[1]} RunOptions */

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BENCH = join(ROOT, 'bench');
const BIN = join(ROOT, 'bin', 'udcli.js');

// ---------------------------------------------------------------- arguments and modes

/** @param {string[]} argv */
function parseArgs(argv) {
  /**
   * @type {{ mode: 'full' | 'quick' | 'smoke', out?: string, only?: string[], before?: string, render?: boolean, runs?:
   * number, mocks?: boolean, mocksDir?: string, soakMs?: number }}
   */
  const a = { mode: 'full' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') a.mode = 'quick';
    else if (arg === '--smoke') a.mode = 'smoke';
    else if (arg === '--out') a.out = argv[++i];
    else if (arg === '--only') a.only = String(argv[++i]).split(',');
    else if (arg === '--before') a.before = argv[++i];
    else if (arg === '--render') a.render = true;
    else if (arg === '--runs') {
      a.runs = Number(argv[++i]);
      if (!Number.isInteger(a.runs) || a.runs < 1) {
        process.stderr.write('bench: --runs takes a whole number of runs, 1 or more\n');
        process.exit(2);
      }
    } else if (arg === '--soak-ms') {
      a.soakMs = Number(argv[++i]);
      if (!Number.isInteger(a.soakMs) || a.soakMs < 100) {
        process.stderr.write('bench: --soak-ms takes a whole number of milliseconds, 100 or more\n');
        process.exit(2);
      }
    } else if (arg === '--mocks') a.mocks = true;
    else if (arg === '--no-mocks') a.mocks = false;
    else if (arg === '--mocks-dir') a.mocksDir = argv[++i];
    else if (arg === '-h' || arg === '--help') {
      process.stdout.write(USAGE);
      process.exit(0);
    } else {
      process.stderr.write(`bench: unknown option ${arg} (see --help)\n`);
      process.exit(2);
    }
  }
  return a;
}

const USAGE = `usage: node bench/run.js [--quick | --smoke] [--runs N] [--out DIR] [--only ROWS] [--before FILE] [--render]
                         [--mocks | --no-mocks] [--mocks-dir DIR] [--soak-ms N]
  (default) full run, writes bench/results.md and bench/results.json
  --quick   fewer runs, smaller sizes
  --smoke   tiny sizes, one run each, writes into a temp dir (or --out DIR)
  --runs N  measured runs a row (and warm-up runs: none below 3), whatever the mode
  --only    rows by id prefix, comma-separated: startup, user, list, inc, embedded, friends,
            data, batch, journal, sandbox (sandbox-signatures too), har-diff, gc-soak, node (node-ci-20 ... node-ci-26,
            gc-soak-node24, gc-soak-node26), mock (mock-prism, mock-json-server, ...)
  --soak-ms N
            how long the gc-soak rows load the sandbox (default: 5 minutes; quick 30 s, smoke 0.3 s)
  --render  only write results.md again from results.json (after editing bench/CHANGES.md)
  --mocks / --no-mocks
            the rows of the sandbox beside the mock servers a studio would otherwise use
            (Prism, json-server, Mockoon, WireMock): installed from the npm registry into a
            temporary folder at bench time (network). On by default in full and quick runs; in
            --smoke runs only with --mocks or --only mock (npm test never installs anything)
  --mocks-dir DIR
            install the mock servers into DIR and keep them there (reused when present)
The node rows (npm ci of this clone on Node 20, 22, 24 and 26, and the gc-soak on 24 and 26 from
those installs) install Node from the npm registry into bench/.work: on in full and quick runs, in
--smoke runs only with --only node.
The start-up and one-shot rows (startup-*, user, user-floor, list, inc) run on this Node and again
on the newest Node 24 (ids ending in -node24; from the npm registry into bench/.work, or
$UDCLI_BENCH_NODE24): in full and quick runs, in --smoke runs only when --only names a -node24 row.
Needs the built code: run \`npm run build\` first.
`;

const SETTINGS = {
  // runs: measured runs a row (≥ 5), warmup: excluded runs a side, startupRuns: the cheap rows
  // (start-up, and the one-shot commands: a tenth of a second each, whose medians of 7 moved by
  // ±10% from one full run to the next on this machine)
  // dataUsers: users of the generated data file (10 friendships each, ~1,000,000 in the full run);
  // dataRuns: runs a side of the data rows (a full load takes ~15 s)
  // resumeItems: finished items of the big journal of the resume row (the reference: a tenth)
  // logSettleMs: how long after a batch side's last reply its sandbox's request lines are read
  full: {
    runs: 7,
    warmup: 2,
    startupRuns: 15,
    bigFriends: 100_000,
    smallFriends: 10_000,
    batchUsers: 5_000,
    latencyUsers: 800,
    loadMs: 2_000,
    loadWarmMs: 1_000,
    dataUsers: 100_000,
    dataRuns: 3,
    resumeItems: 1_000_000,
    soakMs: 300_000,
    logSettleMs: 100,
  },
  quick: {
    runs: 3,
    warmup: 1,
    startupRuns: 5,
    bigFriends: 20_000,
    smallFriends: 2_000,
    batchUsers: 1_000,
    latencyUsers: 300,
    loadMs: 1_000,
    loadWarmMs: 500,
    dataUsers: 20_000,
    dataRuns: 1,
    resumeItems: 200_000,
    soakMs: 30_000,
    logSettleMs: 100,
  },
  // smoke (npm test): each row runs and prints numbers, not meaningful ones. Batches still have
  // more users than the 16 in flight at once; a load of 25 ms still answers dozens of requests on
  // every connection; a soak of 300 ms still spans a forced GC (every 200 ms) and a live reset (the
  // first comes at once). The sandbox writes a reply's request line 20 ms after it queued the first
  // of its batch (LINE_FLUSH_MS, src/sandbox/http/request-log.ts): 60 ms leave it room.
  smoke: {
    runs: 1,
    warmup: 0,
    startupRuns: 1,
    bigFriends: 600,
    smallFriends: 60,
    batchUsers: 20,
    latencyUsers: 20,
    loadMs: 25,
    loadWarmMs: 0,
    dataUsers: 200,
    dataRuns: 1,
    resumeItems: 2_000,
    soakMs: 300,
    logSettleMs: 60,
  },
};
const CONCURRENCY = 16;
/** The round trip the batch-latency row's sandbox adds to every reply, as a real network does. */
const LATENCY_MS = 40;
const COUNTER = 'BENCH_COUNTER';

// ---------------------------------------------------------------- small helpers

/** @param {number[]} xs */
function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * Lines in a sandbox's request log, once the lines of what was answered have been written (the
 * sandbox writes them in batches, LINE_FLUSH_MS after the first of each).
 * @param {string} file
 * @param {number} settleMs
 */
async function logLines(file, settleMs) {
  await new Promise((r) => setTimeout(r, settleMs));
  const text = readFileSync(file, 'latin1');
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** @param {string} msg */
function log(msg) {
  process.stderr.write(`bench: ${msg}\n`);
}

/**
 * Warm-up (excluded), then ABAB: reference, udcli, reference, udcli ...
 * @template T
 * @param {{ runs: number, warmup: number }} n
 * @param {() => Promise<T>} ref
 * @param {() => Promise<T>} udcli
 */
async function interleaved(n, ref, udcli) {
  for (let i = 0; i < n.warmup; i++) {
    await ref();
    await udcli();
  }
  /** @type {T[]} */ const a = [];
  /** @type {T[]} */ const b = [];
  for (let i = 0; i < n.runs; i++) {
    a.push(await ref());
    b.push(await udcli());
  }
  return { ref: a, udcli: b };
}

/**
 * The current LTS's node binary for the start-up rows: $UDCLI_BENCH_NODE24, else the newest Node
 * 24 from the npm registry into bench/.work (bench/node.js: once a release, and not for --smoke
 * runs, which `npm test` makes; the start-up commands load no native addon). No pin, as in
 * .ci/run. Undefined, with a log line, when it cannot be had: the rows on this Node are still
 * measured.
 * @param {(line: string) => void} log
 * @param {boolean} install
 * @returns {Promise<{ path: string, version: string } | undefined>}
 */
async function nodeLts(log, install) {
  let path = process.env.UDCLI_BENCH_NODE24;
  if (!path && !install) return undefined;
  if (!path) {
    try {
      path = registryNode(24, log).node;
    } catch {
      log('could not install Node 24: the start-up and one-shot rows run on this Node only');
      return undefined;
    }
  }
  const { execFileSync } = await import('node:child_process');
  return { path, version: execFileSync(path, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '') };
}

/** The p-quantile of xs (nearest rank). @param {number[]} xs @param {number} p */
function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.round(p * (s.length - 1))))];
}

/** @param {number} x @param {number} [digits] */
const round = (x, digits = 3) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * One row of the results.
 * @param {object} r
 * @param {string} r.id
 * @param {string} r.what
 * @param {string} r.unit
 * @param {string} r.refLabel
 * @param {number[]} r.refSamples
 * @param {number[]} r.udcliSamples
 * @param {'time' | 'throughput' | 'memory' | 'report'} r.kind time/memory: ratio = udcli/ref (lower is better);
 * throughput: udcli/ref (higher is better)
 * @param {{ op: '<=' | '>=', value: number } | null} r.target
 * @param {Record<string, unknown>} [r.extra]
 * @param {boolean} [r.check]  a pass condition besides the ratio (e.g. exact final value)
 * @param {string} [r.targetText]
 * @param {ReturnType<ReturnType<typeof startLoadMonitor>['window']>} [r.load] a row measured with another: its load
 * window
 */
function row(r) {
  const ref = median(r.refSamples);
  const udcli = median(r.udcliSamples);
  // The spread of each side (quartiles and extremes of the measured runs, and their number) and
  // the machine's load while the row ran: on a shared machine a ratio means little without them.
  const spread = (/** @type {number[]} */ xs) => ({
    p25: round(quantile(xs, 0.25)),
    p75: round(quantile(xs, 0.75)),
    min: round(Math.min(...xs)),
    max: round(Math.max(...xs)),
  });
  const ratio = ref > 0 ? udcli / ref : NaN;
  let pass = r.check ?? true;
  if (r.target) pass = pass && (r.target.op === '<=' ? ratio <= r.target.value : ratio >= r.target.value);
  const load = r.load ?? monitor.window();
  return {
    id: r.id,
    what: r.what,
    unit: r.unit,
    kind: r.kind,
    reference: {
      label: r.refLabel,
      median: round(ref),
      spread: spread(r.refSamples),
      runs: r.refSamples.length,
      samples: r.refSamples.map((x) => round(x)),
    },
    udcli: {
      median: round(udcli),
      spread: spread(r.udcliSamples),
      runs: r.udcliSamples.length,
      samples: r.udcliSamples.map((x) => round(x)),
    },
    load1: load.load1.end,
    load,
    ratio: round(ratio),
    target: r.target,
    targetText: r.targetText ?? (r.target ? `${r.target.op === '<=' ? '≤' : '≥'} ${r.target.value}×` : 'report'),
    pass,
    ...(r.extra ? { extra: r.extra } : {}),
  };
}

/** Samples the machine's load from the start; each row() closes a window (lib/load-monitor.js). */
const monitor = startLoadMonitor();

// ---------------------------------------------------------------- setup: database and servers

/**
 * Seeds one temp database with two hub users (big and small friend lists) and a counter
 * achievement whose target no bench reaches, so every increment writes.
 * @param {string} dbPath
 * @param {{ bigFriends: number, smallFriends: number, batchUsers: number }} s
 */
async function seedDatabase(dbPath, s) {
  const [{ openDatabase }, { seedGenerated }, { DEMO }] = await Promise.all([
    import('../dist/sandbox/database.js'),
    import('../dist/sandbox/seed/generated.js'),
    import('../dist/domain/demo.js'),
  ]);
  const db = openDatabase(dbPath);
  try {
    const big = seedGenerated(db, {
      users: s.bigFriends,
      friends: s.bigFriends,
      achievements: 0,
      products: 0,
      seed: 'big',
    });
    const small = seedGenerated(db, {
      users: s.smallFriends,
      friends: s.smallFriends,
      achievements: 0,
      products: 0,
      seed: 'small',
    });
    db.transaction(() => {
      db.repos.achievements.insertDefinition({
        parentId: DEMO.game.id,
        developerId: COUNTER,
        name: 'Bench counter',
        description: 'Incremented by the benches.',
        adminDescription: '',
        icon: 'bench.png',
        startValue: 0,
        targetValue: 2_000_000_000,
        score: 1,
        state: 'Active',
        tags: {},
        createdOn: 1_600_000_000,
        updatedOn: 1_600_000_000,
      });
    });
    const batchUids = db.sqlite
      .prepare("SELECT uid FROM users WHERE username LIKE 'genbig\\_user\\_%' ESCAPE '\\' ORDER BY username LIMIT ?")
      .pluck()
      .all(s.batchUsers);
    return { big: big.hub, small: small.hub, batchUids: /** @type {string[]} */ (batchUids), demo: DEMO };
  } finally {
    db.close();
  }
}

// ---------------------------------------------------------------- the benches

/**
 * @param {ReturnType<typeof parseArgs>} args
 */
async function main(args) {
  for (const f of ['dist/cli/main.js', 'dist/sandbox/server.js', 'dist/domain/signing.js']) {
    if (!existsSync(join(ROOT, f))) {
      process.stderr.write(
        `bench: ${f} is missing: run \`npm run build\` first (the benches measure the built code)\n`,
      );
      return 1;
    }
  }
  const s = { ...SETTINGS[args.mode] };
  if (args.soakMs) s.soakMs = args.soakMs;
  if (args.runs) {
    s.runs = s.startupRuns = s.dataRuns = args.runs;
    if (args.runs < 3) s.warmup = 0;
  }
  const wants = (/** @type {string} */ id) => !args.only || args.only.some((p) => id.startsWith(p));
  // A block of rows sharing one set-up runs when --only names any of its rows (`--only friends-rss`).
  const wantsAny = (/** @type {string[]} */ ids) => ids.some(wants);
  const outDir = args.out ?? (args.mode === 'smoke' ? mkdtempSync(join(tmpdir(), 'udcli-bench-out-')) : BENCH);
  mkdirSync(outDir, { recursive: true });

  const root = mkdtempSync(join(tmpdir(), 'udcli-bench-'));
  /** @type {Array<{ stop: () => Promise<void> }>} */
  const servers = [];
  /** Stops the background sandbox the embedded row's first command started (it outlives its command). */
  /** @type {(() => unknown) | undefined} */
  let stopNewcomer;
  const cleanup = () => {
    stopNewcomer?.();
    killAll();
    rmSync(root, { recursive: true, force: true });
  };
  const onSignal = () => {
    log('interrupted: stopping children, removing temp files');
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const t0 = performance.now();
  /** @type {any[]} */
  const rows = [];
  /** @type {Record<string, unknown>} */
  const setup = {};
  try {
    // --- database
    const dbPath = join(root, 'sandbox.db');
    let t = performance.now();
    const seeded = await seedDatabase(dbPath, s);
    setup.seedMs = round(performance.now() - t, 0);
    log(
      `seeded ${s.bigFriends} + ${s.smallFriends} users (hubs with ${s.bigFriends} and ${s.smallFriends} friends) in ${setup.seedMs} ms`,
    );
    const { demo } = seeded;

    // Every row talks to the sandbox as users run it: `udcli sandbox start` in the foreground,
    // its request lines going to a file (bench/lib/proc.js startCliSandbox).
    const configDir = join(root, 'config');
    const dataDir = join(root, 'data');
    const sandboxEnv = cleanEnv({ UDCLI_CONFIG_DIR: configDir, UDCLI_DATA_DIR: dataDir });
    /**
     * Another `udcli sandbox start` on the bench's database, e.g. with ['--latency', '40ms']. @param {string[]}
     * extraArgs @param {string} logName
     */
    const startSandbox = async (extraArgs, logName) => {
      const server = await startCliSandbox(dbPath, { env: sandboxEnv, logFile: join(root, logName), extraArgs });
      servers.push(server);
      return server;
    };
    t = performance.now();
    const sandboxLog = join(root, 'sandbox.log');
    const sandbox = await startSandbox([], 'sandbox.log');
    setup.sandboxStartMs = round(performance.now() - t, 0);
    log(`sandbox at ${sandbox.url} (udcli sandbox start, request lines to ${sandboxLog})`);
    // The first row's load window starts here, after the setup.
    setup.load = monitor.window();

    const udcliEnv = cleanEnv({
      UDCLI_CONFIG_DIR: configDir,
      UDCLI_DATA_DIR: dataDir,
      UDCLI_BASE_URL: sandbox.url,
      UDCLI_SITE_URL: sandbox.url,
      UDCLI_API_KEY: demo.game.apiKey,
      UDCLI_SIGNING_SECRET: demo.game.signingSecret,
      UDCLI_GAME_ID: demo.game.id,
    });
    const outFile = join(root, 'out.txt');
    const rssFile = join(root, 'rss.txt');
    const udcli = (/** @type {string[]} */ argv, /** @type {RunOptions} */ o = {}) =>
      mustRun(`udcli ${argv.join(' ')}`, [BIN, ...argv], { env: udcliEnv, ...o });
    const node = (/** @type {string} */ label, /** @type {string[]} */ argv, /** @type {RunOptions} */ o = {}) =>
      mustRun(label, argv, { env: cleanEnv(), ...o });
    const ms = (/** @type {{ ms: number }[]} */ xs) => xs.map((x) => x.ms);

    // --- start-up, on this Node and on the current LTS (Node 24; see nodeLts)
    // The rows on it: the start-up rows and the one-shot rows that talk to a running sandbox.
    const ltsRows = [...['version', 'help', 'bare'].map((a) => `startup-${a}`), 'user', 'user-floor', 'list', 'inc'];
    const lts = ltsRows.some((id) => wants(`${id}-node24`))
      ? await nodeLts(log, args.mode !== 'smoke' || (args.only ?? []).some((p) => p.endsWith('-node24')))
      : undefined;
    const runtimes = [{ suffix: '', label: '', nodePath: undefined }];
    if (lts) runtimes.push({ suffix: '-node24', label: ` (Node ${lts.version})`, nodePath: lts.path });
    for (const runtime of runtimes) {
      for (const args of [['--version'], ['--help'], []]) {
        const id = `startup-${args[0]?.replace('--', '') ?? 'bare'}${runtime.suffix}`;
        if (!wants(id)) continue;
        log(`${id}: ${s.startupRuns} runs a side`);
        const o = { nodePath: runtime.nodePath };
        const r = await interleaved(
          { runs: s.startupRuns, warmup: s.warmup },
          () => node('node -e 0', ['-e', '0'], o),
          () => udcli(args, { stdoutFile: outFile, ...o }),
        );
        rows.push(
          row({
            id,
            what: `udcli ${args.join(' ')}${runtime.label}`.replace('udcli  ', 'udcli '),
            unit: 'ms',
            kind: 'time',
            refLabel: `node -e 0${runtime.label}`,
            refSamples: ms(r.ref),
            udcliSamples: ms(r.udcli),
            target: { op: '<=', value: 1.3 },
          }),
        );
      }
    }

    // --- one-shot commands against their references: the `user` row against a script doing the
    // same work with the same dependencies (bench/ref/user.js; checked: both load the same
    // packages and built-ins), the rest against a node:http floor sending the same requests and
    // printing the same output (bench/ref/floor-*.js).
    /**
     * @typedef {object} OneShotRow
     * @property {string} id
     * @property {string} what
     * @property {string[]} ref
     * @property {NodeJS.ProcessEnv} [refEnv]
     * @property {string[]} udcli
     * @property {string} label
     * @property {(ref: any, udcli: any) => boolean} same
     * @property {{ op: '<=' | '>=', value: number } | null} [target]
     * @property {Record<string, unknown>} [extra]
     * @property {boolean} [check]
     * @property {string} [nodePath]  the Node running both sides (default: the one running the bench)
     */
    const oneShot = async (/** @type {OneShotRow} */ o) => {
      const refOut = join(root, `ref-${o.id}.json`);
      log(`${o.id}: ${s.startupRuns} runs a side`);
      const r = await interleaved(
        { runs: s.startupRuns, warmup: s.warmup },
        () =>
          node(o.ref[0], o.ref, { stdoutFile: refOut, nodePath: o.nodePath, ...(o.refEnv ? { env: o.refEnv } : {}) }),
        () => udcli(o.udcli, { stdoutFile: outFile, nodePath: o.nodePath }),
      );
      if (!o.same(JSON.parse(readFileSync(refOut, 'utf8')), JSON.parse(readFileSync(outFile, 'utf8'))))
        throw new Error(`${o.id}: udcli and the reference printed different things`);
      const target = o.target === undefined ? { op: /** @type {'<='} */ ('<='), value: 1.5 } : o.target;
      rows.push(
        row({
          id: o.id,
          what: o.what,
          unit: 'ms',
          kind: target ? 'time' : 'report',
          refLabel: o.label,
          refSamples: ms(r.ref),
          udcliSamples: ms(r.udcli),
          target,
          ...(o.check === undefined ? {} : { check: o.check }),
          ...(o.extra ? { extra: o.extra } : {}),
        }),
      );
    };
    const sameJson = (/** @type {any} */ a, /** @type {any} */ b) => JSON.stringify(a) === JSON.stringify(b);
    /** The packages and built-ins each side loads, from one untimed run of each under modules-preload.js. */
    const sameDependencies = async (
      /** @type {string[]} */ refArgv,
      /** @type {NodeJS.ProcessEnv} */ refEnv,
      /** @type {string[]} */ udcliArgv,
      /** @type {string | undefined} */ nodePath = undefined,
    ) => {
      const traced = async (
        /** @type {string} */ name,
        /** @type {string[]} */ argv,
        /** @type {NodeJS.ProcessEnv} */ env,
      ) => {
        const file = join(root, `modules-${name}.txt`);
        rmSync(file, { force: true });
        await mustRun(`${name} (modules traced)`, ['--import', MODULES_PRELOAD, ...argv], {
          env: { ...env, BENCH_MODULES_FILE: file },
          stdoutFile: outFile,
          nodePath,
        });
        return loadedDependencies(file);
      };
      const ref = await traced('reference', refArgv, refEnv);
      const ours = await traced('udcli', [BIN, ...udcliArgv], udcliEnv);
      const diff = dependencyDifference(ours, ref);
      return {
        same: diff.onlyFirst.length === 0 && diff.onlySecond.length === 0,
        udcliOnly: diff.onlyFirst,
        referenceOnly: diff.onlySecond,
        packages: ours.packages,
        udcliModuleFiles: ours.files,
        referenceModuleFiles: ref.files,
      };
    };
    /** A one-shot row against its like-for-like reference (bench/ref/like-cli.js), dependencies checked first. */
    /**
     * @typedef {object} LikeForLikeRow
     * @property {string} id
     * @property {string} what
     * @property {string} script
     * @property {string[]} argv
     * @property {string} label
     * @property {(ref: any, udcli: any) => boolean} same
     * @property {number} [target]
     * @property {string} [nodePath]
     */
    const likeForLike = async (/** @type {LikeForLikeRow} */ o) => {
      const refArgv = [join(BENCH, 'ref', o.script), ...o.argv];
      // On Node 24 this is also the check that the command loads no SQLite driver: the reference
      // loads none, and the driver installed for the Node running the bench would not load there.
      const deps = await sameDependencies(refArgv, udcliEnv, o.argv, o.nodePath);
      if (!deps.same)
        log(
          `${o.id}: udcli and its reference load different dependencies (udcli only: ${deps.udcliOnly.join(' ') || '-'}; reference only: ${deps.referenceOnly.join(' ') || '-'}): the row is marked`,
        );
      await oneShot({
        id: o.id,
        what: o.what,
        ref: refArgv,
        refEnv: udcliEnv,
        udcli: o.argv,
        label: `like for like: ${o.label}, commander, the same config lookup, the same dependencies (${deps.same ? 'checked' : 'NOT the same, see notes'})`,
        same: o.same,
        check: deps.same,
        extra: { dependencies: deps },
        target: { op: '<=', value: o.target ?? 1.5 },
        nodePath: o.nodePath,
      });
    };
    // Each on the Node running the bench and on the newest Node 24 (nodeLts), udcli and its
    // reference on the same Node, the one-shot rows of each command side by side. The targets
    // (issue 43) are tighter on 24, where bin/udcli.js turns on the module compile cache.
    for (const [command, runtime] of ['user', 'user-floor', 'list', 'inc'].flatMap((c) =>
      runtimes.map((r) => /** @type {const} */ ([c, r])),
    )) {
      const id = `${command}${runtime.suffix}`;
      if (!wants(id)) continue;
      const on24 = runtime.suffix === '-node24';
      const version = ` (Node ${on24 ? lts?.version : process.versions.node})`;
      const { nodePath } = runtime;
      if (command === 'user')
        await likeForLike({
          id,
          what: `udcli user <uid> --json${version}`,
          script: 'user.js',
          argv: ['user', seeded.big.uid, '--json'],
          label: 'the same GET over node:http',
          same: sameJson,
          target: on24 ? 1.0 : 1.2,
          nodePath,
        });
      if (command === 'user-floor')
        await oneShot({
          id,
          what: `udcli user <uid> --json, against the bare floor${version}`,
          ref: [join(BENCH, 'ref/floor-user.js'), sandbox.url, demo.game.apiKey, seeded.big.uid],
          udcli: ['user', seeded.big.uid, '--json'],
          label: 'node:http floor: the same GET, no dependencies, no argument parsing',
          same: sameJson,
          target: null,
          nodePath,
        });
      if (command === 'list')
        await likeForLike({
          id,
          what: `udcli achievements list <uid> --json${version}`,
          script: 'list.js',
          argv: ['achievements', 'list', seeded.big.uid, '--json'],
          label: 'the same 2 GETs (records, definitions) over node:http, the same rows',
          same: sameJson,
          target: on24 ? 1.15 : 1.5,
          nodePath,
        });
      if (command === 'inc')
        await likeForLike({
          id,
          what: `udcli achievements inc <uid> <developer_id> --json (agi)${version}`,
          script: 'inc.js',
          argv: ['achievements', 'inc', seeded.big.uid, COUNTER, '--json'],
          label: 'the same 4 requests over node:http (definition, read, unsigned POST, signed POST)',
          // Each run adds one: the same reply but for the counter.
          same: (a, b) =>
            a.developer_id === b.developer_id &&
            b.current_value === a.current_value + 1 &&
            sameJson(Object.keys(a), Object.keys(b)),
          target: on24 ? 1.15 : 1.5,
          nodePath,
        });
    }

    // --- the newcomer's default: the built-in profile with no sandbox running. The first command
    // starts one in the background (timed alone, from a data dir without a database: the first
    // command after install); the runs after it are compared with the same command against the
    // bench's running sandbox.
    if (wants('embedded')) {
      const port = await freePort();
      const newcomer = cleanEnv({
        UDCLI_CONFIG_DIR: join(root, 'newcomer-config'),
        UDCLI_DATA_DIR: join(root, 'newcomer-data'),
        UDCLI_SANDBOX_PORT: String(port),
      });
      stopNewcomer = () => spawnSync(process.execPath, [BIN, 'sandbox', 'stop'], { env: newcomer, stdio: 'ignore' });
      const uid = demo.user.uid;
      log(`embedded: the first command (no database yet), then ${s.startupRuns} runs a side`);
      const first = await udcli(['user', uid, '--json'], { stdoutFile: outFile, env: newcomer });
      if (!/started one in the background/.test(first.stderr))
        throw new Error(`embedded: the first command did not start a sandbox: ${first.stderr}`);
      const r = await interleaved(
        { runs: s.startupRuns, warmup: s.warmup },
        () => udcli(['user', seeded.big.uid, '--json'], { stdoutFile: outFile }),
        () => udcli(['user', uid, '--json'], { stdoutFile: outFile, env: newcomer }),
      );
      stopNewcomer();
      stopNewcomer = undefined;
      rows.push(
        row({
          id: 'embedded',
          what: 'udcli user <uid> --json, built-in profile, no sandbox running before the first command',
          unit: 'ms',
          kind: 'time',
          refLabel: 'the same command against a running sandbox',
          refSamples: ms(r.ref),
          udcliSamples: ms(r.udcli),
          target: { op: '<=', value: 1.25 },
          check: args.mode !== 'full' || first.ms < 3000,
          targetText: args.mode === 'full' ? '≤ 1.25×; first command < 3 s' : '≤ 1.25×',
          extra: { firstCommandMs: round(first.ms) },
        }),
      );
    }

    // --- paging through many friends
    if (wantsAny(['friends-time', 'friends-rss'])) {
      const n = s.bigFriends;
      const refOut = join(root, 'ref-friends.ndjson');
      const lines = (/** @type {string} */ f) => {
        const text = readFileSync(f, 'utf8');
        let c = 0;
        for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) c++;
        return c;
      };
      const deps = await sameDependencies(
        [join(BENCH, 'ref/friends.js'), 'friends', seeded.small.uid, '--all', '-o', 'ndjson'],
        udcliEnv,
        ['friends', seeded.small.uid, '--all', '-o', 'ndjson'],
      );
      if (!deps.same)
        log(
          `friends: udcli and its reference load different dependencies (udcli only: ${deps.udcliOnly.join(' ') || '-'}; reference only: ${deps.referenceOnly.join(' ') || '-'}): the row is marked`,
        );
      log(`friends: ${n} friends, ${s.runs} runs a side`);
      const r = await interleaved(
        { runs: s.runs, warmup: s.warmup },
        () =>
          node('ref/friends.js', [join(BENCH, 'ref/friends.js'), 'friends', seeded.big.uid, '--all', '-o', 'ndjson'], {
            stdoutFile: refOut,
            rssFile,
            env: udcliEnv,
          }),
        () => udcli(['friends', seeded.big.uid, '--all', '-o', 'ndjson'], { stdoutFile: outFile, rssFile }),
      );
      if (lines(refOut) !== n || lines(outFile) !== n)
        throw new Error(`friends: expected ${n} lines, got ${lines(refOut)} (reference) and ${lines(outFile)} (udcli)`);
      rows.push(
        row({
          id: 'friends-time',
          what: `udcli friends <uid> --all -o ndjson (${n.toLocaleString('en')} friends)`,
          unit: 'ms',
          kind: 'time',
          refLabel: `like for like: the same paging loop over node:http, commander, the same dependencies (${deps.same ? 'checked' : 'NOT the same, see notes'})`,
          refSamples: ms(r.ref),
          udcliSamples: ms(r.udcli),
          target: { op: '<=', value: 1.2 },
          check: deps.same,
          extra: {
            refPeakRssKB: median(r.ref.map((x) => x.rssKB ?? NaN)),
            udcliPeakRssKB: median(r.udcli.map((x) => x.rssKB ?? NaN)),
            dependencies: deps,
          },
        }),
      );

      log(`friends: peak RSS with ${s.smallFriends} friends, ${s.runs} runs`);
      /** @type {number[]} */ const small = [];
      /** @type {number[]} */ const smallRef = [];
      for (let i = 0; i < s.warmup + s.runs; i++) {
        const a = await node(
          'ref/friends.js',
          [join(BENCH, 'ref/friends.js'), 'friends', seeded.small.uid, '--all', '-o', 'ndjson'],
          { stdoutFile: refOut, rssFile, env: udcliEnv },
        );
        const b = await udcli(['friends', seeded.small.uid, '--all', '-o', 'ndjson'], { stdoutFile: outFile, rssFile });
        if (i >= s.warmup) {
          smallRef.push(a.rssKB ?? NaN);
          small.push(b.rssKB ?? NaN);
        }
      }
      if (lines(outFile) !== s.smallFriends)
        throw new Error(`friends: expected ${s.smallFriends} lines from udcli, got ${lines(outFile)}`);
      rows.push(
        row({
          id: 'friends-rss',
          what: `udcli friends --all peak RSS, ${n.toLocaleString('en')} vs ${s.smallFriends.toLocaleString('en')} friends`,
          unit: 'MB',
          kind: 'memory',
          refLabel: `udcli @ ${s.smallFriends.toLocaleString('en')}`,
          refSamples: small.map((kb) => kb / 1024),
          udcliSamples: r.udcli.map((x) => (x.rssKB ?? NaN) / 1024),
          target: { op: '<=', value: 1.2 },
          extra: {
            referenceScriptRssMB: {
              small: round(median(smallRef) / 1024),
              big: round(median(r.ref.map((x) => x.rssKB ?? NaN)) / 1024),
            },
          },
        }),
      );
    }

    // --- data files: load a generated file (users, 10 friendships each), export with flat memory
    if (wantsAny(['data-load', 'data-export-rss'])) {
      const n = s.dataUsers;
      const dataFile = join(root, 'data.json');
      const name = (/** @type {number} */ i) => `u${String(i).padStart(7, '0')}`;
      /** A game and `users` users, each the friend of the next ten. @param {string} path @param {number} users */
      const writeDataFile = (path, users) =>
        writeFileSync(
          path,
          JSON.stringify({
            games: [{ id: '4711', name: 'Bench', keys: [{ api_key: '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c' }] }],
            users: Array.from({ length: users }, (_, i) => {
              const friends = Array.from({ length: Math.min(10, users - i - 1) }, (_, k) => name(i + k + 1));
              return friends.length ? { username: name(i), friends } : { username: name(i) };
            }),
          }),
        );
      writeDataFile(dataFile, n);
      const loadedDb = join(root, 'loaded.db');
      const fresh = (/** @type {string} */ p) => {
        for (const suffix of ['', '-wal', '-shm']) rmSync(`${p}${suffix}`, { force: true });
        return p;
      };
      // The reference creates the sandbox's schema itself: its SQL, dumped from a freshly migrated database.
      const schemaFile = join(root, 'schema.sql');
      const refDb = join(root, 'ref-loaded.db');
      {
        const { openDatabase } = await import('../dist/sandbox/database.js');
        const empty = openDatabase(fresh(join(root, 'schema.db')));
        const order = "CASE type WHEN 'table' THEN 0 WHEN 'index' THEN 1 WHEN 'view' THEN 2 ELSE 3 END";
        const sql = /** @type {string[]} */ (
          empty.sqlite
            .prepare(
              `SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY ${order}, rowid`,
            )
            .pluck()
            .all()
        );
        empty.close();
        writeFileSync(schemaFile, `${sql.join(';\n')};\n`);
      }
      log(`data-load: ${n} users, ${s.dataRuns} runs a side`);
      const r = await interleaved(
        { runs: s.dataRuns, warmup: 0 },
        () =>
          node('ref/load.js', [join(BENCH, 'ref/load.js'), dataFile, fresh(refDb), schemaFile], { timeoutMs: 300_000 }),
        () =>
          udcli(['sandbox', 'load', dataFile, '--db', fresh(loadedDb)], { stdoutFile: outFile, timeoutMs: 300_000 }),
      );
      // The same work: the same users and friendships in both databases.
      const { sqliteDriver } = await import('../dist/sandbox/sqlite-driver.js');
      const Database = sqliteDriver();
      const counts = (/** @type {string} */ p) => {
        const db = new Database(p, { readonly: true });
        try {
          return db
            .prepare('SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM friendships) AS friendships')
            .get();
        } finally {
          db.close();
        }
      };
      const [refCounts, udcliCounts] = [counts(refDb), counts(loadedDb)];
      if (!sameJson(refCounts, udcliCounts))
        throw new Error(
          `data-load: the reference wrote ${JSON.stringify(refCounts)}, udcli ${JSON.stringify(udcliCounts)}`,
        );
      const loadedMs = median(ms(r.udcli));
      rows.push(
        row({
          id: 'data-load',
          what: `udcli sandbox load (JSON, ${n.toLocaleString('en')} users, ${(n * 10).toLocaleString('en')} friendships)`,
          unit: 'ms',
          kind: 'time',
          refLabel: 'better-sqlite3 alone: JSON.parse, the same schema and inserts in one transaction, no checks',
          refSamples: ms(r.ref),
          udcliSamples: ms(r.udcli),
          target: { op: '<=', value: 1.5 },
          check: args.mode !== 'full' || loadedMs < 30_000,
          targetText: args.mode === 'full' ? '≤ 1.5× and < 30 s' : '≤ 1.5×',
        }),
      );

      // Peak RSS of exporting everything against exporting a tenth of it: flat means ~1×.
      const smallDb = join(root, 'small-data.db');
      const smallFile = join(root, 'small-data.json');
      const tenth = Math.max(1, Math.floor(n / 10));
      writeDataFile(smallFile, tenth);
      await udcli(['sandbox', 'load', smallFile, '--db', fresh(smallDb)], { stdoutFile: outFile });
      log(`data-export: peak RSS, ${n} vs ${tenth} users, ${s.dataRuns} runs a side`);
      const e = await interleaved(
        { runs: s.dataRuns, warmup: 0 },
        () => udcli(['sandbox', 'export', '--db', smallDb, '--format', 'json'], { stdoutFile: outFile, rssFile }),
        () =>
          udcli(['sandbox', 'export', '--db', loadedDb, '--format', 'json'], {
            stdoutFile: outFile,
            rssFile,
            timeoutMs: 300_000,
          }),
      );
      rows.push(
        row({
          id: 'data-export-rss',
          what: `udcli sandbox export peak RSS, ${n.toLocaleString('en')} vs ${tenth.toLocaleString('en')} users`,
          unit: 'MB',
          kind: 'memory',
          refLabel: `udcli @ ${tenth.toLocaleString('en')} users`,
          refSamples: e.ref.map((x) => (x.rssKB ?? NaN) / 1024),
          udcliSamples: e.udcli.map((x) => (x.rssKB ?? NaN) / 1024),
          target: { op: '<=', value: 1.2 },
          extra: { exportMs: median(ms(e.udcli)) },
        }),
      );
    }

    // --- batch: on loopback, and across a 40 ms round trip (`sandbox start --latency 40ms`)
    /**
     * The batch and its reference, side by side, against the sandbox at `url` whose request lines
     * go to `logFile`: the lines each run adds, over its users, are its requests per user.
     * @param {{ id: string, what: string, url: string, logFile: string, uids: string[], target: number, note: string }}
     * b
     */
    const batchRow = async (b) => {
      const n = b.uids.length;
      const file = join(root, `${b.id}-users.txt`);
      writeFileSync(file, `${b.uids.join('\n')}\n`);
      const refOut = join(root, `${b.id}-ref.ndjson`);
      const env = { ...udcliEnv, UDCLI_BASE_URL: b.url, UDCLI_SITE_URL: b.url };
      /** @type {{ read: number[], two: number[], udcli: number[] }} */
      const perUser = { read: [], two: [], udcli: [] };
      const counted = async (/** @type {'read' | 'two' | 'udcli'} */ side, /** @type {() => Promise<any>} */ run) => {
        const before = await logLines(b.logFile, s.logSettleMs);
        const result = await run();
        perUser[side].push(((await logLines(b.logFile, s.logSettleMs)) - before) / n);
        return result;
      };
      const script = (/** @type {'read-first' | 'two-request'} */ protocol) => () =>
        node(
          `ref/batch.js ${protocol}`,
          [
            join(BENCH, 'ref/batch.js'),
            b.url,
            demo.game.apiKey,
            demo.game.id,
            COUNTER,
            file,
            String(CONCURRENCY),
            protocol,
          ],
          { stdoutFile: refOut, rssFile },
        );
      const sides = {
        read: () => counted('read', script('read-first')),
        two: () => counted('two', script('two-request')),
        udcli: () =>
          counted('udcli', () =>
            udcli(['achievements', 'inc', `@${file}`, COUNTER, '--concurrency', String(CONCURRENCY)], {
              stdoutFile: outFile,
              rssFile,
              env,
            }),
          ),
      };
      log(`${b.id}: ${n} users at concurrency ${CONCURRENCY}, ${s.runs} runs of each of three sides (${b.note})`);
      // Warm-up (excluded), then the three interleaved: read-first script, udcli, two-request script.
      /** @type {{ read: any[], two: any[], udcli: any[] }} */
      const r = { read: [], two: [], udcli: [] };
      for (let i = 0; i < s.warmup + s.runs; i++) {
        const a = await sides.read();
        const u = await sides.udcli();
        const t = await sides.two();
        if (i < s.warmup) continue;
        r.read.push(a);
        r.udcli.push(u);
        r.two.push(t);
      }
      for (const k of /** @type {const} */ (['read', 'two', 'udcli'])) perUser[k] = perUser[k].slice(s.warmup);
      const okLines = readFileSync(outFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"status":"ok"')).length;
      if (okLines !== n) throw new Error(`${b.id}: udcli reported ${okLines} ok of ${n}`);
      const tput = (/** @type {{ ms: number }[]} */ xs) => xs.map((x) => (n * 1000) / x.ms);
      const rssOf = (/** @type {any[]} */ xs) => median(xs.map((x) => x.rssKB ?? NaN));
      const judged = row({
        id: b.id,
        what: b.what,
        unit: 'users/s',
        kind: 'throughput',
        refLabel:
          'undici script, the same requests: the read before the change beside the unsigned POST, the 401 challenge, the signed retry',
        refSamples: tput(r.read),
        udcliSamples: tput(r.udcli),
        target: { op: '>=', value: b.target },
        extra: {
          refPeakRssKB: rssOf(r.read),
          udcliPeakRssKB: rssOf(r.udcli),
          refRequestsPerUser: round(median(perUser.read), 2),
          udcliRequestsPerUser: round(median(perUser.udcli), 2),
        },
      });
      rows.push(judged);
      rows.push(
        row({
          id: `${b.id}-2req`,
          load: judged.load,
          what: `${b.what}, against the two-request protocol`,
          unit: 'users/s',
          kind: 'report',
          refLabel:
            "undici script, the SDK's two requests only (unsigned POST, signed retry), no read before the change",
          refSamples: tput(r.two),
          udcliSamples: tput(r.udcli),
          target: null,
          extra: {
            refPeakRssKB: rssOf(r.two),
            udcliPeakRssKB: rssOf(r.udcli),
            refRequestsPerUser: round(median(perUser.two), 2),
            udcliRequestsPerUser: round(median(perUser.udcli), 2),
          },
        }),
      );
    };
    if (wantsAny(['batch', 'batch-2req'])) {
      const n = seeded.batchUids.length;
      await batchRow({
        id: 'batch',
        what: `udcli achievements inc @FILE under agi (${n.toLocaleString('en')} users, concurrency ${CONCURRENCY})`,
        url: sandbox.url,
        logFile: sandboxLog,
        uids: seeded.batchUids,
        target: 0.85,
        note: 'loopback',
      });
    }
    if (wantsAny(['batch-latency', 'batch-latency-2req'])) {
      // Bound by round trips, as against the real platform: fewer users keep the row short.
      const uids = seeded.batchUids.slice(0, s.latencyUsers);
      const far = await startSandbox(['--latency', `${LATENCY_MS}ms`], 'sandbox-latency.log');
      await batchRow({
        id: 'batch-latency',
        what: `udcli achievements inc @FILE under agi, ${LATENCY_MS} ms a reply (${uids.length.toLocaleString('en')} users, concurrency ${CONCURRENCY})`,
        url: far.url,
        logFile: join(root, 'sandbox-latency.log'),
        uids,
        target: 0.9,
        note: `sandbox start --latency ${LATENCY_MS}ms`,
      });
    }

    // --- batch with --journal: the state read before each change is journaled (issue 13)
    if (wants('batch-journal')) {
      const n = seeded.batchUids.length;
      const file = join(root, 'users.txt');
      writeFileSync(file, `${seeded.batchUids.join('\n')}\n`);
      let k = 0;
      log(`batch-journal: ${n} users, with --journal (a new one each run) and without, ${s.runs} runs a side`);
      const args = ['achievements', 'inc', `@${file}`, COUNTER, '--concurrency', String(CONCURRENCY)];
      const r = await interleaved(
        { runs: s.runs, warmup: s.warmup },
        () => udcli(args, { stdoutFile: outFile }),
        () => udcli([...args, '--journal', join(root, `batch-${++k}.journal`)], { stdoutFile: outFile }),
      );
      const tput = (/** @type {{ ms: number }[]} */ xs) => xs.map((x) => (n * 1000) / x.ms);
      rows.push(
        row({
          id: 'batch-journal',
          what: `udcli achievements inc @FILE --journal (${n.toLocaleString('en')} users): the before-state journaled with each started record, fdatasync'ed`,
          unit: 'users/s',
          kind: 'throughput',
          refLabel: 'the same batch without --journal',
          refSamples: tput(r.ref),
          udcliSamples: tput(r.udcli),
          target: null,
        }),
      );
    }

    // --- resuming from a journal of finished items: memory stays flat with its size (issue 13)
    if (wants('journal-resume-rss')) {
      const big = s.resumeItems;
      const small = Math.round(big / 10);
      // The header udcli writes for this command on this target (a journal names both), taken from
      // a real run of it on one seeded user, so the resumes below are accepted as its own.
      const probeList = join(root, 'resume-probe.txt');
      const probeJournal = join(root, 'resume-probe.journal');
      writeFileSync(probeList, `${seeded.big.uid}\n`);
      await udcli(['achievements', 'inc', `@${probeList}`, COUNTER, '--journal', probeJournal], {
        stdoutFile: outFile,
      });
      const probeHeader = readFileSync(probeJournal, 'utf8').split('\n')[0];
      /** A list of `count` uids and a journal in which every one finished: a resume skips them all. */
      const finishedJournal = (/** @type {number} */ count) => {
        const list = join(root, `resume-${count}.txt`);
        const journal = join(root, `resume-${count}.journal`);
        const uid = (/** @type {number} */ i) => i.toString(16).padStart(32, '0');
        const header = { ...JSON.parse(probeHeader), created: new Date().toISOString() };
        const listOut = [];
        const journalOut = [JSON.stringify(header)];
        for (let i = 1; i <= count; i++) {
          listOut.push(uid(i));
          journalOut.push(
            JSON.stringify({ line: i, input: uid(i), uid: uid(i), status: 'ok', at: '2026-11-22T00:00:00.000Z' }),
          );
        }
        writeFileSync(list, `${listOut.join('\n')}\n`);
        writeFileSync(journal, `${journalOut.join('\n')}\n`);
        return ['achievements', 'inc', `@${list}`, COUNTER, '--journal', journal];
      };
      const bigArgs = finishedJournal(big);
      const smallArgs = finishedJournal(small);
      log(
        `journal-resume: peak RSS resuming ${big.toLocaleString('en')} finished items against ${small.toLocaleString('en')}, ${s.dataRuns} runs a side`,
      );
      const r = await interleaved(
        { runs: Math.max(1, s.dataRuns), warmup: 0 },
        () => udcli(smallArgs, { stdoutFile: outFile, rssFile, timeoutMs: 600_000 }),
        () => udcli(bigArgs, { stdoutFile: outFile, rssFile, timeoutMs: 600_000 }),
      );
      const skipped = readFileSync(outFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"status":"skipped"')).length;
      rows.push(
        row({
          id: 'journal-resume-rss',
          what: `udcli achievements inc @FILE --journal, resuming ${big.toLocaleString('en')} finished items (all skipped): peak RSS`,
          unit: 'MB',
          kind: 'memory',
          refLabel: `the same with ${small.toLocaleString('en')} finished items`,
          refSamples: r.ref.map((x) => (x.rssKB ?? NaN) / 1024),
          udcliSamples: r.udcli.map((x) => (x.rssKB ?? NaN) / 1024),
          target: { op: '<=', value: 1.2 },
          check: skipped === big,
          extra: { resumeMs: median(ms(r.udcli)), skipped },
        }),
      );
    }

    // --- the sandbox under load
    if (
      wantsAny([
        'sandbox-get',
        'ladder-fastify',
        'ladder-fastify-sqlite',
        'sandbox-get-floor',
        'sandbox-inc',
        'sandbox-agi-inc',
      ])
    ) {
      const { request } = await import('undici');
      const uid = seeded.big.uid;
      const getPath = `/services/rest/v1/users/${uid}.json?api_key=${demo.game.apiKey}`;
      const fetchText = async (/** @type {string} */ url, /** @type {'GET' | 'PUT'} */ method = 'GET') => {
        const res = await request(url, { method });
        const text = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`${method} ${url}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
        return text;
      };
      const counterValue = async () => {
        const q = `api_key=${demo.game.apiKey}&type=Game&pid=${demo.game.id}&developer_id=${COUNTER}`;
        const body = JSON.parse(await fetchText(`${sandbox.url}/services/rest/v1/achievements/user/${uid}.json?${q}`));
        const rec = (body.payload ?? []).find((/** @type {any} */ a) => a.developer_id === COUNTER);
        return rec ? Number(rec.current_value) : 0;
      };
      // A smoke run spawns the load generator once, which proves its command line, and runs the
      // other loads in this process (the same runLoad): each spawn costs more CPU loading undici
      // than its 25 ms of load. Full and quick runs spawn it for every load.
      const runLoad = args.mode === 'smoke' ? (await import('./loadgen.js')).runLoad : undefined;
      let loadgenSpawned = false;
      const loadgen = async (/** @type {import('./loadgen.js').LoadOptions} */ o) => {
        if (runLoad && loadgenSpawned) return runLoad(o);
        loadgenSpawned = true;
        return nodeJson([join(BENCH, 'loadgen.js'), JSON.stringify(o)], { timeoutMs: s.loadMs + 60_000 });
      };

      // The reference answers with the sandbox's own reply bytes.
      const getBody = join(root, 'get-body.json');
      writeFileSync(getBody, await fetchText(sandbox.url + getPath));
      const bareGet = await startServer(join(BENCH, 'bare-server.js'), [getBody]);
      servers.push(bareGet);
      const getLoad = (/** @type {string} */ url, /** @type {number} */ durationMs) =>
        loadgen({ url, path: getPath, connections: CONCURRENCY, durationMs });

      // The ladder under the sandbox's GET (issue 43): Fastify alone with the same reply, then
      // Fastify reading it by primary key with one better-sqlite3 SELECT, the floor of this design
      // (what a server on these two packages cannot go below); the sandbox is judged against the
      // bare server and against the floor, with every check of its own kept (the key, the Host,
      // CORS, the request log, limits).
      const fastifyBare = await startServer(join(BENCH, 'ref', 'fastify-server.js'), ['bare', getBody]);
      const fastifySqlite = await startServer(join(BENCH, 'ref', 'fastify-server.js'), ['sqlite', getBody]);
      servers.push(fastifyBare, fastifySqlite);
      for (const server of [fastifyBare, fastifySqlite]) {
        if ((await fetchText(server.url + getPath)) !== readFileSync(getBody, 'utf8'))
          throw new Error(`sandbox GET ladder: ${server.url} does not answer the sandbox's reply`);
      }
      log(`sandbox GET and its ladder: ${s.loadMs} ms a run, ${CONCURRENCY} connections, ${s.runs} runs a side`);
      if (s.loadWarmMs > 0) {
        for (const url of [bareGet.url, sandbox.url, fastifyBare.url, fastifySqlite.url])
          await getLoad(url, s.loadWarmMs);
      }
      const bareLabel = 'bare node:http, fixed JSON';
      const floorLabel = 'Fastify + one better-sqlite3 SELECT, the same reply';
      /**
       * A row measured as two servers side by side: the one below (the reference) and the one above.
       * @typedef {[id: string, what: string, below: string, refLabel: string, above: string, min: number | null]} Pair
       */
      /** @type {Pair[]} */
      const pairs = [
        ['sandbox-get', 'sandbox GET users/{uid}.json', bareGet.url, bareLabel, sandbox.url, 0.6],
        ['ladder-fastify', 'bare Fastify, the same reply from memory', bareGet.url, bareLabel, fastifyBare.url, null],
        [
          'ladder-fastify-sqlite',
          'Fastify + one better-sqlite3 SELECT of the same reply by primary key',
          bareGet.url,
          bareLabel,
          fastifySqlite.url,
          null,
        ],
        [
          'sandbox-get-floor',
          'sandbox GET users/{uid}.json against the floor of its design',
          fastifySqlite.url,
          floorLabel,
          sandbox.url,
          0.7,
        ],
      ];
      for (const [id, what, below, refLabel, above, target] of pairs) {
        const r = await interleaved(
          { runs: s.runs, warmup: 0 },
          () => getLoad(below, s.loadMs),
          () => getLoad(above, s.loadMs),
        );
        const failed = [...r.ref, ...r.udcli].find((x) => x.errors + x.non2xx > 0);
        if (failed) throw new Error(`${id}: ${failed.errors} errors, ${failed.non2xx} non-2xx (${failed.firstError})`);
        rows.push(
          row({
            id,
            what: `${what} (${CONCURRENCY} connections)`,
            unit: 'req/s',
            kind: target === null ? 'report' : 'throughput',
            refLabel,
            refSamples: r.ref.map((x) => x.rps),
            udcliSamples: r.udcli.map((x) => x.rps),
            target: target === null ? null : { op: '>=', value: target },
          }),
        );
      }

      const incOptions = {
        apiKey: demo.game.apiKey,
        secret: demo.game.signingSecret,
        gameId: demo.game.id,
        developerId: COUNTER,
        uid,
      };
      const incBody = join(root, 'inc-body.json');
      writeFileSync(
        incBody,
        JSON.stringify({
          code: 200,
          message: 'OK',
          payload: {
            state: 'In Progress',
            current_value: 1,
            percent_complete: 0,
            completed_date: '0000-00-00 00:00:00',
            developer_id: COUNTER,
          },
        }),
      );
      const bareInc = await startServer(join(BENCH, 'bare-server.js'), [incBody]);
      servers.push(bareInc);
      const incLoad = (/** @type {string} */ url, /** @type {number} */ durationMs) =>
        loadgen({ url, mode: 'inc', inc: incOptions, connections: CONCURRENCY, durationMs });
      log(`sandbox increments: ${s.loadMs} ms a run, ${CONCURRENCY} clients, ${s.runs} runs a side`);
      /** @type {Array<{ before: number, after: number, ok: number }>} */
      const exact = [];
      const sandboxInc = async (/** @type {number} */ durationMs) => {
        const before = await counterValue();
        const res = await incLoad(sandbox.url, durationMs);
        const after = await counterValue();
        exact.push({ before, after, ok: res.ok });
        return res;
      };
      if (s.loadWarmMs > 0) {
        await incLoad(bareInc.url, s.loadWarmMs);
        await sandboxInc(s.loadWarmMs);
      }
      const inc = await interleaved(
        { runs: s.runs, warmup: 0 },
        () => incLoad(bareInc.url, s.loadMs),
        () => sandboxInc(s.loadMs),
      );
      const incBad = [...inc.ref, ...inc.udcli].find((x) => x.errors + x.non2xx > 0);
      if (incBad)
        throw new Error(`sandbox increments: ${incBad.errors} errors, ${incBad.non2xx} non-2xx (${incBad.firstError})`);
      const allExact = exact.every((e) => e.after - e.before === e.ok);
      const last = /** @type {{ before: number, after: number, ok: number }} */ (exact.at(-1));
      rows.push(
        row({
          id: 'sandbox-inc',
          what: `sandbox signed increments (${CONCURRENCY} concurrent clients, one counter)`,
          unit: 'inc/s',
          kind: 'report',
          refLabel: 'bare node:http, fixed JSON',
          refSamples: inc.ref.map((x) => x.rps),
          udcliSamples: inc.udcli.map((x) => x.rps),
          target: null,
          check: allExact,
          targetText: 'report; final value exact',
          extra: {
            finalValue: last.after,
            expectedFinalValue: last.before + last.ok,
            runsExact: exact.filter((e) => e.after - e.before === e.ok).length,
            runs: exact.length,
          },
        }),
      );

      // The platform SDK's increment: unsigned POST, the 401 challenge, the agi-signed POST. The
      // reference answers both with the sandbox's own reply bytes (bare-server.js, nothing checked).
      const agiPath = `/services/rest/v1/achievements/user/${uid}.json`;
      const agiParams = /** @type {Array<[string, string]>} */ ([
        ['api_key', demo.game.apiKey],
        ['type', 'Game'],
        ['pid', demo.game.id],
        ['developer_id', COUNTER],
        ['increment', '1'],
        ['method', 'put'],
      ]);
      const [{ agiSignature }, { rfc3986 }] = await Promise.all([
        import('../dist/domain/agi-signing.js'),
        import('../dist/domain/signing.js'),
      ]);
      const agiPost = async (/** @type {Array<[string, string]>} */ params) => {
        const res = await request(
          `${sandbox.url}${agiPath}?${params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&')}`,
          {
            method: 'POST',
            headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          },
        );
        return { status: res.statusCode, text: await res.body.text() };
      };
      const challengeReply = await agiPost(agiParams);
      const { session, key } = JSON.parse(challengeReply.text).payload ?? {};
      if (challengeReply.status !== 401 || !session || !key)
        throw new Error(
          `sandbox agi: the unsigned POST got HTTP ${challengeReply.status}, not the challenge: ${challengeReply.text.slice(0, 200)}`,
        );
      const signedReply = await agiPost([
        ...agiParams,
        ['session', session],
        ['sig', agiSignature({ path: agiPath, query: agiParams, session, key })],
      ]);
      if (signedReply.status !== 200)
        throw new Error(
          `sandbox agi: the signed POST got HTTP ${signedReply.status}: ${signedReply.text.slice(0, 200)}`,
        );
      const agiBody = join(root, 'agi-body.json');
      const agiChallenge = join(root, 'agi-challenge.json');
      writeFileSync(agiBody, signedReply.text);
      writeFileSync(agiChallenge, challengeReply.text);
      const bareAgi = await startServer(join(BENCH, 'bare-server.js'), [agiBody, agiChallenge]);
      servers.push(bareAgi);
      const agiLoad = (/** @type {string} */ url, /** @type {number} */ durationMs) =>
        loadgen({ url, mode: 'agi', inc: incOptions, connections: CONCURRENCY, durationMs });
      log(`sandbox agi increments: ${s.loadMs} ms a run, ${CONCURRENCY} clients, ${s.runs} runs a side`);
      /** @type {Array<{ before: number, after: number, ok: number }>} */
      const agiExact = [];
      const sandboxAgi = async (/** @type {number} */ durationMs) => {
        const before = await counterValue();
        const res = await agiLoad(sandbox.url, durationMs);
        const after = await counterValue();
        agiExact.push({ before, after, ok: res.ok });
        return res;
      };
      if (s.loadWarmMs > 0) {
        await agiLoad(bareAgi.url, s.loadWarmMs);
        await sandboxAgi(s.loadWarmMs);
      }
      const agi = await interleaved(
        { runs: s.runs, warmup: 0 },
        () => agiLoad(bareAgi.url, s.loadMs),
        () => sandboxAgi(s.loadMs),
      );
      const agiBad = [...agi.ref, ...agi.udcli].find((x) => x.errors + x.non2xx > 0);
      if (agiBad)
        throw new Error(
          `sandbox agi increments: ${agiBad.errors} errors, ${agiBad.non2xx} failed exchanges (${agiBad.firstError})`,
        );
      const agiLast = /** @type {{ before: number, after: number, ok: number }} */ (agiExact.at(-1));
      rows.push(
        row({
          id: 'sandbox-agi-inc',
          what: `sandbox agi increments as the platform SDK makes them: unsigned POST, 401 challenge, signed POST (${CONCURRENCY} concurrent clients, one counter)`,
          unit: 'changes/s',
          kind: 'throughput',
          refLabel: 'bare node:http, the same two fixed replies',
          refSamples: agi.ref.map((x) => x.rps),
          udcliSamples: agi.udcli.map((x) => x.rps),
          // Issue 43: at least a fifth of a server that only hands back the two replies.
          target: { op: '>=', value: 0.2 },
          check: agiExact.every((e) => e.after - e.before === e.ok),
          targetText: '≥ 0.2×; final value exact',
          extra: {
            finalValue: agiLast.after,
            expectedFinalValue: agiLast.before + agiLast.ok,
            runsExact: agiExact.filter((e) => e.after - e.before === e.ok).length,
            runs: agiExact.length,
          },
        }),
      );
    }

    // Issue 30: sandbox diff of a big recording (bench/har-diff.js).
    if (wants('har-diff'))
      rows.push(row(await benchHarDiff({ mode: args.mode, root, runs: Math.min(s.runs, 3), log, interleaved })));

    // Issue 40, 7: hmac-sha256-v1's used signatures in the database at 2,000 changes a second
    // (bench/used-signatures.js).
    if (wants('sandbox-signatures'))
      rows.push(row(await benchUsedSignatures({ mode: args.mode, root, runs: Math.min(s.runs, 3), log, interleaved })));
    // Issue 39 (bench/node.js): the sandbox under forced GC, load and resets, and npm ci, on each Node.
    const soakRow = (
      /** @type {string} */ id,
      /** @type {string} */ version,
      /** @type {Awaited<ReturnType<typeof gcSoak>>} */ r,
    ) =>
      row({
        id,
        what: `sandbox under load for ${s.soakMs / 1000} s, a live reset every second, a forced GC every 200 ms (Node ${version})`,
        unit: 'req/s',
        kind: 'report',
        refLabel: 'the same sandbox and load, no resets (up to 10 s, before)',
        refSamples: [r.plain.rps],
        udcliSamples: [r.soaked.rps],
        target: null,
        check: r.check,
        targetText: 'report; still serving at the end, every reset 200, no failed request',
        extra: {
          resets: r.resets.ok,
          failedResets: r.resets.failed,
          requests: r.soaked.requests,
          failedRequests: r.soaked.errors + r.soaked.non2xx,
          survived: r.survived,
          exit: r.exit,
        },
      });
    if (wants('gc-soak')) {
      rows.push(
        soakRow(
          'gc-soak',
          process.versions.node,
          await gcSoak({
            node: process.execPath,
            root: ROOT,
            soakMs: s.soakMs,
            work: mkdtempSync(join(root, 'soak-')),
            log,
          }),
        ),
      );
    }
    const nodesOn =
      args.mode !== 'smoke' || (args.only ?? []).some((p) => p.startsWith('node') || p.startsWith('gc-soak-'));
    if (nodesOn) {
      const thisMajor = Number(process.versions.node.split('.')[0]);
      for (const major of [20, 22, 24, 26]) {
        const ciId = `node-ci-${major}`;
        const soakId = `gc-soak-node${major}`;
        const soakHere = major >= 24 && wants(soakId);
        if (!wants(ciId) && !soakHere) continue;
        const runtime =
          major === thisMajor ? { node: process.execPath, version: process.versions.node } : registryNode(major, log);
        const clone = scratchClone(root);
        try {
          log(`${ciId}: npm ci of this clone on Node ${runtime.version}, once, beside npm ci --ignore-scripts`);
          const ci = await npmCi(runtime, clone.dir, 1);
          if (wants(ciId)) {
            rows.push(
              row({
                id: ciId,
                what: `npm ci on Node ${runtime.version} (SQLite driver: better-sqlite3 ${ci.driver || 'none'})`,
                unit: 'ms',
                kind: 'report',
                refLabel: 'npm ci --ignore-scripts (download and unpack only)',
                refSamples: ci.floor,
                udcliSamples: ci.whole,
                target: null,
                check: major < 22 || (ci.compilerCalls === '' && median(ci.whole) < 45_000),
                targetText: major < 22 ? 'report (compiles better-sqlite3 12)' : 'no compiler called; < 45 s',
                extra: { compilerCalls: ci.compilerCalls || 'none', driver: ci.driver },
              }),
            );
          }
          if (soakHere)
            rows.push(
              soakRow(
                soakId,
                runtime.version,
                await gcSoak({
                  node: runtime.node,
                  root: clone.dir,
                  soakMs: s.soakMs,
                  work: mkdtempSync(join(root, 'soak-')),
                  log,
                }),
              ),
            );
        } finally {
          clone.remove();
        }
      }
    }

    // The sandbox beside the mock servers a studio would otherwise run (bench/mocks.js): they
    // are installed from the npm registry at bench time, so a --smoke run (npm test) leaves them
    // out unless asked for by --mocks or --only mock.
    const mocksOn = args.mocks ?? (args.mode !== 'smoke' || (args.only ?? []).some((p) => p.startsWith('mock')));
    if (mocksOn && MOCK_IDS.some((id) => wants(`mock-${id}`))) {
      // At most 5 start-ups a server: a JVM or Prism takes seconds to start, and 5 runs give quartiles.
      const specs = await benchMocks({
        runs: Math.min(s.runs, 5),
        loadMs: s.loadMs,
        loadWarmMs: s.loadWarmMs,
        connections: CONCURRENCY,
        root,
        mocksDir: args.mocksDir,
        wants,
      });
      /** @type {any} */
      let firstRow;
      for (const spec of specs) {
        const r = row(firstRow ? { ...spec, load: firstRow.load } : spec);
        firstRow ??= r;
        rows.push(r);
      }
    }

    const totalMs = round(performance.now() - t0, 0);
    const results = {
      mode: args.mode,
      ...(args.only || args.runs
        ? { options: { ...(args.only ? { only: args.only } : {}), ...(args.runs ? { runs: args.runs } : {}) } }
        : {}),
      date: new Date().toISOString(),
      machine: {
        node: process.version,
        platform: process.platform,
        arch: process.arch,
        cpus: cpus().length,
        cpuModel: cpus()[0]?.model ?? '',
        loadavg: loadavg().map((x) => round(x, 2)),
      },
      settings: { ...s, concurrency: CONCURRENCY },
      setup,
      totalMs,
      rows,
    };
    const beforePath = args.before ?? (args.mode === 'full' ? join(BENCH, 'results-before.json') : undefined);
    const before = beforePath && existsSync(beforePath) ? JSON.parse(readFileSync(beforePath, 'utf8')) : null;
    writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(outDir, 'results.md'), markdown(results, before));
    log(
      `done in ${(totalMs / 1000).toFixed(1)} s: ${rows.filter((r) => r.pass).length}/${rows.length} pass; wrote ${join(outDir, 'results.md')} and results.json`,
    );
    for (const r of rows)
      log(
        `  ${r.pass ? 'pass' : 'MISS'}  ${r.id.padEnd(18)} ratio ${r.ratio}  (${r.targetText})${r.load?.underLoad ? `  measured under load (others ${r.load.othersCores} cores)` : ''}${r.extra?.skipped ? `  ${r.extra.skipped}` : ''}`,
      );
    return 0;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.allSettled(servers.map((x) => x.stop()));
    cleanup();
  }
}

// ---------------------------------------------------------------- results.md

/** @param {number} x */
function fmt(x) {
  if (!Number.isFinite(x)) return 'n/a';
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en');
  if (Math.abs(x) >= 100) return x.toFixed(0);
  if (Math.abs(x) >= 10) return x.toFixed(1);
  return x.toFixed(2);
}

/**
 * @param {any} results
 * @param {any} before  an earlier results.json, or null
 */
function markdown(results, before) {
  const m = results.machine;
  const lines = [
    '# udcli benchmarks',
    '',
    `Generated by \`node bench/run.js${results.mode === 'full' ? '' : ` --${results.mode}`}${results.options?.runs ? ` --runs ${results.options.runs}` : ''}${results.options?.only ? ` --only ${results.options.only.join(',')}` : ''}\` on ${results.date.slice(0, 16).replace('T', ' ')} UTC — node ${m.node}, ${m.cpus} × ${m.cpuModel}, load average ${m.loadavg.join(' ')}.`,
    `Medians of ${results.settings.runs} runs (start-up and one-shot rows: ${results.settings.startupRuns}) after ${results.settings.warmup} warm-up runs a side; reference and udcli interleaved (ABAB). Whole processes timed from spawn to exit; peak RSS from getrusage in the child.`,
    'Absolute numbers are this machine on this day; only the ratios are judged.',
    '',
    'Each side: the median, then the spread of its measured runs (p25–p75 with 4 runs or more, min–max below) and their number.',
    '"load": the 1-minute load average as the row began → ended, and the CPU other processes took meanwhile (in cores; the bench\'s own processes are not counted, bench/lib/load-monitor.js).',
    `A row during which other processes took more than a quarter of the machine is marked **measured under load**: its ratio says little, whichever way it went.`,
    '',
    '| what | reference | udcli | ratio | target | | load |',
    '|---|---|---|---|---|---|---|',
  ];
  const side = (/** @type {any} */ x, /** @type {string} */ unit) => {
    const n = x.runs ?? x.samples?.length ?? 0;
    if (!x.spread || n < 2) return `${fmt(x.median)} ${unit}${n ? ` (n=${n})` : ''}`;
    const [lo, hi] = n >= 4 ? [x.spread.p25, x.spread.p75] : [x.spread.min, x.spread.max];
    return `${fmt(x.median)} ${unit} (${fmt(lo)}–${fmt(hi)}, n=${n})`;
  };
  const loadCell = (/** @type {any} */ r) => {
    if (!r.load) return r.load1 === undefined ? '' : fmt(r.load1);
    const others = r.load.othersCores === null ? '' : `; others ${fmt(r.load.othersCores)} cores`;
    return `${fmt(r.load.load1.start)} → ${fmt(r.load.load1.end)}${others}`;
  };
  const verdict = (/** @type {any} */ r) => {
    const under = r.load?.underLoad ? ', measured under load' : '';
    return r.pass ? `pass${under}` : `**miss**${under}`;
  };
  const isMock = (/** @type {any} */ r) => String(r.id).startsWith('mock-');
  for (const r of results.rows.filter((/** @type {any} */ x) => !isMock(x))) {
    lines.push(
      `| ${r.what} | ${side(r.reference, r.unit)} (${r.reference.label}) | ${side(r.udcli, r.unit)} | ${fmt(r.ratio)}× | ${r.targetText} | ${verdict(r)} | ${loadCell(r)} |`,
    );
  }
  lines.push('');
  const notes = [];
  for (const r of results.rows) {
    if (r.id === 'friends-time' && r.extra)
      notes.push(
        `- friends: peak RSS ${fmt(r.extra.udcliPeakRssKB / 1024)} MB (udcli) vs ${fmt(r.extra.refPeakRssKB / 1024)} MB (reference script).`,
      );
    if (r.id === 'friends-rss' && r.extra)
      notes.push(
        `- friends RSS: the reference script itself goes from ${fmt(r.extra.referenceScriptRssMB.small)} to ${fmt(r.extra.referenceScriptRssMB.big)} MB.`,
      );
    if (['batch', 'batch-latency', 'batch-2req', 'batch-latency-2req'].includes(r.id) && r.extra) {
      notes.push(
        `- ${r.id}: peak RSS ${fmt(r.extra.udcliPeakRssKB / 1024)} MB (udcli) vs ${fmt(r.extra.refPeakRssKB / 1024)} MB (reference script); requests per user ${r.extra.udcliRequestsPerUser} (udcli: the read before the change, the unsigned POST, the signed POST) vs ${r.extra.refRequestsPerUser} (reference), counted in the sandbox's request lines.`,
      );
    }
    if (r.extra?.dependencies) {
      const d = r.extra.dependencies;
      notes.push(
        d.same
          ? `- ${r.id}: udcli and its reference load the same packages (${d.packages.join(', ') || 'none'}) and node: built-ins (checked by tracing one run of each); udcli loads ${d.udcliModuleFiles} module files, the reference ${d.referenceModuleFiles}.`
          : `- ${r.id}: **the reference does not load what udcli loads** (udcli only: ${d.udcliOnly.join(', ') || '—'}; reference only: ${d.referenceOnly.join(', ') || '—'}): the row is marked a miss until its reference is brought in line.`,
      );
    }
    if (r.id === 'embedded' && r.extra)
      notes.push(
        `- embedded: the first command (no database yet: it is created and seeded, the sandbox started in the background) took ${fmt(r.extra.firstCommandMs)} ms; the runs compared are the commands after it.`,
      );
    if (r.id === 'sandbox-inc' && r.extra)
      notes.push(
        `- sandbox increments: counter exact after ${r.extra.runsExact} of ${r.extra.runs} runs (last: ${r.extra.finalValue}, expected ${r.extra.expectedFinalValue}); the ratio is reported, not judged.`,
      );
    if (r.id === 'sandbox-agi-inc' && r.extra)
      notes.push(
        `- sandbox agi increments (two requests per change): counter exact after ${r.extra.runsExact} of ${r.extra.runs} runs (last: ${r.extra.finalValue}, expected ${r.extra.expectedFinalValue}); the ratio is reported, not judged.`,
      );
  }
  notes.push(
    `- setup: seeding ${results.settings.bigFriends.toLocaleString('en')} + ${results.settings.smallFriends.toLocaleString('en')} users took ${results.setup.seedMs} ms; the whole run ${(results.totalMs / 1000).toFixed(1)} s.`,
  );
  lines.push('Notes:', '', ...notes, '');
  lines.push(...mockSection(results.rows.filter(isMock), side, loadCell));
  lines.push('Samples (every measured run) are in results.json.', '');

  if (before) {
    lines.push('## Before / after', '');
    lines.push(
      `Ratios of the run before the fixes (${String(before.date).slice(0, 16).replace('T', ' ')} UTC, bench/results-before.json) and of this run.`,
      '',
    );
    lines.push('| what | before: ratio (udcli) | after: ratio (udcli) | target |', '|---|---|---|---|');
    const cell = (/** @type {any} */ x) =>
      `${fmt(x.ratio)}× (${fmt(x.udcli.median)} ${x.unit})${x.pass ? '' : ' **miss**'}`;
    for (const r of results.rows) {
      const b = before.rows.find((/** @type {any} */ x) => x.id === r.id);
      lines.push(`| ${r.what} | ${b ? cell(b) : '—'} | ${cell(r)} | ${r.targetText} |`);
    }
    lines.push('');
    const changes = join(BENCH, 'CHANGES.md');
    if (existsSync(changes)) lines.push(readFileSync(changes, 'utf8').trim(), '');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The mock-server rows (bench/mocks.js) as their own table: start-up, GET req/s and peak RSS of
 * the sandbox and of each mock server.
 * @param {any[]} mockRows
 * @param {(x: any, unit: string) => string} side
 * @param {(r: any) => string} loadCell
 */
function mockSection(mockRows, side, loadCell) {
  if (mockRows.length === 0) return [];
  const stat = (/** @type {number[]} */ xs, /** @type {string} */ unit) => {
    const ok = xs.filter((x) => typeof x === 'number' && Number.isFinite(x));
    if (ok.length === 0) return '—';
    return side(
      {
        median: median(ok),
        spread: { p25: quantile(ok, 0.25), p75: quantile(ok, 0.75), min: Math.min(...ok), max: Math.max(...ok) },
        runs: ok.length,
      },
      unit,
    );
  };
  const first = mockRows[0];
  const lines = [
    '## The sandbox beside the mock servers',
    '',
    "The same GET (users/{uid}.json of the demo user, with its api_key) to `udcli sandbox start` and to the mock servers a studio would otherwise run, each given an equivalent route that answers with the sandbox's own reply; the same load generator (bench/loadgen.js, 16 connections); each server started afresh for every run (bench/mocks.js). Start-up: from spawning the server to its first 200 reply. Peak RSS: VmHWM of the server's processes. Reported, not judged: the sandbox checks the key and reads SQLite, a mock matches a path.",
    '',
    '| server | version | route | start-up to first reply | GET req/s | peak RSS | load |',
    '|---|---|---|---|---|---|---|',
    `| udcli sandbox start | this build | the sandbox's own, on its demo database | ${stat(first.extra.startupMs.sandbox, 'ms')} | ${side(first.udcli, 'req/s')} | ${stat(first.extra.peakRssMB.sandbox, 'MB')} | ${loadCell(first)}${first.load?.underLoad ? ', measured under load' : ''} |`,
  ];
  for (const r of mockRows) {
    const x = r.extra;
    if (x.skipped) {
      lines.push(`| ${x.name} | ${x.version ?? '—'} | ${x.route} | ${x.skipped} | — | — | |`);
      continue;
    }
    const shape = x.samePayloadShape
      ? x.extraKeys.length
        ? ` (its reply adds ${x.extraKeys.map((/** @type {string} */ k) => `\`${k}\``).join(', ')})`
        : ''
      : ' (**its reply differs in shape**)';
    lines.push(
      `| ${x.name} | ${x.version} | ${x.route}${shape} | ${stat(x.startupMs.mock, 'ms')} | ${side(r.reference, 'req/s')} | ${stat(x.peakRssMB.mock, 'MB')} | |`,
    );
  }
  lines.push('');
  return lines;
}

// ---------------------------------------------------------------- entry

/**
 * --render: writes results.md again from results.json (and the before file), e.g. after
 * editing bench/CHANGES.md, without measuring anything.
 * @param {ReturnType<typeof parseArgs>} args
 */
function render(args) {
  const dir = args.out ?? BENCH;
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  const beforePath = args.before ?? (results.mode === 'full' ? join(BENCH, 'results-before.json') : undefined);
  const before = beforePath && existsSync(beforePath) ? JSON.parse(readFileSync(beforePath, 'utf8')) : null;
  writeFileSync(join(dir, 'results.md'), markdown(results, before));
  log(`wrote ${join(dir, 'results.md')}`);
  return 0;
}

const args = parseArgs(process.argv.slice(2));
try {
  if (args.render) {
    process.exitCode = render(args);
  } else {
    process.exitCode = await main(args);
  }
} catch (error) {
  process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
}
