/**
 * What every row is handed (BenchContext): the mode's sizes, one seeded database and one running
 * sandbox shared by all rows, runners for udcli and for a reference script, and `report`, which
 * turns a row's samples into its row of the results with the machine's load while it ran.
 * Set up once a bench run; `close` stops every server and removes every temporary file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { COUNTER } from './options.js';
import { cleanEnv, killAll, mustRun, startCliSandbox } from './proc.js';
import { buildRow } from './row.js';
import { interleaved, round } from './stats.js';

/** @typedef {Parameters<typeof import('./proc.js').timedNode>[1]} RunOptions */
/** @typedef {typeof import('./options.js').SETTINGS.full} Settings */

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH = join(ROOT, 'bench');
export const BIN = join(ROOT, 'bin', 'udcli.js');

/** @param {string} msg */
export function log(msg) {
  process.stderr.write(`bench: ${msg}\n`);
}

/**
 * Seeds one temp database with two hub users (big and small friend lists) and a counter
 * achievement whose target no bench reaches, so every increment writes.
 * @param {string} dbPath
 * @param {{ bigFriends: number, smallFriends: number, batchUsers: number }} s
 */
async function seedDatabase(dbPath, s) {
  const [{ openDatabase }, { seedGenerated }, { DEMO }] = await Promise.all([
    import('../../dist/sandbox/database.js'),
    import('../../dist/sandbox/seed/generated.js'),
    import('../../dist/domain/demo.js'),
  ]);
  const db = openDatabase(dbPath);
  try {
    const hub = (/** @type {number} */ n, /** @type {string} */ seed) =>
      seedGenerated(db, { users: n, friends: n, achievements: 0, products: 0, seed }).hub;
    const big = hub(s.bigFriends, 'big');
    const small = hub(s.smallFriends, 'small');
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
    return { big, small, batchUids: /** @type {string[]} */ (batchUids), demo: DEMO };
  } finally {
    db.close();
  }
}

/**
 * @param {object} o
 * @param {ReturnType<typeof import('./options.js').parseArgs>} o.args
 * @param {Settings} o.s
 * @param {ReturnType<typeof import('./load-monitor.js').startLoadMonitor>} o.monitor
 */
export async function openBench({ args, s, monitor }) {
  const root = mkdtempSync(join(tmpdir(), 'udcli-bench-'));
  /** @type {Array<{ stop: () => Promise<void> }>} */
  const servers = [];
  /** @type {Array<() => unknown>} */
  const onClose = [];
  /** @type {any[]} */
  const rows = [];
  /** @type {Record<string, unknown>} */
  const setup = {};
  /** @type {Map<string, Promise<unknown>>} */
  const shared = new Map();
  const wants = (/** @type {string} */ id) => !args.only || args.only.some((p) => id.startsWith(p));
  let closed = false;
  /** Stops what the rows started and removes the temp dir; also what a signal calls, so it runs once. */
  const kill = () => {
    if (closed) return;
    closed = true;
    for (const f of onClose.splice(0)) f();
    killAll();
    rmSync(root, { recursive: true, force: true });
  };

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
   * Another `udcli sandbox start` on the bench's database, e.g. with ['--latency', '40ms'].
   * @param {string[]} extraArgs @param {string} logName
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

  const ctx = {
    args,
    /** The mode's sizes and run counts (options.js SETTINGS, with --runs and --soak-ms applied). */
    s,
    mode: args.mode,
    /** A temporary directory for the run's files, removed at the end. */
    root,
    log,
    interleaved,
    /** Whether --only names this row id (by prefix); every id when there is no --only. */
    wants,
    seeded,
    demo,
    /** The bench's database, and the running `udcli sandbox start` on it with its request log. */
    dbPath,
    sandbox,
    sandboxLog,
    startSandbox,
    /** The environment udcli runs in against the bench's sandbox (the demo game's key and secret). */
    udcliEnv,
    outFile: join(root, 'out.txt'),
    rssFile: join(root, 'rss.txt'),
    /** Runs the built udcli, timed whole; a non-zero exit throws. */
    udcli: (/** @type {string[]} */ argv, /** @type {RunOptions} */ o = {}) =>
      mustRun(`udcli ${argv.join(' ')}`, [BIN, ...argv], { env: udcliEnv, ...o }),
    /** Runs a reference under node, timed whole; a non-zero exit throws. */
    node: (/** @type {string} */ label, /** @type {string[]} */ argv, /** @type {RunOptions} */ o = {}) =>
      mustRun(label, argv, { env: cleanEnv(), ...o }),
    /** Stops this server when the run ends. @param {{ stop: () => Promise<void> }} server */
    keep: (server) => {
      servers.push(server);
      return server;
    },
    /** Calls `f` when the run ends, also on failure or Ctrl-C. @param {() => unknown} f */
    onClose: (f) => onClose.push(f),
    /**
     * One value shared by the rows that ask for it under the same key, made by the first.
     * @template T @param {string} key @param {() => Promise<T>} make @returns {Promise<T>}
     */
    once: (key, make) => {
      if (!shared.has(key)) shared.set(key, make());
      return /** @type {Promise<T>} */ (shared.get(key));
    },
    /**
     * A row of the results, with the machine's load since the row before (or `spec.load`).
     * @param {import('./row.js').RowSpec} spec
     */
    report: (spec) => {
      const r = buildRow(spec, spec.load ?? monitor.window());
      rows.push(r);
      return r;
    },
    rows,
    setup,
  };
  return {
    ctx,
    kill,
    close: async () => {
      await Promise.allSettled(servers.map((x) => x.stop()));
      kill();
    },
  };
}

/** @typedef {Awaited<ReturnType<typeof openBench>>['ctx']} BenchContext */
