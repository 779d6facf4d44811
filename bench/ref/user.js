#!/usr/bin/env node
/**
 * Like-for-like reference for `udcli user <uid> --json` (the `user` row).
 *
 * The work: what every udcli command does around its requests (ref/like-cli.js: argv parsed by
 * commander, the profile from the same variables or config file, stdout asked whether it is a
 * terminal) and udcli's request: the same GET over node:http, the payload printed as pretty JSON.
 * The dependencies: the same packages and node: built-ins as udcli's path (checked by the bench).
 * Why it is the fair floor: a CLI that parses its arguments with the same library, finds the same
 * configuration and makes the same request cannot do less; udcli's own structure is the rest.
 * The node:http-only floor (ref/floor-user.js, the reported `user-floor` row) also leaves out the
 * dependencies and the argument parsing.
 *
 *   node bench/ref/user.js user UID --json     (UDCLI_BASE_URL and UDCLI_API_KEY set, as for udcli)
 */
import { exchange, payloadOf, print, profile, run } from './like-cli.js';

await run(['user'], ['<uid>'], async (/** @type {string} */ uid, /** @type {{ json?: boolean }} */ options) => {
  const { base, apiKey } = profile();
  const r = await exchange(base, 'GET', `/services/rest/v1/users/${uid}.json?api_key=${apiKey}`);
  print(payloadOf(r, 'user'), options);
});
