#!/usr/bin/env node
/**
 * Like-for-like reference for `udcli achievements inc <uid> <developer_id> --json` under agi
 * (the `inc` row).
 *
 * The work: what every udcli command does around its requests (ref/like-cli.js) and udcli's four
 * requests, in its order: the definition (for an exact undo), the user's record before the change
 * (to judge a lost reply), the unsigned POST + method=put (answered with the 401 challenge), the
 * POST signed with it (udcli's own agi signing function, the platform's algorithm); the reply's
 * payload printed as pretty JSON, a before → after line on stderr, and one JSON line of the
 * change appended to a 0600 log in the config dir, as udcli's audit log (ref-audit.log: udcli's
 * own stays udcli's). The dependencies: the same
 * packages and node: built-ins as udcli's path (checked by the bench). Why it is the fair floor:
 * the same requests in the same order, the same output, the same libraries loaded; nothing of
 * udcli's structure.
 *
 *   node bench/ref/inc.js achievements inc UID DEV_ID --json   (UDCLI_BASE_URL, UDCLI_API_KEY, UDCLI_GAME_ID set)
 */
// Built-ins udcli's `achievements inc` loads besides like-cli.js's (its audit log, the batch
// modules its verbs import, the confirmation prompt), loaded here too so both sides load the same.
import 'node:fs/promises';
import 'node:readline';
import 'node:readline/promises';
import 'node:timers/promises';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { agiSignature } from '../../dist/domain/agi-signing.js';
import { rfc3986 } from '../../dist/domain/signing.js';
import { configDirectory, exchange, payloadOf, print, profile, run } from './like-cli.js';

await run(
  ['achievements', 'inc'],
  ['<uid>', '<developer_id>'],
  async (/** @type {string} */ uid, /** @type {string} */ developerId, /** @type {{ json?: boolean }} */ options) => {
    const { base, apiKey, gameId } = profile();
    const v1 = '/services/rest/v1';
    const defs = payloadOf(
      await exchange(
        base,
        'GET',
        `${v1}/achievements/${gameId}.json?api_key=${apiKey}&type=Game&developer_id=${developerId}`,
      ),
      'definition',
    );
    const before = payloadOf(
      await exchange(
        base,
        'GET',
        `${v1}/achievements/user/${uid}.json?api_key=${apiKey}&type=Game&pid=${gameId}&developer_id=${developerId}`,
      ),
      'read',
    );
    const path = `${v1}/achievements/user/${uid}.json`;
    /** @type {Array<[string, string]>} */
    const params = [
      ['api_key', apiKey],
      ['type', 'Game'],
      ['pid', gameId],
      ['developer_id', developerId],
      ['increment', '1'],
      ['method', 'put'],
    ];
    const q = (/** @type {Array<[string, string]>} */ p) => p.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
    const challenge = await exchange(base, 'POST', `${path}?${q(params)}`);
    const { session, key } = challenge.envelope?.payload ?? {};
    if (challenge.status !== 401 || !session || !key) {
      process.stderr.write(`inc: HTTP ${challenge.status}, not the challenge\n`);
      process.exit(1);
    }
    const sig = agiSignature({ path, query: params, session, key });
    const after = payloadOf(
      await exchange(base, 'POST', `${path}?${q([...params, ['session', session], ['sig', sig]])}`),
      'inc',
    );
    const was = (before ?? []).find((/** @type {any} */ a) => a.developer_id === developerId);
    const target = (defs ?? []).find((/** @type {any} */ d) => d.developer_id === developerId)?.target_value;
    const dir = configDirectory();
    mkdirSync(dir, { recursive: true });
    const fd = openSync(join(dir, 'ref-audit.log'), 'a', 0o600);
    writeSync(
      fd,
      `${JSON.stringify({ time: new Date().toISOString(), operator: userInfo().username, command: process.argv.slice(2).join(' '), uid, before: was ?? null, after })}\n`,
    );
    closeSync(fd);
    process.stderr.write(
      `Changed: ${developerId} of ${uid}: ${was?.current_value ?? 0}/${target} → ${after.current_value}/${target}\n`,
    );
    print(after, options);
  },
);
