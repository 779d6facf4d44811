/**
 * `udcli user <uid> --json` against a script doing the same GET with the same dependencies
 * (bench/ref/user.js; checked: both load the same packages and built-ins).
 */
import { likeForLike, onEachNode, sameJson } from '../lib/side-by-side.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['user'],
  twins: true,
  run: (ctx) =>
    onEachNode(ctx, 'user', (id, runtime) =>
      likeForLike(ctx, {
        id,
        what: `udcli user <uid> --json (Node ${runtime.version})`,
        script: 'user.js',
        argv: ['user', ctx.seeded.big.uid, '--json'],
        label: 'the same GET over node:http',
        same: sameJson,
        // Issue 43: tighter on 24, where bin/udcli.js turns on the module compile cache.
        target: runtime.suffix ? 1.0 : 1.2,
        nodePath: runtime.nodePath,
      }),
    ),
};
