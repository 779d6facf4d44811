/**
 * hmac-sha256-v1's used signatures in the database at 2,000 changes a second (issue 40, 7; 200 in a smoke run):
 * bench/used-signatures.js, at most 3 runs a side.
 */
import { benchUsedSignatures } from '../used-signatures.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['sandbox-signatures'],
  run: async (ctx) => {
    ctx.report(
      await benchUsedSignatures({
        mode: ctx.mode,
        root: ctx.root,
        runs: Math.min(ctx.s.runs, 3),
        log: ctx.log,
        interleaved: ctx.interleaved,
      }),
    );
  },
};
