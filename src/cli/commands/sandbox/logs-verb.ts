/** `udcli sandbox logs`; the handler is logs.ts. */
import type { LogsOptions } from './logs.js';
import type { Verb } from '../../verb.js';
import { WHICH } from './verb-options.js';

export const LOGS: Verb = {
  name: 'logs',
  description:
    "Show the detached sandbox's log like tail: the last 10 lines (start-up messages and one line per request, secrets redacted)",
  after: `
A request line: time, method, path and query (api keys and signatures redacted), status, ms,
and why it failed (an injected fault: "fault: KIND"; a reset fault is logged as 444, no reply).
A signed change sent as the platform's SDK sends it (unsigned, answered by a 401 challenge, then
retried signed) is one line: the retry's, marked "(after signature challenge)"; --challenges
shows the challenges too. A challenge no signed retry answered is shown as the failure it is.
A filter (--status, --path, --since) keeps only the request lines that match all of them;
-n counts the lines shown, after filtering. A foreground sandbox prints the same lines on its
output; GET /_sandbox/requests gives the last 1000 as JSON; sandbox exec --log FILE keeps them.

Examples:
  $ udcli sandbox logs
  $ udcli sandbox logs -n 50 --status 4xx,5xx
  $ udcli sandbox logs --status 401 --challenges
  $ udcli sandbox logs --follow --path /achievements
  $ udcli sandbox logs -n all --since 10m --json | jq .reason`,
  options: [
    ['-n, --lines <n>', 'the last N lines, or all (default: 10)'],
    ['-f, --follow', 'then keep printing lines as they are written, until Ctrl-C (starts at the end)'],
    ['--status <list>', 'only requests with these statuses or classes, e.g. 4xx, 401, 5xx,429'],
    ['--path <text>', 'only requests whose path contains TEXT'],
    ['--since <when>', 'only requests since a duration ago (10m, 2h, 1d) or an ISO date-time'],
    ['--challenges', "also the 401 challenges answered by a signed retry (shown in their retry's line otherwise)"],
    ['--json', 'only the request lines, one JSON object each'],
    ...WHICH,
  ],
  run: async (factory, opts: LogsOptions) => (await import('./logs.js')).logsCommand(factory, opts),
};
