// Reference for `udcli user <uid> --json`: the same GET with undici, the payload printed as
// pretty JSON. Nothing else.   node bench/ref/user.js BASE_URL API_KEY UID
import { request } from 'undici';

const [base, apiKey, uid] = process.argv.slice(2);
const res = await request(`${base}/services/rest/v1/users/${uid}.json?api_key=${apiKey}`, {
  headers: { accept: 'application/json' },
});
const envelope = await res.body.json();
if (res.statusCode !== 200) {
  process.stderr.write(`HTTP ${res.statusCode}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`${JSON.stringify(envelope.payload, null, 2)}\n`);
}
