/**
 * `udcli achievements list <uid> --json` against a script making the same two GETs with the same
 * dependencies (bench/ref/list.js; checked by tracing both).
 */
import { likeForLike, onEachNode, sameJson } from '../lib/side-by-side.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['list'],
  twins: true,
  run: (ctx) =>
    onEachNode(ctx, 'list', (id, runtime) =>
      likeForLike(ctx, {
        id,
        what: `udcli achievements list <uid> --json (Node ${runtime.version})`,
        script: 'list.js',
        argv: ['achievements', 'list', ctx.seeded.big.uid, '--json'],
        label: 'the same 2 GETs (records, definitions) over node:http, the same rows',
        same: sameJson,
        target: runtime.suffix ? 1.15 : 1.5,
        nodePath: runtime.nodePath,
      }),
    ),
};
