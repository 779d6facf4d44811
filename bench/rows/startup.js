/**
 * Start-up: `udcli --version`, `--help` and bare, each against `node -e 0` on the same Node (this
 * one, and the newest Node 24 as `startup-…-node24`).
 */
import { runtimes } from '../lib/side-by-side.js';
import { ms } from '../lib/stats.js';

const COMMANDS = [['--version'], ['--help'], []];
const idOf = (/** @type {string[]} */ argv) => `startup-${argv[0]?.replace('--', '') ?? 'bare'}`;

/** @type {import('../run.js').BenchRow} */
export default {
  ids: COMMANDS.map(idOf),
  twins: true,
  async run(ctx) {
    const { s } = ctx;
    for (const runtime of await runtimes(ctx, COMMANDS.map(idOf))) {
      for (const argv of COMMANDS) {
        const id = `${idOf(argv)}${runtime.suffix}`;
        if (!ctx.wants(id)) continue;
        ctx.log(`${id}: ${s.startupRuns} runs a side`);
        const o = { nodePath: runtime.nodePath };
        const r = await ctx.interleaved(
          { runs: s.startupRuns, warmup: s.warmup },
          () => ctx.node('node -e 0', ['-e', '0'], o),
          () => ctx.udcli(argv, { stdoutFile: ctx.outFile, ...o }),
        );
        ctx.report({
          id,
          what: `udcli ${argv.join(' ')}${runtime.label}`.replace('udcli  ', 'udcli '),
          unit: 'ms',
          kind: 'time',
          refLabel: `node -e 0${runtime.label}`,
          refSamples: ms(r.ref),
          udcliSamples: ms(r.udcli),
          target: { op: '<=', value: 1.3 },
        });
      }
    }
  },
};
