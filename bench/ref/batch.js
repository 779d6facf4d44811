// References for `udcli achievements inc @FILE DEV_ID --concurrency N` under agi, the
// platform's signing scheme and udcli's default. Per user the exchange of the platform's SDK
// (and of udcli): the increment sent unsigned as POST + method=put with a form content type, the
// 401 challenge {session, key}, then the signed retry (session and sig; at most 3 signed
// attempts). Over undici (as udcli's batches) at concurrency N, one NDJSON line per user on
// stdout, a count on stderr, exit 1 if any failed. PROTOCOL chooses what else it does:
//
// - read-first (the `batch` rows' judged reference): before each change, the user's record of
//   that achievement is read (GET achievements/user/UID.json?developer_id=...), as udcli must:
//   a change whose reply is lost can only be judged applied or not against the value read
//   before it, so udcli cannot skip the read without giving up deciding lost replies. The read
//   travels beside the unsigned POST (which changes nothing: it only fetches the challenge) and
//   the signed POST waits for both, the least time three requests with that order can take;
//   udcli does the same (RequestSpec.beforeChange), and so the agent gets two connections per
//   user in flight, as udcli's. The same requests per user as udcli (the bench counts them in
//   the sandbox's request lines), minus udcli's structure: the fair floor.
// - two-request (the `-2req` rows, reported): the SDK's two requests and no read, what a script
//   that does not care about lost replies sends; the cost of the read shows as the gap between
//   the two rows.
//
//   node bench/ref/batch.js BASE_URL API_KEY GAME_ID DEV_ID FILE CONCURRENCY [read-first|two-request]
import { readFileSync } from 'node:fs';
import { Agent } from 'undici';
import { agiSignature } from '../../dist/domain/agi-signing.js';
import { rfc3986 } from '../../dist/domain/signing.js';

const [base, apiKey, gameId, developerId, file, concurrencyText, protocol = 'read-first'] = process.argv.slice(2);
if (protocol !== 'read-first' && protocol !== 'two-request') throw new Error(`unknown protocol ${protocol}`);
const readFirst = protocol === 'read-first';
const concurrency = Number(concurrencyText);
const uids = readFileSync(file, 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const agent = new Agent({ connections: readFirst ? 2 * concurrency : concurrency });
const { origin } = new URL(base);
const headers = { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' };
const MAX_SIGNED_ATTEMPTS = 3;

/** @param {string} path @param {Array<[string, string]>} params */
async function post(path, params) {
  const query = params.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
  const res = await agent.request({ origin, path: `${path}?${query}`, method: 'POST', headers });
  return { status: res.statusCode, envelope: await res.body.json() };
}

/** The user's record of the achievement before the change (null when none). @param {string} uid */
async function readBefore(uid) {
  const path = `/services/rest/v1/achievements/user/${uid}.json?api_key=${rfc3986(apiKey)}&type=Game&pid=${rfc3986(gameId)}&developer_id=${rfc3986(developerId)}`;
  const res = await agent.request({ origin, path, method: 'GET', headers: { accept: 'application/json' } });
  const envelope = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`read before the change of ${uid}: HTTP ${res.statusCode}`);
  return (envelope.payload ?? []).find((/** @type {any} */ a) => a.developer_id === developerId) ?? null;
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
    let reply;
    /** @type {any} */
    let before = null;
    if (readFirst) [before, reply] = await Promise.all([readBefore(uid), post(path, params)]);
    else reply = await post(path, params);
    for (
      let n = 1, challenge = challengeOf(reply);
      challenge && n <= MAX_SIGNED_ATTEMPTS;
      n++, challenge = challengeOf(reply)
    ) {
      const sig = agiSignature({ path, query: params, session: challenge.session, key: challenge.key });
      reply = await post(path, [...params, ['session', challenge.session], ['sig', sig]]);
    }
    const good = reply.status === 200 && reply.envelope.code === 200;
    if (good) ok++;
    else failed++;
    const line = { uid, status: good ? 'ok' : 'failed', result: reply.envelope.payload };
    process.stdout.write(`${JSON.stringify(readFirst ? { ...line, before: before?.current_value ?? 0 } : line)}\n`);
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));
await agent.close();
process.stderr.write(`ref batch: ${ok} ok, ${failed} failed\n`);
if (failed > 0) process.exitCode = 1;
