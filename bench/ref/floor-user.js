// Bare floor for `udcli user <uid> --json` (the reported `user-floor` row): the same GET over
// node:http, the payload printed as pretty JSON, and nothing else: no argument parsing, no
// config lookup, no dependency. Below what any CLI doing udcli's job can reach; the judged
// `user` row compares with ref/user.js, which loads what udcli loads.
//   node bench/ref/floor-user.js BASE_URL API_KEY UID
import { done, exchange, payloadOf } from './floor-http.js';

const [base, apiKey, uid] = process.argv.slice(2);
const r = await exchange(base, 'GET', `/services/rest/v1/users/${uid}.json?api_key=${apiKey}`);
done();
process.stdout.write(`${JSON.stringify(payloadOf(r, 'user'), null, 2)}\n`);
