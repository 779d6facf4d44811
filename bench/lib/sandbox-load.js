/**
 * What the sandbox rows share: the load generator (bench/loadgen.js), reads of the bench's sandbox,
 * and the counter check that every increment a load reports as answered was applied once.
 */
import { join } from 'node:path';
import { BENCH } from './context.js';
import { CONCURRENCY, COUNTER } from './options.js';
import { nodeJson, startServer } from './proc.js';

/** @typedef {import('./context.js').BenchContext} BenchContext */
/** @typedef {{ before: number, after: number, ok: number }} Exact */

/**
 * The sandbox rows' tools, made once a bench run.
 * @param {BenchContext} ctx
 */
export function sandboxLoad(ctx) {
  return ctx.once('sandbox-load', async () => {
    const { request } = await import('undici');
    const { demo, sandbox, s } = ctx;
    const uid = ctx.seeded.big.uid;
    const fetchText = async (/** @type {string} */ url, /** @type {'GET' | 'PUT'} */ method = 'GET') => {
      const res = await request(url, { method });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`${method} ${url}: HTTP ${res.statusCode} ${text.slice(0, 200)}`);
      return text;
    };
    const counterValue = async () => {
      const q = `api_key=${demo.game.apiKey}&type=Game&pid=${demo.game.id}&developer_id=${COUNTER}`;
      const body = JSON.parse(await fetchText(`${sandbox.url}/services/rest/v1/achievements/user/${uid}.json?${q}`));
      const rec = (body.payload ?? []).find((/** @type {any} */ a) => a.developer_id === COUNTER);
      return rec ? Number(rec.current_value) : 0;
    };
    // A smoke run spawns the load generator once, which proves its command line, and runs the
    // other loads in this process (the same runLoad): each spawn costs more CPU loading undici
    // than its 25 ms of load. Full and quick runs spawn it for every load.
    const runLoad = ctx.mode === 'smoke' ? (await import('../loadgen.js')).runLoad : undefined;
    let spawned = false;
    const loadgen = async (/** @type {import('../loadgen.js').LoadOptions} */ o) => {
      if (runLoad && spawned) return runLoad(o);
      spawned = true;
      return nodeJson([join(BENCH, 'loadgen.js'), JSON.stringify(o)], { timeoutMs: s.loadMs + 60_000 });
    };
    /** The increments' options for loadgen's inc and agi modes. */
    const incOptions = {
      apiKey: demo.game.apiKey,
      secret: demo.game.signingSecret,
      gameId: demo.game.id,
      developerId: COUNTER,
      uid,
    };
    return { request, uid, fetchText, counterValue, loadgen, incOptions };
  });
}

/** @param {any[]} runs @param {string} what */
export function throwOnFailures(runs, what) {
  const bad = runs.find((x) => x.errors + x.non2xx > 0);
  if (bad) throw new Error(`${what}: ${bad.errors} errors, ${bad.non2xx} non-2xx (${bad.firstError})`);
}

/**
 * Increments against bare-server.js handing back the fixed `replies` (files; the reference) and
 * the bench's sandbox, interleaved after a warm-up of each; the sandbox's counter read before and
 * after each of its runs. A failed request fails the row.
 * @param {BenchContext} ctx
 * @param {{ mode: 'inc' | 'agi', replies: string[], what: string }} o
 */
export async function exactIncrements(ctx, o) {
  const { s } = ctx;
  const { loadgen, counterValue, incOptions } = await sandboxLoad(ctx);
  const bare = ctx.keep(await startServer(join(BENCH, 'bare-server.js'), o.replies));
  const load = (/** @type {string} */ url, /** @type {number} */ durationMs) =>
    loadgen({ url, mode: o.mode, inc: incOptions, connections: CONCURRENCY, durationMs });
  ctx.log(`${o.what}: ${s.loadMs} ms a run, ${CONCURRENCY} clients, ${s.runs} runs a side`);
  /** @type {Exact[]} */
  const exact = [];
  const onSandbox = async (/** @type {number} */ durationMs) => {
    const before = await counterValue();
    const res = await load(ctx.sandbox.url, durationMs);
    const after = await counterValue();
    exact.push({ before, after, ok: res.ok });
    return res;
  };
  if (s.loadWarmMs > 0) {
    await load(bare.url, s.loadWarmMs);
    await onSandbox(s.loadWarmMs);
  }
  const r = await ctx.interleaved(
    { runs: s.runs, warmup: 0 },
    () => load(bare.url, s.loadMs),
    () => onSandbox(s.loadMs),
  );
  throwOnFailures([...r.ref, ...r.udcli], o.what);
  const last = /** @type {Exact} */ (exact.at(-1));
  const runsExact = exact.filter((e) => e.after - e.before === e.ok).length;
  return {
    refSamples: r.ref.map((x) => x.rps),
    udcliSamples: r.udcli.map((x) => x.rps),
    check: runsExact === exact.length,
    extra: { finalValue: last.after, expectedFinalValue: last.before + last.ok, runsExact, runs: exact.length },
  };
}
