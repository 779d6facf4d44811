/**
 * `udcli achievements inc <uid> <developer_id> --json` (agi) against a script making the same four
 * requests with the same dependencies (bench/ref/inc.js; checked by tracing both).
 */
import { COUNTER } from '../lib/options.js';
import { likeForLike, onEachNode, sameJson } from '../lib/side-by-side.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['inc'],
  twins: true,
  run: (ctx) =>
    onEachNode(ctx, 'inc', (id, runtime) =>
      likeForLike(ctx, {
        id,
        what: `udcli achievements inc <uid> <developer_id> --json (agi) (Node ${runtime.version})`,
        script: 'inc.js',
        argv: ['achievements', 'inc', ctx.seeded.big.uid, COUNTER, '--json'],
        label: 'the same 4 requests over node:http (definition, read, unsigned POST, signed POST)',
        // Each run adds one: the same reply but for the counter.
        same: (a, b) =>
          a.developer_id === b.developer_id &&
          b.current_value === a.current_value + 1 &&
          sameJson(Object.keys(a), Object.keys(b)),
        target: runtime.suffix ? 1.15 : 1.5,
        nodePath: runtime.nodePath,
      }),
    ),
};
