/**
 * The sandbox's signed increments of one counter by 16 concurrent clients, against a bare
 * node:http server handing back a fixed reply; the counter must end exactly where the answered
 * increments put it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from '../lib/context.js';
import { CONCURRENCY, COUNTER } from '../lib/options.js';
import { startServer } from '../lib/proc.js';
import { exactIncrements, throwOnFailures } from '../lib/sandbox-load.js';

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
    const bare = ctx.keep(await startServer(join(BENCH, 'bare-server.js'), [incBody]));
    const { r, allExact, extra } = await exactIncrements(ctx, {
      mode: 'inc',
      bareUrl: bare.url,
      what: 'sandbox increments',
    });
    throwOnFailures([...r.ref, ...r.udcli], 'sandbox increments');
    ctx.report({
      id: 'sandbox-inc',
      what: `sandbox signed increments (${CONCURRENCY} concurrent clients, one counter)`,
      unit: 'inc/s',
      kind: 'report',
      refLabel: 'bare node:http, fixed JSON',
      refSamples: r.ref.map((x) => x.rps),
      udcliSamples: r.udcli.map((x) => x.rps),
      target: null,
      check: allExact,
      targetText: 'report; final value exact',
      extra,
      notes: [
        `sandbox increments: counter exact after ${extra.runsExact} of ${extra.runs} runs (last: ${extra.finalValue}, expected ${extra.expectedFinalValue}); the ratio is reported, not judged.`,
      ],
    });
  },
};
