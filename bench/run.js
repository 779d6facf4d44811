#!/usr/bin/env node
/**
 * `npm run bench`: udcli measured side by side with a reference doing the same work with the same
 * dependencies, in the same invocation, as ratios (machines are noisy; absolute times are
 * reported, not judged). Each reference says in its header what it does and why it is the fair
 * floor (bench/ref/). Needs the built code: run `npm run build` first. Options: `--help`
 * (bench/lib/options.js); results go to bench/out/ (git-ignored) unless --out DIR; what earlier
 * results showed and what was decided on them: bench/CHANGES.md.
 *
 * Rules: reference and udcli runs interleaved (ABAB), warm-up runs excluded, medians reported
 * with the spread of the runs and the machine's load during the row (bench/lib/load-monitor.js;
 * a row during which other processes took a quarter of the machine says "measured under load").
 * Processes are timed whole (spawn to close, hrtime); peak RSS comes from the child itself
 * (bench/lib/rss-preload.js, getrusage maxRSS at exit). Everything listens on 127.0.0.1 only;
 * temp dirs and child processes are cleaned up also on failure and Ctrl-C.
 *
 * A row is a module in bench/rows/, named in ROWS below (in the order the rows run), whose
 * default export is a BenchRow:
 *
 *   export default {
 *     ids: ['my-row'],            // the row ids it reports, in order; --only picks by prefix
 *     async run(ctx) {            // ctx: bench/lib/context.js (sizes, the shared sandbox, runners)
 *       const r = await ctx.interleaved({ runs: ctx.s.runs, warmup: ctx.s.warmup }, ref, ours);
 *       ctx.report({ id: 'my-row', what, unit: 'ms', kind: 'time', refLabel, refSamples: ms(r.ref),
 *                    udcliSamples: ms(r.udcli), target: { op: '<=', value: 1.5 } });
 *     },
 *   };
 *
 * `report` (bench/lib/row.js RowSpec) adds the medians, the spread, the ratio against the target
 * and the load since the row before. Optional: `twins: true` (it runs again on the newest Node 24
 * as `<id>-node24`, bench/lib/side-by-side.js), `enabled(ctx)` (false: not in this run, e.g. rows
 * that install from the npm registry in a --smoke run). test/bench/smoke.test.ts runs every row
 * at smoke sizes and checks that each file in bench/rows/ is named here and reports its ids.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { BENCH, ROOT, log, openBench } from './lib/context.js';
import { startLoadMonitor } from './lib/load-monitor.js';
import { CONCURRENCY, SETTINGS, parseArgs } from './lib/options.js';
import { markdown } from './lib/render.js';
import { round } from './lib/stats.js';

/**
 * @typedef {object} BenchRow
 * @property {string[]} ids
 * @property {(ctx: import('./lib/context.js').BenchContext) => Promise<void>} run
 * @property {boolean} [twins]
 * @property {(ctx: import('./lib/context.js').BenchContext) => boolean} [enabled]
 */

/** The rows, in the order they run: each a file in bench/rows/. */
export const ROWS = [
  'startup',
  'user',
  'user-floor',
  'list',
  'inc',
  'embedded',
  'friends',
  'data',
  'batch',
  'batch-latency',
  'batch-journal',
  'journal-resume',
  'sandbox-get',
  'sandbox-inc',
  'sandbox-agi-inc',
  'har-diff',
  'sandbox-signatures',
  'gc-soak',
  'node-ci',
  'mocks',
  'sandbox-in-tests',
];

/** Where results go unless --out: not tracked by git (.gitignore). */
const OUT = join(BENCH, 'out');

/** @param {ReturnType<typeof parseArgs>} args */
async function main(args) {
  for (const f of ['dist/cli/main.js', 'dist/sandbox/server.js', 'dist/domain/signing.js']) {
    if (!existsSync(join(ROOT, f))) {
      log(`${f} is missing: run \`npm run build\` first (the benches measure the built code)`);
      return 1;
    }
  }
  const s = { ...SETTINGS[args.mode] };
  if (args.soakMs) s.soakMs = args.soakMs;
  if (args.runs) {
    s.runs = s.startupRuns = s.dataRuns = args.runs;
    if (args.runs < 3) s.warmup = 0;
  }
  const outDir = args.out ?? (args.mode === 'smoke' ? mkdtempSync(join(tmpdir(), 'udcli-bench-out-')) : OUT);
  mkdirSync(outDir, { recursive: true });

  /** Samples the machine's load from the start; each reported row closes a window. */
  const monitor = startLoadMonitor();
  const t0 = performance.now();
  const bench = await openBench({ args, s, monitor });
  const onSignal = () => {
    log('interrupted: stopping children, removing temp files');
    bench.kill();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const { ctx } = bench;
  try {
    /** Which rows each module reported, or that it was off in this run. */
    const modules = [];
    for (const file of ROWS) {
      /** @type {{ default: BenchRow }} */
      const { default: row } = await import(`./rows/${file}.js`);
      const ids = row.twins ? row.ids.flatMap((id) => [id, `${id}-node24`]) : row.ids;
      if (!ids.some(ctx.wants)) continue;
      if (row.enabled && !row.enabled(ctx)) {
        modules.push({ file, ids: row.ids, off: true });
        continue;
      }
      const before = ctx.rows.length;
      await row.run(ctx);
      modules.push({ file, ids: row.ids, reported: ctx.rows.slice(before).map((r) => r.id) });
    }
    const { rows } = ctx;
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
      setup: ctx.setup,
      totalMs,
      modules,
      rows,
    };
    writeFileSync(join(outDir, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
    writeFileSync(join(outDir, 'results.md'), markdown(results, before(args)));
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
    monitor.stop();
    await bench.close();
  }
}

/** The earlier results.json to compare with (--before), or null. @param {ReturnType<typeof parseArgs>} args */
function before(args) {
  return args.before ? { path: args.before, results: JSON.parse(readFileSync(args.before, 'utf8')) } : null;
}

/**
 * --render: writes results.md again from results.json, without measuring anything.
 * @param {ReturnType<typeof parseArgs>} args
 */
function render(args) {
  const dir = args.out ?? OUT;
  const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  writeFileSync(join(dir, 'results.md'), markdown(results, before(args)));
  log(`wrote ${join(dir, 'results.md')}`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = parseArgs(process.argv.slice(2));
  try {
    process.exitCode = args.render ? render(args) : await main(args);
  } catch (error) {
    process.stderr.write(`bench: failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  }
}
