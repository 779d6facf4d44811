/**
 * `npm ci` of this clone on Node 20, 22, 24 and 26 beside `npm ci --ignore-scripts`, and the
 * gc-soak again on 24 and 26 from those installs (issue 39, bench/node.js). Nodes other than the
 * one running come from the npm registry: a --smoke run leaves these rows out unless --only
 * names them.
 */
import { npmCi, registryNode, scratchClone } from '../node.js';
import { median } from '../lib/stats.js';
import { soakRow } from './gc-soak.js';

const MAJORS = [20, 22, 24, 26];

/** @type {import('../run.js').BenchRow} */
export default {
  ids: [...MAJORS.map((m) => `node-ci-${m}`), ...MAJORS.filter((m) => m >= 24).map((m) => `gc-soak-node${m}`)],
  enabled: (ctx) =>
    ctx.mode !== 'smoke' || (ctx.args.only ?? []).some((p) => p.startsWith('node') || p.startsWith('gc-soak-')),
  async run(ctx) {
    const thisMajor = Number(process.versions.node.split('.')[0]);
    for (const major of MAJORS) {
      const ciId = `node-ci-${major}`;
      const soakId = `gc-soak-node${major}`;
      const soakHere = major >= 24 && ctx.wants(soakId);
      if (!ctx.wants(ciId) && !soakHere) continue;
      const runtime =
        major === thisMajor ? { node: process.execPath, version: process.versions.node } : registryNode(major, ctx.log);
      const clone = scratchClone(ctx.root);
      try {
        ctx.log(`${ciId}: npm ci of this clone on Node ${runtime.version}, once, beside npm ci --ignore-scripts`);
        const ci = await npmCi(runtime, clone.dir, 1);
        if (ctx.wants(ciId))
          ctx.report({
            id: ciId,
            what: `npm ci on Node ${runtime.version} (SQLite driver: better-sqlite3 ${ci.driver || 'none'})`,
            unit: 'ms',
            kind: 'report',
            refLabel: 'npm ci --ignore-scripts (download and unpack only)',
            refSamples: ci.floor,
            udcliSamples: ci.whole,
            target: null,
            check: major < 22 || (ci.compilerCalls === '' && median(ci.whole) < 45_000),
            targetText: major < 22 ? 'report (compiles better-sqlite3 12)' : 'no compiler called; < 45 s',
            extra: { compilerCalls: ci.compilerCalls || 'none', driver: ci.driver },
          });
        if (soakHere) await soakRow(ctx, { id: soakId, node: runtime.node, version: runtime.version, root: clone.dir });
      } finally {
        clone.remove();
      }
    }
  },
};
