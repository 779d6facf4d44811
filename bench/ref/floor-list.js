// Floor for `udcli achievements list <uid> --json`: the same two GETs over node:http — the
// user's records (a page of 1000) and, beside it, the game's definitions — and the same JSON:
// the records, then a `Not Started` row for each active quest they do not name.
//   node bench/ref/floor-list.js BASE_URL API_KEY GAME_ID UID
import { done, exchange, payloadOf } from './floor-http.js';

const [base, apiKey, gameId, uid] = process.argv.slice(2);
const [records, definitions] = await Promise.all([
  exchange(base, 'GET', `/services/rest/v1/achievements/user/${uid}.json?api_key=${apiKey}&type=Game&pid=${gameId}&limit=1000&offset=0`),
  exchange(base, 'GET', `/services/rest/v1/achievements/${gameId}.json?api_key=${apiKey}&type=Game`),
]);
done();
const rows = payloadOf(records, 'achievements list');
const seen = new Set(rows.map((r) => String(r.developer_id)));
for (const def of payloadOf(definitions, 'achievement definitions')) {
  if (seen.has(String(def.developer_id)) || String(def.state).toLowerCase() === 'inactive') continue;
  rows.push({
    id: null,
    uid,
    achievement_id: def.id,
    parent_id: def.parent_id,
    current_value: def.start_value,
    percent_complete: 0,
    state: 'Not Started',
    started_date: null,
    completed_date: '0000-00-00 00:00:00',
    updated_date: null,
    developer_id: def.developer_id,
    type: def.type,
    name: def.name,
    target_value: def.target_value,
  });
}
process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
