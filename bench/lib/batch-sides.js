/**
 * The batch rows' runner: `udcli achievements inc @FILE` under agi and two undici scripts making
 * the same requests (bench/ref/batch.js: the read before each change as udcli makes it, and the
 * SDK's two-request protocol), the three interleaved against one sandbox; each side's requests per
 * user are counted in that sandbox's request lines, not assumed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from './context.js';
import { CONCURRENCY, COUNTER } from './options.js';
import { fmt } from './render.js';
import { countLines, median, round } from './stats.js';

/**
 * Lines in a sandbox's request log, once the lines of what was answered have been written (the
 * sandbox writes them in batches, LINE_FLUSH_MS after the first of each).
 * @param {string} file
 * @param {number} settleMs
 */
async function logLines(file, settleMs) {
  await new Promise((r) => setTimeout(r, settleMs));
  return countLines(readFileSync(file, 'latin1'));
}

/**
 * The batch and its reference, side by side, against the sandbox at `url` whose request lines
 * go to `logFile`: the lines each run adds, over its users, are its requests per user. Reports
 * the row `id` (against the read-first script) and `id`-2req (against the two-request one).
 * @param {import('./context.js').BenchContext} ctx
 * @param {{ id: string, what: string, url: string, logFile: string, uids: string[], target: number, note: string }} b
 */
export async function batchRow(ctx, b) {
  const { s, root, outFile, rssFile, demo } = ctx;
  const n = b.uids.length;
  const file = join(root, `${b.id}-users.txt`);
  writeFileSync(file, `${b.uids.join('\n')}\n`);
  const refOut = join(root, `${b.id}-ref.ndjson`);
  const env = { ...ctx.udcliEnv, UDCLI_BASE_URL: b.url, UDCLI_SITE_URL: b.url };
  /** @type {{ read: number[], two: number[], udcli: number[] }} */
  const perUser = { read: [], two: [], udcli: [] };
  const counted = async (/** @type {'read' | 'two' | 'udcli'} */ side, /** @type {() => Promise<any>} */ run) => {
    const before = await logLines(b.logFile, s.logSettleMs);
    const result = await run();
    perUser[side].push(((await logLines(b.logFile, s.logSettleMs)) - before) / n);
    return result;
  };
  const script = (/** @type {'read-first' | 'two-request'} */ protocol) => () =>
    ctx.node(
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
        ctx.udcli(['achievements', 'inc', `@${file}`, COUNTER, '--concurrency', String(CONCURRENCY)], {
          stdoutFile: outFile,
          rssFile,
          env,
        }),
      ),
  };
  ctx.log(`${b.id}: ${n} users at concurrency ${CONCURRENCY}, ${s.runs} runs of each of three sides (${b.note})`);
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
  /** What a row against the reference side `ref` adds: peak RSS and requests per user of both, and its note. */
  const against = (/** @type {string} */ id, /** @type {'read' | 'two'} */ ref) => {
    const extra = {
      refPeakRssKB: rssOf(r[ref]),
      udcliPeakRssKB: rssOf(r.udcli),
      refRequestsPerUser: round(median(perUser[ref]), 2),
      udcliRequestsPerUser: round(median(perUser.udcli), 2),
    };
    const note = `${id}: peak RSS ${fmt(extra.udcliPeakRssKB / 1024)} MB (udcli) vs ${fmt(extra.refPeakRssKB / 1024)} MB (reference script); requests per user ${extra.udcliRequestsPerUser} (udcli: the read before the change, the unsigned POST, the signed POST) vs ${extra.refRequestsPerUser} (reference), counted in the sandbox's request lines.`;
    return { id, refSamples: tput(r[ref]), udcliSamples: tput(r.udcli), extra, notes: [note] };
  };
  const judged = ctx.report({
    ...against(b.id, 'read'),
    what: b.what,
    unit: 'users/s',
    kind: 'throughput',
    refLabel:
      'undici script, the same requests: the read before the change beside the unsigned POST, the 401 challenge, the signed retry',
    target: { op: '>=', value: b.target },
  });
  ctx.report({
    ...against(`${b.id}-2req`, 'two'),
    load: judged.load,
    what: `${b.what}, against the two-request protocol`,
    unit: 'users/s',
    kind: 'report',
    refLabel: "undici script, the SDK's two requests only (unsigned POST, signed retry), no read before the change",
    target: null,
  });
}
