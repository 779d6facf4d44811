// Reference for `udcli achievements inc @FILE DEV_ID --concurrency N` under agi, the platform's
// signing scheme and udcli's default: per user the same exchange as the platform's SDK (and
// udcli): the increment sent unsigned as POST + method=put with a form content type, the 401
// challenge {session, key}, then the signed retry (session and sig; at most 3 signed attempts).
// Over undici at concurrency N, one NDJSON line per user on stdout, a count on stderr, exit 1 if
// any failed.
//   node bench/ref/batch.js BASE_URL API_KEY GAME_ID DEV_ID FILE CONCURRENCY
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { agiSignature } from '../../dist/domain/agi-signing.js';
import { rfc3986 } from '../../dist/domain/signing.js';

const [base, apiKey, gameId, developerId, file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const uids = readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const agent = new Agent({ connections: concurrency });
const { origin } = new URL(base);
const headers = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
const MAX_SIGNED_ATTEMPTS = 3;

/** @param {string} path @param {Array<[string, string]>} params */
async function post(path, params) {
  const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  const res = await agent.request({ origin, path: `${path}?${query}`, method: 'POST', headers });
  return { status: res.statusCode, envelope: await res.body.json() };
}

/** @param {{ status: number, envelope: any }} r */
const challengeOf = (r) =>
  r.status === 401 && r.envelope?.payload?.session && r.envelope?.payload?.key ? r.envelope.payload : null;

let next = 0;
let ok = 0;
let failed = 0;
async function worker() {
  while (next < uids.length) {
    const uid = uids[next++];
    const path = `/services/rest/v1/achievements/user/${uid}.json`;
    /** @type {Array<[string, string]>} */
    const params = [
      ['api_key', apiKey],
      ['type', 'Game'],
      ['pid', gameId],
      ['developer_id', developerId],
      ['increment', '1'],
      ['method', 'put'],
    ];
    let reply = await post(path, params);
    for (let n = 1, challenge = challengeOf(reply); challenge && n <= MAX_SIGNED_ATTEMPTS; n++, challenge = challengeOf(reply)) {
      const sig = agiSignature({ path, query: params, session: challenge.session, key: challenge.key });
      reply = await post(path, [...params, ['session', challenge.session], ['sig', sig]]);
    }
    const good = reply.status === 200 && reply.envelope.code === 200;
    if (good) ok++;
    else failed++;
    process.stdout.write(`${JSON.stringify({ uid, status: good ? 'ok' : 'failed', result: reply.envelope.payload })}\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
process.stderr.write(`ref batch: ${ok} ok, ${failed} failed\n`);
if (failed > 0) process.exitCode = 1;
