/**
 * Issue 51 point 8: a server's error message is quoted on stderr, and its line breaks are escaped
 * as every other control is (src/printable.ts): a message holding `\nudcli: all changes were
 * applied` cannot write a line of its own. The sandbox escapes its own messages, so a test
 * platform (test/client/awkward-platform.ts, scenario `forged-lines`) sends the raw ones.
 */
import { describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { printable } from '../../src/printable.js';
import { FORGED_MESSAGE, FORGED_TOKEN, SESSION, fileAwkwardPlatform } from '../client/awkward-platform.js';
import { fileScratch } from '../scratch.js';
import { demoEnvAt, runInProcess, type CliResult } from './harness.js';

const scratch = fileScratch('udcli-e2e-server-message-');
const platform = fileAwkwardPlatform();

function againstPlatform(args: string[]): Promise<CliResult> {
  return runInProcess(args, demoEnvAt(platform.url, scratch));
}

describe("a server's error message with line breaks is one line on stderr", () => {
  const cases: ReadonlyArray<[string, string[], number]> = [
    ['an error envelope', ['user', 'forged-lines'], 1],
    ['an error envelope to udcli api', ['api', 'GET', 'users/forged-lines.json'], 1],
    ['a success envelope with no user', ['user', 'forged-lines-no-user'], 1],
    ["the token generator's refusal", ['auth', 'token', 'forged-lines', '--cookie', SESSION], 1],
    ['a token refused with no user', ['auth', 'verify', DEMO.user.uid, FORGED_TOKEN], 3],
  ];
  for (const [what, args, code] of cases) {
    it(`${what}: udcli ${args.join(' ')}`, async () => {
      const r = await againstPlatform(args);
      expect(r.code, r.stderr).toBe(code);
      const lines = r.stderr.split('\n');
      const said = lines.filter((line) => line.startsWith('udcli: '));
      expect(said, r.stderr).toHaveLength(1);
      expect(said[0]).toContain(printable(FORGED_MESSAGE));
      expect(
        lines.some((line) => line.startsWith('second forged line')),
        r.stderr,
      ).toBe(false);
      expect(r.stderr).not.toContain('\r');
    });
  }
});
