// Reference for `udcli achievements inc @FILE DEV_ID --concurrency N`: the same signed PUT
// increments (hmac-sha256-v1, fresh timestamp each) over undici at concurrency N, one NDJSON
// line per user on stdout, a count on stderr, exit 1 if any failed.
//   node bench/ref/batch.js BASE_URL API_KEY SECRET GAME_ID DEV_ID FILE CONCURRENCY
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { canonicalString, hmacSha256Hex, rfc3986 } from '../../dist/spec/signing.js';

const [base, apiKey, secret, gameId, developerId, file, concurrencyText] = process.argv.slice(2);
const concurrency = Number(concurrencyText);
const uids = readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const agent = new Agent({ connections: concurrency });
const { origin } = new URL(base);

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
      ['timestamp', String(Math.floor(Date.now() / 1000))],
    ];
    params.push(['signature', hmacSha256Hex(secret, canonicalString('PUT', path, params))]);
    const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
    const res = await agent.request({ origin, path: `${path}?${query}`, method: 'PUT', headers: { accept: 'application/json' } });
    const envelope = await res.body.json();
    const good = res.statusCode === 200 && envelope.code === 200;
    if (good) ok++;
    else failed++;
    process.stdout.write(`${JSON.stringify({ uid, status: good ? 'ok' : 'failed', result: envelope.payload })}\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
process.stderr.write(`ref batch: ${ok} ok, ${failed} failed\n`);
if (failed > 0) process.exitCode = 1;
