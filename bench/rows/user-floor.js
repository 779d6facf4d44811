/**
 * `udcli user <uid> --json` against the bare floor: a node:http script sending the same GET and
 * printing the same output, with no dependencies and no argument parsing (bench/ref/floor-user.js).
 */
import { join } from 'node:path';
import { BENCH } from '../lib/context.js';
import { onEachNode, oneShot, sameJson } from '../lib/side-by-side.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['user-floor'],
  twins: true,
  run: (ctx) =>
    onEachNode(ctx, 'user-floor', (id, runtime) =>
      oneShot(ctx, {
        id,
        what: `udcli user <uid> --json, against the bare floor (Node ${runtime.version})`,
        ref: [join(BENCH, 'ref/floor-user.js'), ctx.sandbox.url, ctx.demo.game.apiKey, ctx.seeded.big.uid],
        udcli: ['user', ctx.seeded.big.uid, '--json'],
        label: 'node:http floor: the same GET, no dependencies, no argument parsing',
        same: sameJson,
        target: null,
        nodePath: runtime.nodePath,
      }),
    ),
};
