// Loopback load generator on an undici Pool: N connections, one request in flight on each,
// for a fixed duration (or a fixed request count). Counts 2xx replies and errors and prints one
// JSON line. Mode "get" sends the same GET; mode "inc" sends a freshly signed PUT increment
// (hmac-sha256-v1, as the CLI signs) each time, so the server checks every signature.
//
//   node bench/loadgen.js '{"url":"http://127.0.0.1:PORT","path":"/...","connections":16,"durationMs":2000}'
//   node bench/loadgen.js '{"url":...,"mode":"inc","connections":16,"durationMs":2000,
//                          "inc":{"apiKey":..,"secret":..,"gameId":..,"developerId":..,"uid":..}}'
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';

/**
 * @typedef {object} LoadOptions
 * @property {string} url          origin, http://127.0.0.1:PORT
 * @property {'get' | 'inc'} [mode]
 * @property {string} [path]       for get: path and query
 * @property {number} connections
 * @property {number} [durationMs] stop starting requests after this long
 * @property {number} [requests]   or after this many
 * @property {{ apiKey: string, secret: string, gameId: string, developerId: string, uid: string }} [inc]
 */

/** @param {LoadOptions} o */
async function makeRequester(o) {
  if ((o.mode ?? 'get') === 'get') {
    const path = /** @type {string} */ (o.path);
    return () => ({ path, method: /** @type {const} */ ('GET') });
  }
  const { canonicalString, hmacSha256Hex, rfc3986 } = await import('../dist/domain/signing.js');
  const inc = /** @type {NonNullable<LoadOptions['inc']>} */ (o.inc);
  const path = `/services/rest/v1/achievements/user/${inc.uid}.json`;
  return () => {
    /** @type {Array<[string, string]>} */
    const params = [
      ['api_key', inc.apiKey],
      ['type', 'Game'],
      ['pid', inc.gameId],
      ['developer_id', inc.developerId],
      ['increment', '1'],
      ['timestamp', String(Math.floor(Date.now() / 1000))],
    ];
    params.push(['signature', hmacSha256Hex(inc.secret, canonicalString('PUT', path, params))]);
    const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
    return { path: `${path}?${query}`, method: /** @type {const} */ ('PUT') };
  };
}

/** @param {LoadOptions} o */
export async function runLoad(o) {
  const next = await makeRequester(o);
  const pool = new Pool(o.url, { connections: o.connections, pipelining: 1 });
  const limit = o.requests ?? Infinity;
  const durationMs = o.durationMs ?? Infinity;
  let started = 0;
  let ok = 0;
  let non2xx = 0;
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  const t0 = performance.now();
  const deadline = t0 + durationMs;

  async function worker() {
    while (started < limit && performance.now() < deadline) {
      started++;
      try {
        const res = await pool.request({ ...next(), headers: { accept: 'application/json' } });
        await res.body.arrayBuffer();
        if (res.statusCode >= 200 && res.statusCode < 300) ok++;
        else {
          non2xx++;
          firstError ??= `HTTP ${res.statusCode}`;
        }
      } catch (e) {
        errors++;
        firstError ??= /** @type {Error} */ (e).message;
      }
    }
  }
  await Promise.all(Array.from({ length: o.connections }, worker));
  const elapsedMs = performance.now() - t0;
  await pool.close();
  const requests = ok + non2xx + errors;
  return { requests, ok, non2xx, errors, elapsedMs, rps: (ok * 1000) / elapsedMs, ...(firstError ? { firstError } : {}) };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runLoad(JSON.parse(process.argv[2] ?? '{}'));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
