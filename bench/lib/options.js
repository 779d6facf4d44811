/**
 * The bench's command line (`node bench/run.js --help`) and the sizes of each mode.
 */

/** @param {string[]} argv */
export function parseArgs(argv) {
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

export const USAGE = `usage: node bench/run.js [--quick | --smoke] [--runs N] [--out DIR] [--only ROWS] [--before FILE] [--render]
                         [--mocks | --no-mocks] [--mocks-dir DIR] [--soak-ms N]
  (default) full run, writes results.md and results.json into bench/out/ (not tracked by git)
  --quick   fewer runs, smaller sizes
  --smoke   tiny sizes, one run each, writes into a temp dir (or --out DIR)
  --out DIR where results.md and results.json go
  --before FILE
            an earlier results.json: results.md gets a before/after table of the ratios
  --runs N  measured runs a row (and warm-up runs: none below 3), whatever the mode
  --only    rows by id prefix, comma-separated: startup, user, list, inc, embedded, friends,
            data, batch, journal, sandbox (sandbox-signatures too), har-diff, gc-soak, node (node-ci-20 ... node-ci-26,
            gc-soak-node24, gc-soak-node26), mock (mock-prism, mock-json-server, ...)
  --soak-ms N
            how long the gc-soak rows load the sandbox (default: 5 minutes; quick 30 s, smoke 0.3 s)
  --render  only write results.md again from results.json (of --out DIR, default bench/out/)
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

export const SETTINGS = {
  // runs: measured runs a row (≥ 5), warmup: excluded runs a side, startupRuns: the cheap rows
  // (start-up, and the one-shot commands: a tenth of a second each, whose medians of 7 moved by
  // ±10% from one full run to the next on this machine)
  // dataUsers: users of the generated data file (10 friendships each, ~1,000,000 in the full run);
  // dataRuns: runs a side of the data rows (a full load takes ~15 s)
  // resumeItems: finished items of the big journal of the resume row (the reference: a tenth)
  // logSettleMs: how long after a batch side's last reply its sandbox's request lines are read
  // soakPlainMs: the gc-soak rows' load with no resets before the soak (at most soakMs)
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
    soakPlainMs: 10_000,
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
    soakPlainMs: 10_000,
    logSettleMs: 100,
  },
  // smoke (npm test): each row runs and prints numbers, not meaningful ones. The big hub's 600
  // friends are still two pages of 500 (the paging loop turns), the small hub's 60 its tenth; the
  // data file's 200 users (20 in its tenth) still have ten friends each but the last ten. Batches
  // still have more users than the 16 in flight at once; a load of 25 ms still answers dozens of requests on
  // every connection; a soak of 300 ms still spans a forced GC (every 200 ms) and a live reset (the
  // first comes at once), and the 25 ms of plain load before it (a load as above) give the soak's
  // reference a rate. The sandbox writes a reply's request line 20 ms after it queued the first
  // of its batch (LINE_FLUSH_MS, src/sandbox/http/request-log.ts): 60 ms leave it room. The resume
  // row's 200 finished items (20 for its reference) are still each read from the journal and
  // skipped (the row counts them). Smoke sizes kept beside their rows: HAR_ENTRIES (har-diff),
  // SIGNATURE_RATES (used-signatures.js), SMOKE_CHANGES (sandbox-in-tests). Past these sizes a smoke
  // row's CPU is its processes' start-up: each side runs one, set-up and clean-up that are not
  // measured run in the bench's process (lib/in-process.js). batch-latency still starts its own
  // sandbox with --latency: the smoke run proves that path runs.
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
    resumeItems: 200,
    soakMs: 300,
    soakPlainMs: 25,
    logSettleMs: 60,
  },
};
export const CONCURRENCY = 16;
export const COUNTER = 'BENCH_COUNTER';
