#!/usr/bin/env node
/**
 * Like-for-like reference for `udcli friends <uid> --all -o ndjson` (the `friends` rows).
 *
 * The work: what every udcli command does around its requests (ref/like-cli.js: commander, the
 * config lookup, node:http on one keep-alive connection) and udcli's paging loop: 500 friends a
 * page by offset until a short page, one NDJSON line per friend, one write per page, waiting for
 * stdout to drain (so memory stays flat however long the list). The dependencies: the same
 * packages and node: built-ins as udcli's path (checked by the bench). Why it is the fair floor:
 * the same requests, the same output and the same back-pressure; nothing of udcli's structure.
 * (Until issue 32 it was an undici script: udcli's one-shot commands stopped loading undici in
 * issue 34, so the reference carried a load that udcli no longer has.)
 *
 *   node bench/ref/friends.js friends UID --all -o ndjson   (UDCLI_BASE_URL and UDCLI_API_KEY set)
 */
// Loaded by udcli's output path for streamed formats; loaded here too so both sides load the same.
import 'node:stream/promises';
import { exchange, payloadOf, profile, run } from './like-cli.js';

const LIMIT = 500;

await run(
  ['friends'],
  ['<uid>'],
  async (/** @type {string} */ uid, /** @type {{ all?: boolean, output?: string }} */ options) => {
    if (!options.all || options.output !== 'ndjson') throw new Error('this reference pages with --all -o ndjson only');
    const { base, apiKey } = profile();
    for (let offset = 0; ; offset += LIMIT) {
      const page = payloadOf(
        await exchange(
          base,
          'GET',
          `/services/rest/v1/friends/${uid}.json?api_key=${apiKey}&limit=${LIMIT}&offset=${offset}`,
        ),
        `friends at offset ${offset}`,
      );
      if (page.length > 0) {
        let text = '';
        for (const friend of page) text += `${JSON.stringify(friend)}\n`;
        if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
      }
      if (page.length < LIMIT) break;
    }
  },
  ['--all', '-o, --output <format>'],
);
