/**
 * The sandbox's signed increments of one counter by 16 concurrent clients, against a bare
 * node:http server handing back a fixed reply; the counter must end exactly where the answered
 * increments put it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONCURRENCY, COUNTER } from '../lib/options.js';
import { exactIncrements } from '../lib/sandbox-load.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['sandbox-inc'],
  async run(ctx) {
    const incBody = join(ctx.root, 'inc-body.json');
    writeFileSync(
      incBody,
      JSON.stringify({
        code: 200,
        message: 'OK',
        payload: {
          state: 'In Progress',
          current_value: 1,
          percent_complete: 0,
          completed_date: '0000-00-00 00:00:00',
          developer_id: COUNTER,
        },
      }),
    );
    const measured = await exactIncrements(ctx, { mode: 'inc', replies: [incBody], what: 'sandbox increments' });
    const { extra } = measured;
    ctx.report({
      ...measured,
      id: 'sandbox-inc',
      what: `sandbox signed increments (${CONCURRENCY} concurrent clients, one counter)`,
      unit: 'inc/s',
      kind: 'report',
      refLabel: 'bare node:http, fixed JSON',
      target: null,
      targetText: 'report; final value exact',
      notes: [
        `sandbox increments: counter exact after ${extra.runsExact} of ${extra.runs} runs (last: ${extra.finalValue}, expected ${extra.expectedFinalValue}); the ratio is reported, not judged.`,
      ],
    });
  },
};
