/** `udcli sandbox diff [files...]`; the handler is diff.ts. */
import type { DiffOptions } from './diff.js';
import { collect, type Verb } from '../../verb.js';

export const DIFF: Verb = {
  name: 'diff',
  description:
    'Compare a recording of the platform (HAR) with what the sandbox answers: exit 0 same, 1 different, 2 bad input',
  arguments: [['[files...]', 'HAR files: from --har, a browser\'s "Save all as HAR", Playwright\'s recordHar']],
  options: [
    ['--json', 'print one JSON object: compared, same, differing, skipped, differences'],
    [
      '--ignore <path>',
      'leave out this path and what is below it, e.g. payload[].percent_complete (repeatable)',
      collect,
    ],
    ['--strict', 'compare everything, the values that drift between runs (dates, sessions, tokens, ids) too'],
    ['--data <file>', "load this data file into the scratch sandbox before the recording's state"],
    [
      '--live <user>',
      "read this user (uid or username) from the profile's server (reads only: it never sends a change), record and diff",
    ],
    ['--game <id>', "with --live: the game whose quests and products to read (default: the profile's game_id)"],
    ['--save-key <key>', 'with --live: read this game save too'],
  ],
  after: `
Every exchange under /services/rest/v1/ (any host) is sent again to a scratch sandbox (a
temporary database: never the recorded host, never your sandbox), seeded with the state the
recording's replies show, keys mapped to its own and signed changes signed afresh. Differences:
status, format (JSON, XML, HTML, empty), missing (only in the recording), extra (only in the
sandbox), type, value, schema (the recorded reply against the sandbox's OpenAPI description).
Dates, sessions, tokens, signatures and the sandbox's own URLs drift and are not compared
unless --strict. Paths start at the envelope: payload.premium, payload[].product.price.

--live USER (a uid or a username) sends only GET requests (the user, the first page of
friends, the quest definitions and list and the products of --game or the profile's game,
--save-key's save) with the selected profile (or --base-url and --api-key), whatever the
profile: it never changes anything. With --har FILE they are kept.

Examples:
  $ udcli --har session.har achievements inc 0123…cdef FIRST_WIN
  $ udcli sandbox diff session.har
  $ udcli sandbox diff chrome-export.har --ignore payload[].avatar --json
  $ udcli --profile prod sandbox diff --live 0123456789abcdef0123456789abcdef --save-key slot1
  $ udcli sandbox diff --live demo_player --game 1002`,
  run: async (factory, files: string[], opts: DiffOptions) =>
    (await import('./diff.js')).diffCommand(factory, files, opts),
};
