/**
 * The sandbox's GET users/{uid}.json under load, and the ladder under it (issue 43): bare
 * node:http with the same reply bytes, Fastify alone with them, then Fastify reading them by
 * primary key with one better-sqlite3 SELECT, the floor of this design (what a server on these two
 * packages cannot go below). The sandbox is judged against the bare server and against the floor,
 * with every check of its own kept (the key, the Host, CORS, the request log, limits).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BENCH } from '../lib/context.js';
import { CONCURRENCY } from '../lib/options.js';
import { startServer } from '../lib/proc.js';
import { sandboxLoad, throwOnFailures } from '../lib/sandbox-load.js';

/** @type {import('../run.js').BenchRow} */
export default {
  ids: ['sandbox-get', 'ladder-fastify', 'ladder-fastify-sqlite', 'sandbox-get-floor'],
  async run(ctx) {
    const { s, sandbox } = ctx;
    const { uid, fetchText, loadgen } = await sandboxLoad(ctx);
    const getPath = `/services/rest/v1/users/${uid}.json?api_key=${ctx.demo.game.apiKey}`;
    // The references answer with the sandbox's own reply bytes.
    const getBody = join(ctx.root, 'get-body.json');
    writeFileSync(getBody, await fetchText(sandbox.url + getPath));
    const server = async (/** @type {string} */ script, /** @type {string[]} */ argv) =>
      ctx.keep(await startServer(join(BENCH, script), argv));
    const bareGet = await server('bare-server.js', [getBody]);
    const fastifyBare = await server('ref/fastify-server.js', ['bare', getBody]);
    const fastifySqlite = await server('ref/fastify-server.js', ['sqlite', getBody]);
    for (const { url } of [fastifyBare, fastifySqlite]) {
      if ((await fetchText(url + getPath)) !== readFileSync(getBody, 'utf8'))
        throw new Error(`sandbox GET ladder: ${url} does not answer the sandbox's reply`);
    }
    const getLoad = (/** @type {string} */ url, /** @type {number} */ durationMs) =>
      loadgen({ url, path: getPath, connections: CONCURRENCY, durationMs });
    ctx.log(`sandbox GET and its ladder: ${s.loadMs} ms a run, ${CONCURRENCY} connections, ${s.runs} runs a side`);
    if (s.loadWarmMs > 0) {
      for (const url of [bareGet.url, sandbox.url, fastifyBare.url, fastifySqlite.url])
        await getLoad(url, s.loadWarmMs);
    }
    const bareLabel = 'bare node:http, fixed JSON';
    const floorLabel = 'Fastify + one better-sqlite3 SELECT, the same reply';
    /**
     * A row measured as two servers side by side: the one below (the reference) and the one above.
     * @typedef {[id: string, what: string, below: string, refLabel: string, above: string, min: number | null]} Pair
     */
    /** @type {Pair[]} */
    const pairs = [
      ['sandbox-get', 'sandbox GET users/{uid}.json', bareGet.url, bareLabel, sandbox.url, 0.6],
      ['ladder-fastify', 'bare Fastify, the same reply from memory', bareGet.url, bareLabel, fastifyBare.url, null],
      [
        'ladder-fastify-sqlite',
        'Fastify + one better-sqlite3 SELECT of the same reply by primary key',
        bareGet.url,
        bareLabel,
        fastifySqlite.url,
        null,
      ],
      [
        'sandbox-get-floor',
        'sandbox GET users/{uid}.json against the floor of its design',
        fastifySqlite.url,
        floorLabel,
        sandbox.url,
        0.7,
      ],
    ];
    for (const [id, what, below, refLabel, above, target] of pairs) {
      const r = await ctx.interleaved(
        { runs: s.runs, warmup: 0 },
        () => getLoad(below, s.loadMs),
        () => getLoad(above, s.loadMs),
      );
      throwOnFailures([...r.ref, ...r.udcli], id);
      ctx.report({
        id,
        what: `${what} (${CONCURRENCY} connections)`,
        unit: 'req/s',
        kind: target === null ? 'report' : 'throughput',
        refLabel,
        refSamples: r.ref.map((x) => x.rps),
        udcliSamples: r.udcli.map((x) => x.rps),
        target: target === null ? null : { op: '>=', value: target },
      });
    }
  },
};
