/** `udcli api <METHOD> <path>`: any request, printing the reply exactly as the server sent it. */
import type { Command } from 'commander';
import type { Factory } from '../../../ops/factory.js';
import type { ApiOptions } from './request.js';
import { addVerb, collect, type Verb } from '../../verb.js';

export const API: Verb = {
  name: 'api',
  description: 'Send any request and print the reply as received',
  arguments: [
    ['<method>', 'GET, POST, PUT or DELETE (any case)'],
    [
      '<path>',
      'relative to the base URL; paths not under /services/, /service/ or /login get /services/rest/v1/ in front',
    ],
  ],
  options: [
    ['-f, --field <name=value>', 'a query parameter (repeatable); api_key is added unless you give one', collect],
    ['--sign', "sign the request with the profile's signing_scheme (agi: the 401 challenge, then session and sig)"],
    [
      '--dry-run',
      'print the request and what its scheme signs (agi: the sorted values and joined string), secrets redacted; send nothing',
    ],
    ['--reason <text>', 'why a change is made: kept in the audit log (required by a profile with require_reason)'],
    ['--ticket <ref>', 'the support ticket a change answers, e.g. SUP-1234: kept with the reason'],
  ],
  after: [
    '',
    'The reply body is printed as received, also for errors (the exit code still tells',
    'what happened: 3 for 401/403, 4 for 404, 1 for other API errors); control and bidi',
    'characters in it are written as \\u escapes, which JSON reads back as the same value.',
    '',
    'A request that may change data is a change like any other: confirmed under a',
    'production profile, and one line in the audit log once its outcome is known (udcli',
    'audit). Only a GET with no method field, or one method=get, is a read. A path with a',
    '. or .. segment, also percent-encoded (%2e), is refused: nothing is sent.',
    '',
    'Examples:',
    '  $ udcli api GET users/01e528d59829836fd23b09085b56edab.json',
    '  $ udcli api GET users/demo_player.json -f username=1',
    '  $ udcli api PUT achievements/user/01e528d59829836fd23b09085b56edab.json \\',
    '      -f type=Game -f pid=1001 -f developer_id=FIRST_WIN -f increment=1 --sign --dry-run',
  ].join('\n'),
  run: async (factory, method: string, path: string, opts: ApiOptions) =>
    (await import('./request.js')).run(factory, { method, path }, opts),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, API);
}
