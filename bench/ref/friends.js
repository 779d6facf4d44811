// Reference for `udcli friends <uid> --all -o ndjson`: the same paging loop (500 a page, by
// offset) with undici, one NDJSON line per friend, one write per page.
//   node bench/ref/friends.js BASE_URL API_KEY UID
import { Agent } from 'undici';

const [base, apiKey, uid] = process.argv.slice(2);
const agent = new Agent();
const limit = 500;
for (let offset = 0; ; offset += limit) {
  const res = await agent.request({
    origin: base,
    path: `/services/rest/v1/friends/${uid}.json?api_key=${apiKey}&limit=${limit}&offset=${offset}`,
    method: 'GET',
    headers: { accept: 'application/json' },
  });
  const envelope = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode} at offset ${offset}`);
  const page = envelope.payload;
  if (page.length > 0) {
    let text = '';
    for (const friend of page) text += `${JSON.stringify(friend)}\n`;
    if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
  }
  if (page.length < limit) break;
}
await agent.close();
