/**
 * Paging through many friends: `udcli friends <uid> --all -o ndjson` against a script with the
 * same paging loop and the same dependencies (bench/ref/friends.js; checked by tracing both), and
 * its peak RSS at the big hub against the small one (flat memory means ~1×).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from '../lib/context.js';
import { fmt } from '../lib/render.js';
import { sameDependencies } from '../lib/side-by-side.js';
import { countLines, median, ms, round, rssMB } from '../lib/stats.js';

const REF = join(BENCH, 'ref/friends.js');

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['friends-time', 'friends-rss'],
  async run(ctx) {
    const { s, seeded, outFile, rssFile } = ctx;
    const n = s.bigFriends;
    const refOut = join(ctx.root, 'ref-friends.ndjson');
    const lines = (/** @type {string} */ f) => countLines(readFileSync(f, 'utf8'));
    const argv = (/** @type {string} */ uid) => ['friends', uid, '--all', '-o', 'ndjson'];
    const ref = (/** @type {string} */ uid) =>
      ctx.node('ref/friends.js', [REF, ...argv(uid)], { stdoutFile: refOut, rssFile, env: ctx.udcliEnv });
    // A --smoke run of one run a side takes the traced runs (at the small hub) as the small hub's
    // runs of friends-rss rather than run both commands again (npm test runs it: each process costs
    // it CPU); their RSS includes the tracing hooks' loader thread, which a smoke run does not judge.
    const reuse = ctx.mode === 'smoke' && s.runs === 1 && s.warmup === 0;
    const { deps, made } = await sameDependencies(ctx, {
      id: 'friends',
      refArgv: [REF, ...argv(seeded.small.uid)],
      udcliArgv: argv(seeded.small.uid),
      refOut,
      ...(reuse ? { rssFile } : {}),
    });
    const tracedLines = lines(outFile);
    ctx.log(`friends: ${n} friends, ${s.runs} runs a side`);
    const r = await ctx.interleaved(
      { runs: s.runs, warmup: s.warmup },
      () => ref(seeded.big.uid),
      () => ctx.udcli(argv(seeded.big.uid), { stdoutFile: outFile, rssFile }),
    );
    if (lines(refOut) !== n || lines(outFile) !== n)
      throw new Error(`friends: expected ${n} lines, got ${lines(refOut)} (reference) and ${lines(outFile)} (udcli)`);
    const refPeakRssKB = median(r.ref.map((x) => x.rssKB ?? NaN));
    const udcliPeakRssKB = median(r.udcli.map((x) => x.rssKB ?? NaN));
    ctx.report({
      id: 'friends-time',
      what: `udcli friends <uid> --all -o ndjson (${n.toLocaleString('en')} friends)`,
      unit: 'ms',
      kind: 'time',
      refLabel: `like for like: the same paging loop over node:http, commander, the same dependencies (${deps.same ? 'checked' : 'NOT the same, see notes'})`,
      refSamples: ms(r.ref),
      udcliSamples: ms(r.udcli),
      target: { op: '<=', value: 1.2 },
      check: deps.same,
      extra: { refPeakRssKB, udcliPeakRssKB, dependencies: deps },
      notes: [
        `friends: peak RSS ${fmt(udcliPeakRssKB / 1024)} MB (udcli) vs ${fmt(refPeakRssKB / 1024)} MB (reference script).`,
      ],
    });

    ctx.log(`friends: peak RSS with ${s.smallFriends} friends, ${s.runs} runs${reuse ? ' (the traced runs)' : ''}`);
    /** @type {number[]} */ const small = [];
    /** @type {number[]} */ const smallRef = [];
    let smallLines = tracedLines;
    if (reuse) {
      smallRef.push(made.ref.rssKB ?? NaN);
      small.push(made.udcli.rssKB ?? NaN);
    }
    for (let i = 0; !reuse && i < s.warmup + s.runs; i++) {
      const a = await ref(seeded.small.uid);
      const b = await ctx.udcli(argv(seeded.small.uid), { stdoutFile: outFile, rssFile });
      if (i >= s.warmup) {
        smallRef.push(a.rssKB ?? NaN);
        small.push(b.rssKB ?? NaN);
      }
      smallLines = lines(outFile);
    }
    if (smallLines !== s.smallFriends)
      throw new Error(`friends: expected ${s.smallFriends} lines from udcli, got ${smallLines}`);
    const referenceScriptRssMB = { small: round(median(smallRef) / 1024), big: round(refPeakRssKB / 1024) };
    ctx.report({
      id: 'friends-rss',
      what: `udcli friends --all peak RSS, ${n.toLocaleString('en')} vs ${s.smallFriends.toLocaleString('en')} friends`,
      unit: 'MB',
      kind: 'memory',
      refLabel: `udcli @ ${s.smallFriends.toLocaleString('en')}`,
      refSamples: small.map((kb) => kb / 1024),
      udcliSamples: rssMB(r.udcli),
      target: { op: '<=', value: 1.2 },
      extra: { referenceScriptRssMB },
      notes: [
        `friends RSS: the reference script itself goes from ${fmt(referenceScriptRssMB.small)} to ${fmt(referenceScriptRssMB.big)} MB.`,
      ],
    });
  },
};
