/**
 * `udcli achievements inc @FILE` under agi on loopback, against the read-first and the
 * two-request scripts (bench/lib/batch-sides.js).
 */
import { batchRow } from '../lib/batch-sides.js';
import { CONCURRENCY } from '../lib/options.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['batch', 'batch-2req'],
  run: (ctx) =>
    batchRow(ctx, {
      id: 'batch',
      what: `udcli achievements inc @FILE under agi (${ctx.seeded.batchUids.length.toLocaleString('en')} users, concurrency ${CONCURRENCY})`,
      url: ctx.sandbox.url,
      logFile: ctx.sandboxLog,
      uids: ctx.seeded.batchUids,
      target: 0.85,
      note: 'loopback',
    }),
};
