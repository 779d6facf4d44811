/**
 * The batch across a round trip, as against the real platform: a second `udcli sandbox start
 * --latency 40ms` on the bench's database (bench/lib/batch-sides.js).
 */
import { join } from 'node:path';
import { batchRow } from '../lib/batch-sides.js';
import { CONCURRENCY } from '../lib/options.js';

/** The round trip the sandbox adds to every reply, as a real network does. */
const LATENCY_MS = 40;

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['batch-latency', 'batch-latency-2req'],
  async run(ctx) {
    // Bound by round trips: fewer users keep the row short.
    const uids = ctx.seeded.batchUids.slice(0, ctx.s.latencyUsers);
    const far = await ctx.startSandbox(['--latency', `${LATENCY_MS}ms`], 'sandbox-latency.log');
    await batchRow(ctx, {
      id: 'batch-latency',
      what: `udcli achievements inc @FILE under agi, ${LATENCY_MS} ms a reply (${uids.length.toLocaleString('en')} users, concurrency ${CONCURRENCY})`,
      url: far.url,
      logFile: join(ctx.root, 'sandbox-latency.log'),
      uids,
      target: 0.9,
      note: `sandbox start --latency ${LATENCY_MS}ms`,
    });
  },
};
