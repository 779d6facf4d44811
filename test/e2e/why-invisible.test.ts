/**
 * Issue 51 point 7: --reason and --ticket are what an auditor reads and searches by. A character
 * that shows nothing (zero-width, soft hyphen, word joiner, BOM, bidi mark, U+2028/U+2029, a tag
 * character) would make `SUP\u200b-779` look like SUP-779 and never be found by
 * `audit --ticket SUP-779`: each is refused, at either end too, with one line naming it, exit 2,
 * and nothing sent (the sandbox's own request log).
 */
import { describe, expect, it, fileSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { lastRequestId, loggedSince } from './harness.js';

const INVISIBLE: ReadonlyArray<[string, string]> = [
  ['U+200B', '\u200b'], // zero width space
  ['U+200C', '\u200c'], // zero width non-joiner
  ['U+200D', '\u200d'], // zero width joiner
  ['U+2060', '\u2060'], // word joiner
  ['U+FEFF', '\ufeff'], // BOM, zero width no-break space
  ['U+00AD', '\u00ad'], // soft hyphen
  ['U+200E', '\u200e'], // left-to-right mark
  ['U+061C', '\u061c'], // Arabic letter mark
  ['U+180E', '\u180e'], // Mongolian vowel separator
  ['U+2028', '\u2028'], // line separator
  ['U+2029', '\u2029'], // paragraph separator
  ['U+E0001', '\u{e0001}'], // language tag
  ['U+E0041', '\u{e0041}'], // tag latin capital A
  ['U+E007F', '\u{e007f}'], // cancel tag
];

const COMMANDS: ReadonlyArray<[string, string[]]> = [
  ['products give', ['products', 'give', DEMO.user.uid, 'xp-boost']],
  [
    'api PUT',
    [
      'api',
      'PUT',
      `achievements/user/${DEMO.user.uid}.json`,
      '-f',
      'type=Game',
      '-f',
      `pid=${DEMO.game.id}`,
      '-f',
      'developer_id=FIRST_WIN',
      '-f',
      'increment=1',
      '--sign',
    ],
  ],
];

const env = fileSandbox();

describe('invisible characters in --reason and --ticket', () => {
  for (const [command, args] of COMMANDS) {
    for (const [flag, make] of [
      ['--ticket', (ch: string) => [`SUP${ch}-779`, `SUP-779${ch}`, `${ch}SUP-779`]],
      ['--reason', (ch: string) => [`refund${ch} for a lost purchase`, `refund for a lost purchase${ch}`]],
    ] as const) {
      it(`${command} ${flag}: each is refused, one line naming it, exit 2, nothing sent`, async () => {
        const since = await lastRequestId(env.sandbox.url);
        for (const [name, ch] of INVISIBLE) {
          for (const value of make(ch)) {
            const why =
              flag === '--ticket'
                ? ['--reason', 'lost purchase', '--ticket', value]
                : ['--reason', value, '--ticket', 'SUP-779'];
            const r = await env.run([...args, ...why]);
            expect(r.code, `${name} in ${JSON.stringify(value)}: ${r.stderr}`).toBe(2);
            expect(r.stderr).toBe(
              `udcli: invalid ${flag}: ${name} is a control, formatting or invisible character; give one line of visible text\n`,
            );
          }
        }
        expect(await loggedSince(env.sandbox.url, since)).toEqual([]);
      });
    }
  }

  it('the same ticket without them is taken, and audit --ticket finds it', async () => {
    const r = await env.run([...COMMANDS[0]![1], '--reason', 'refund for a lost purchase', '--ticket', 'SUP-779']);
    expect(r.code, r.stderr).toBe(0);
    const found = await env.run(['audit', '--ticket', 'SUP-779', '-o', 'json']);
    expect(found.code, found.stderr).toBe(0);
    expect(JSON.parse(found.stdout)).toMatchObject([{ ticket: 'SUP-779', reason: 'refund for a lost purchase' }]);
  });
});
