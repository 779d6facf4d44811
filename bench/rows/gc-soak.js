/**
 * The sandbox under forced GC, load and a live reset every second (issue 39, bench/node.js), on
 * the Node running the bench; rows/node-ci.js runs it again on Node 24 and 26.
 */
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { gcSoak } from '../node.js';
import { ROOT } from '../lib/context.js';

/**
 * The soak of the sandbox installed at `root`, run by `node`, as a row.
 * @param {import('../lib/context.js').BenchContext} ctx
 * @param {{ id: string, node: string, version: string, root: string }} o
 */
export async function soakRow(ctx, o) {
  const r = await gcSoak({
    node: o.node,
    root: o.root,
    soakMs: ctx.s.soakMs,
    plainMs: ctx.s.soakPlainMs,
    work: mkdtempSync(join(ctx.root, 'soak-')),
    log: ctx.log,
  });
  ctx.report({
    id: o.id,
    what: `sandbox under load for ${ctx.s.soakMs / 1000} s, a live reset every second, a forced GC every 200 ms (Node ${o.version})`,
    unit: 'req/s',
    kind: 'report',
    refLabel: 'the same sandbox and load, no resets (up to 10 s, before)',
    refSamples: [r.plain.rps],
    udcliSamples: [r.soaked.rps],
    target: null,
    check: r.check,
    targetText: 'report; still serving at the end, every reset 200, no failed request',
    extra: {
      resets: r.resets.ok,
      failedResets: r.resets.failed,
      requests: r.soaked.requests,
      failedRequests: r.soaked.errors + r.soaked.non2xx,
      survived: r.survived,
      exit: r.exit,
    },
  });
}

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['gc-soak'],
  run: (ctx) => soakRow(ctx, { id: 'gc-soak', node: process.execPath, version: process.versions.node, root: ROOT }),
};
