/**
 * The batch with --journal (issue 13): the state read before each change journaled with each
 * started record and fdatasync'ed, against the same batch without it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENCY, COUNTER } from '../lib/options.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['batch-journal'],
  async run(ctx) {
    const { s, root, outFile } = ctx;
    const n = ctx.seeded.batchUids.length;
    const file = join(root, 'users.txt');
    writeFileSync(file, `${ctx.seeded.batchUids.join('\n')}\n`);
    let k = 0;
    ctx.log(`batch-journal: ${n} users, with --journal (a new one each run) and without, ${s.runs} runs a side`);
    const argv = ['achievements', 'inc', `@${file}`, COUNTER, '--concurrency', String(CONCURRENCY)];
    const r = await ctx.interleaved(
      { runs: s.runs, warmup: s.warmup },
      () => ctx.udcli(argv, { stdoutFile: outFile }),
      () => ctx.udcli([...argv, '--journal', join(root, `batch-${++k}.journal`)], { stdoutFile: outFile }),
    );
    const tput = (/** @type {{ ms: number }[]} */ xs) => xs.map((x) => (n * 1000) / x.ms);
    ctx.report({
      id: 'batch-journal',
      what: `udcli achievements inc @FILE --journal (${n.toLocaleString('en')} users): the before-state journaled with each started record, fdatasync'ed`,
      unit: 'users/s',
      kind: 'throughput',
      refLabel: 'the same batch without --journal',
      refSamples: tput(r.ref),
      udcliSamples: tput(r.udcli),
      target: null,
    });
  },
};
