/**
 * The bench row of `udcli sandbox diff` (issue 30): a recording of 50,000 entries (about 100 MB:
 * reads and agi-signed changes, as `udcli --har` writes them) diffed by the built binary, its time
 * and peak RSS (at most 300 MB: the recording is read as a stream), beside the reference: the same
 * requests sent to a sandbox directly (har-replay-ref.js: a sandbox started the same way, each
 * signed change with a fresh challenge), so the row shows what reading, seeding and comparing add
 * to the requests themselves.
 */
import { createWriteStream, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { udcliHere } from '../lib/in-process.js';
import { cleanEnv, mustRun } from '../lib/proc.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'udcli.js');
const REF = join(ROOT, 'bench', 'har-replay-ref.js');

/**
 * Entries of the bench recording per mode. A smoke run (npm test) proves the row runs: two whole
 * sessions of the template (5 entries each) are enough to replay, seed and compare, the second
 * reading and setting what the first left, as every repetition of a long recording does.
 */
export const HAR_ENTRIES = { full: 50_000, quick: 10_000, smoke: 10 };
/** The bound on the diff's peak RSS, whatever the recording's size. */
export const RSS_LIMIT_MB = 300;

/**
 * A real session recorded by udcli against a demo sandbox: a read of every product, and a
 * progress set (the read before it, agi's unsigned request and its challenge, the signed change).
 * Set-up, not measured: with `here` (a --smoke run), udcli runs in this process
 * (bench/lib/in-process.js), the same commands recording the same requests.
 * @param {string} dir @param {boolean} [here]
 */
export async function recordTemplate(dir, here = false) {
  const { startSandbox } = await import('../../dist/sandbox/server.js');
  const { DEMO } = await import('../../dist/domain/demo.js');
  const sandbox = await startSandbox({
    port: 0,
    host: '127.0.0.1',
    dbPath: join(dir, 'template.db'),
    seed: 'demo',
    log: () => undefined,
  });
  const har = join(dir, 'template.har');
  const env = cleanEnv({
    UDCLI_CONFIG_DIR: join(dir, 'config'),
    UDCLI_DATA_DIR: join(dir, 'data'),
    UDCLI_BASE_URL: sandbox.url,
    UDCLI_API_KEY: DEMO.game.apiKey,
    UDCLI_GAME_ID: DEMO.game.id,
  });
  const udcli = (/** @type {string[]} */ argv) =>
    here ? udcliHere(argv, env) : mustRun(`udcli ${argv.join(' ')}`, [BIN, ...argv], { env });
  try {
    // Set once unrecorded: each repetition of the recorded session then reads and sets the same
    // value, so the long recording is one consistent history (and diffs clean).
    await udcli(['achievements', 'set', DEMO.user.uid, 'LEVEL_10', '60%', '--yes', '--json']);
    await udcli(['--har', har, 'products', 'list', DEMO.user.uid, '--json']);
    await udcli(['--har', har, 'achievements', 'set', DEMO.user.uid, 'LEVEL_10', '60%', '--yes', '--json']);
  } finally {
    await sandbox.close();
  }
  const entries = JSON.parse(readFileSync(har, 'utf8')).log.entries.filter((/** @type {any} */ e) =>
    e.request.url.includes('/services/rest/v1/'),
  );
  return entries.map((/** @type {unknown} */ e) => JSON.stringify(e));
}

/**
 * The template's entries repeated (whole sessions) to about `n` entries, written as a stream.
 * @param {string} file @param {string[]} template @param {number} n
 */
export async function writeRecording(file, template, n) {
  const out = createWriteStream(file);
  const write = (/** @type {string} */ text) =>
    out.write(text) ? Promise.resolve() : new Promise((resolve) => out.once('drain', resolve));
  await write('{"log":{"version":"1.2","creator":{"name":"udcli bench","version":"1"},"pages":[],"entries":[\n');
  let written = 0;
  while (written < n) {
    for (const entry of template) {
      await write(`${written === 0 ? '' : ',\n'}${entry}`);
      written++;
    }
  }
  await write('\n]}}\n');
  await new Promise((resolve, reject) =>
    out.end((/** @type {Error | undefined} */ e) => (e ? reject(e) : resolve(undefined))),
  );
  return written;
}

/**
 * The row, at most 3 runs a side (a run of the full size takes tens of seconds).
 * @param {import('../lib/context.js').BenchContext} bench
 */
async function benchHarDiff(bench) {
  const ctx = { ...bench, runs: Math.min(bench.s.runs, 3) };
  const template = await recordTemplate(ctx.root, ctx.mode === 'smoke');
  const file = join(ctx.root, 'bench.har');
  const entries = await writeRecording(file, template, HAR_ENTRIES[ctx.mode]);
  const mb = statSync(file).size / 1024 / 1024;
  ctx.log(`sandbox diff: a recording of ${entries} entries (${mb.toFixed(1)} MB), ${ctx.runs} runs a side`);
  const env = cleanEnv({ UDCLI_CONFIG_DIR: join(ctx.root, 'config'), UDCLI_DATA_DIR: join(ctx.root, 'data') });
  const rssFile = join(ctx.root, 'diff-rss.txt');
  /** @type {number[]} */
  const rss = [];
  /** @type {Array<{ compared: number, differing: number }>} */
  const reports = [];
  const diff = async () => {
    const out = join(ctx.root, 'diff.json');
    const r = await mustRun('udcli sandbox diff', [BIN, 'sandbox', 'diff', file, '--json'], {
      env,
      stdoutFile: out,
      rssFile,
      timeoutMs: 30 * 60_000,
    });
    rss.push((r.rssKB ?? NaN) / 1024);
    reports.push(JSON.parse(readFileSync(out, 'utf8')));
    return r.ms;
  };
  const ref = () =>
    mustRun('reference replay', [REF, join(ctx.root, 'template-entries.json'), String(entries)], {
      env,
      timeoutMs: 30 * 60_000,
    }).then((r) => r.ms);
  const { writeFileSync } = await import('node:fs');
  writeFileSync(join(ctx.root, 'template-entries.json'), `[${template.join(',')}]`);
  const r = await ctx.interleaved({ runs: ctx.runs, warmup: 0 }, ref, diff);
  const peak = Math.max(...rss);
  const clean = reports.every((x) => x.compared === entries && x.differing === 0);
  bench.report({
    id: 'har-diff',
    what: `udcli sandbox diff of a ${entries.toLocaleString('en')}-entry recording (${mb.toFixed(0)} MB: reads and agi-signed changes)`,
    unit: 'ms',
    kind: 'time',
    refLabel: 'the same requests sent to a sandbox directly',
    refSamples: r.ref,
    udcliSamples: r.udcli,
    target: null,
    check: peak <= RSS_LIMIT_MB && clean,
    targetText: `report; peak RSS ≤ ${RSS_LIMIT_MB} MB (was ${Math.round(peak)} MB), no difference`,
    extra: {
      entries,
      recordingMB: Math.round(mb),
      peakRssMB: Math.round(peak),
      rssLimitMB: RSS_LIMIT_MB,
      compared: reports.at(-1)?.compared,
      differing: reports.at(-1)?.differing,
    },
  });
}

/** @type {import('../run.js').BenchRow} */
export default { ids: ['har-diff'], run: benchHarDiff };
