#!/usr/bin/env node
/**
 * Like-for-like reference for `udcli achievements list <uid> --json` (the `list` row).
 *
 * The work: what every udcli command does around its requests (ref/like-cli.js) and udcli's two
 * GETs, side by side as udcli sends them: the user's records (a page of 1000) and the game's
 * definitions; then the same rows: the records, and a `Not Started` row for each active quest
 * they do not name. The dependencies: the same packages and node: built-ins as udcli's path
 * (checked by the bench). Why it is the fair floor: the same requests, the same output, the same
 * libraries loaded; nothing of udcli's structure.
 *
 *   node bench/ref/list.js achievements list UID --json   (UDCLI_BASE_URL, UDCLI_API_KEY, UDCLI_GAME_ID set)
 */
// Built-ins udcli's `achievements list` loads besides like-cli.js's (its verbs import the batch
// modules: fs/promises, timers/promises), loaded here too so both sides load the same.
import 'node:fs/promises';
import 'node:timers/promises';
import { exchange, payloadOf, print, profile, run } from './like-cli.js';

await run(
  ['achievements', 'list'],
  ['<uid>'],
  async (/** @type {string} */ uid, /** @type {{ json?: boolean }} */ options) => {
    const { base, apiKey, gameId } = profile();
    const [records, definitions] = await Promise.all([
      exchange(
        base,
        'GET',
        `/services/rest/v1/achievements/user/${uid}.json?api_key=${apiKey}&type=Game&pid=${gameId}&limit=1000&offset=0`,
      ),
      exchange(base, 'GET', `/services/rest/v1/achievements/${gameId}.json?api_key=${apiKey}&type=Game`),
    ]);
    const rows = payloadOf(records, 'achievements list');
    const seen = new Set(rows.map((/** @type {any} */ r) => String(r.developer_id)));
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
    print(rows, options);
  },
);
