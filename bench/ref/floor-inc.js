// Floor for `udcli achievements inc <uid> <developer_id> --json` under agi: the requests udcli
// sends, in its order, over node:http: the definition (for an exact undo), the user's record
// before the change, the unsigned POST + method=put (answered with the 401 challenge), the signed
// POST. Prints the reply's payload as pretty JSON and a before → after line on stderr.
//   node bench/ref/floor-inc.js BASE_URL API_KEY GAME_ID DEV_ID UID
import { agiSignature } from '../../dist/domain/agi-signing.js';
import { rfc3986 } from '../../dist/domain/signing.js';
import { done, exchange, payloadOf } from './floor-http.js';

const [base, apiKey, gameId, developerId, uid] = process.argv.slice(2);
const v1 = '/services/rest/v1';
const defs = payloadOf(await exchange(base, 'GET', `${v1}/achievements/${gameId}.json?api_key=${apiKey}&type=Game&developer_id=${developerId}`), 'definition');
const before = payloadOf(await exchange(base, 'GET', `${v1}/achievements/user/${uid}.json?api_key=${apiKey}&type=Game&pid=${gameId}&developer_id=${developerId}`), 'read');
const path = `${v1}/achievements/user/${uid}.json`;
/** @type {Array<[string, string]>} */
const params = [['api_key', apiKey], ['type', 'Game'], ['pid', gameId], ['developer_id', developerId], ['increment', '1'], ['method', 'put']];
const q = (/** @type {Array<[string, string]>} */ p) => p.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
const challenge = await exchange(base, 'POST', `${path}?${q(params)}`);
const { session, key } = challenge.envelope?.payload ?? {};
if (challenge.status !== 401 || !session || !key) {
  process.stderr.write(`inc: HTTP ${challenge.status}, not the challenge\n`);
  process.exit(1);
}
const sig = agiSignature({ path, query: params, session, key });
const after = payloadOf(await exchange(base, 'POST', `${path}?${q([...params, ['session', session], ['sig', sig]])}`), 'inc');
done();
const was = (before ?? []).find((/** @type {any} */ a) => a.developer_id === developerId);
const target = (defs ?? []).find((/** @type {any} */ d) => d.developer_id === developerId)?.target_value;
process.stderr.write(`Changed: ${developerId} of ${uid}: ${was?.current_value ?? 0}/${target} → ${after.current_value}/${target}\n`);
process.stdout.write(`${JSON.stringify(after, null, 2)}\n`);
