/**
 * The sandbox beside the mock servers a studio would otherwise run (bench/mocks.js): installed
 * from the npm registry at bench time, so a --smoke run (npm test) leaves them out unless asked
 * for by --mocks or --only mock. results.md shows them as a table of their own.
 */
import { CONCURRENCY } from '../lib/options.js';
import { MOCK_IDS, benchMocks } from '../mocks.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: MOCK_IDS.map((id) => `mock-${id}`),
  enabled: (ctx) => ctx.args.mocks ?? (ctx.mode !== 'smoke' || (ctx.args.only ?? []).some((p) => p.startsWith('mock'))),
  async run(ctx) {
    // At most 5 start-ups a server: a JVM or Prism takes seconds to start, and 5 runs give quartiles.
    const specs = await benchMocks({
      runs: Math.min(ctx.s.runs, 5),
      loadMs: ctx.s.loadMs,
      loadWarmMs: ctx.s.loadWarmMs,
      connections: CONCURRENCY,
      root: ctx.root,
      mocksDir: ctx.args.mocksDir,
      wants: ctx.wants,
    });
    /** @type {any} */
    let first;
    for (const spec of specs) {
      const r = ctx.report(first ? { ...spec, load: first.load } : spec);
      first ??= r;
    }
  },
};
