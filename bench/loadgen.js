// Loopback load generator on an undici Pool: N connections, one request in flight on each,
// for a fixed duration (or a fixed request count). Counts 2xx replies and errors and prints one
// JSON line. Mode "get" sends the same GET; mode "inc" sends a freshly signed PUT increment
// (hmac-sha256-v1, as the CLI signs) each time, so the server checks every signature; mode "agi"
// makes the platform SDK's exchange for each increment: the unsigned POST (`method=put`, a form
// content type), the 401 challenge {session, key}, the POST signed with it (agi). In mode "agi"
// `ok` counts the changes (signed POSTs answered 2xx) and `rps` is changes per second; a first
// POST not answered with a challenge counts as non-2xx.
//
//   node bench/loadgen.js '{"url":"http://127.0.0.1:PORT","path":"/...","connections":16,"durationMs":2000}'
//   node bench/loadgen.js '{"url":...,"mode":"inc","connections":16,"durationMs":2000,
//                          "inc":{"apiKey":..,"secret":..,"gameId":..,"developerId":..,"uid":..}}'
//   node bench/loadgen.js '{"url":...,"mode":"agi","connections":16,"durationMs":2000,
//                          "inc":{"apiKey":..,"gameId":..,"developerId":..,"uid":..}}'
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Pool } from 'undici';

/**
 * @typedef {object} LoadOptions
 * @property {string} url          origin, http://127.0.0.1:PORT
 * @property {'get' | 'inc' | 'agi'} [mode]
 * @property {string} [path]       for get: path and query
 * @property {number} connections
 * @property {number} [durationMs] stop starting requests after this long
 * @property {number} [requests]   or after this many
 * @property {{ apiKey: string, secret?: string, gameId: string, developerId: string, uid: string }} [inc]
 */

/**
 * @typedef {object} Exchange
 * @property {number} status  the status of the exchange's last reply
 * @property {string} [unexpected]  why the exchange went wrong before its last request, if it did
 */

const HEADERS = { accept: 'application/json' };
const FORM_HEADERS = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };

/**
 * One unit of load: a request (get, inc) or the SDK's two (agi), read to the end.
 * @param {LoadOptions} o
 * @param {import('undici').Pool} pool
 * @returns {Promise<() => Promise<Exchange>>}
 */
async function makeExchange(o, pool) {
  const send = async (/** @type {string} */ path, /** @type {'GET' | 'PUT' | 'POST'} */ method, headers = HEADERS) => {
    const res = await pool.request({ path, method, headers });
    return { status: res.statusCode, body: await res.body.arrayBuffer() };
  };
  const mode = o.mode ?? 'get';
  if (mode === 'get') {
    const path = /** @type {string} */ (o.path);
    return async () => ({ status: (await send(path, 'GET')).status });
  }
  const { canonicalString, hmacSha256Hex, rfc3986 } = await import('../dist/domain/signing.js');
  const inc = /** @type {NonNullable<LoadOptions['inc']>} */ (o.inc);
  const path = `/services/rest/v1/achievements/user/${inc.uid}.json`;
  const query = (/** @type {Array<[string, string]>} */ params) =>
    params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  /** @type {Array<[string, string]>} */
  const increment = [
    ['api_key', inc.apiKey],
    ['type', 'Game'],
    ['pid', inc.gameId],
    ['developer_id', inc.developerId],
    ['increment', '1'],
  ];
  if (mode === 'inc') {
    // The sandbox takes each hmac signature once (issue 31, 5), and thousands of increments a
    // second cannot each have a second of their own: a nonce, signed too, makes each its own
    // request, as udcli's signer does (SERVICE.md: hmac-sha256-v1, 5).
    const { randomBytes } = await import('node:crypto');
    return async () => {
      /** @type {Array<[string, string]>} */
      const params = [
        ...increment,
        ['nonce', randomBytes(16).toString('base64url')],
        ['timestamp', String(Math.floor(Date.now() / 1000))],
      ];
      params.push([
        'signature',
        hmacSha256Hex(/** @type {string} */ (inc.secret), canonicalString('PUT', path, params)),
      ]);
      return { status: (await send(`${path}?${query(params)}`, 'PUT')).status };
    };
  }
  const { agiSignature } = await import('../dist/domain/agi-signing.js');
  /** @type {Array<[string, string]>} */
  const params = [...increment, ['method', 'put']];
  const unsigned = `${path}?${query(params)}`;
  return async () => {
    const first = await send(unsigned, 'POST', FORM_HEADERS);
    /** @type {{ session?: unknown, key?: unknown } | null | undefined} */
    let challenge;
    try {
      challenge = JSON.parse(Buffer.from(first.body).toString('utf8'))?.payload;
    } catch {
      challenge = undefined;
    }
    if (first.status !== 401 || typeof challenge?.session !== 'string' || typeof challenge?.key !== 'string') {
      return { status: first.status, unexpected: `the unsigned POST got HTTP ${first.status}, not the 401 challenge` };
    }
    const { session, key } = /** @type {{ session: string, key: string }} */ (challenge);
    const sig = agiSignature({ path, query: params, session, key });
    return {
      status: (await send(`${path}?${query([...params, ['session', session], ['sig', sig]])}`, 'POST', FORM_HEADERS))
        .status,
    };
  };
}

/** @param {LoadOptions} o */
export async function runLoad(o) {
  const pool = new Pool(o.url, { connections: o.connections, pipelining: 1 });
  const exchange = await makeExchange(o, pool);
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
    // Each connection sends at least one request: a process descheduled between t0 and here (a short --smoke window
    // on a loaded machine) still measures something rather than nothing.
    for (let first = true; started < limit && (first || performance.now() < deadline); first = false) {
      started++;
      try {
        const res = await exchange();
        if (res.unexpected === undefined && res.status >= 200 && res.status < 300) ok++;
        else {
          non2xx++;
          firstError ??= res.unexpected ?? `HTTP ${res.status}`;
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
  return {
    requests,
    ok,
    non2xx,
    errors,
    elapsedMs,
    rps: (ok * 1000) / elapsedMs,
    ...(firstError ? { firstError } : {}),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await runLoad(JSON.parse(process.argv[2] ?? '{}'));
  process.stdout.write(`${JSON.stringify(result)}\n`);
}
