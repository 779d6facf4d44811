// Floor for `udcli achievements list <uid> --json`: the same GET over node:http, the payload
// printed as pretty JSON.   node bench/ref/floor-list.js BASE_URL API_KEY GAME_ID UID
import { done, exchange, payloadOf } from './floor-http.js';

const [base, apiKey, gameId, uid] = process.argv.slice(2);
const r = await exchange(base, 'GET', `/services/rest/v1/achievements/user/${uid}.json?api_key=${apiKey}&type=Game&pid=${gameId}`);
done();
process.stdout.write(`${JSON.stringify(payloadOf(r, 'achievements list'), null, 2)}\n`);
