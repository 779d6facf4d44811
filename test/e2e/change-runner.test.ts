/**
 * The change runner as a user meets it (issue 33): a dry run fails where the run would, with the
 * same exit code and nothing sent; a batch's error is one object in every format; --fail-fast
 * sends nothing after the first failure. Commands run in-process through `main` against a real
 * sandbox; what was sent is read from the sandbox's request log.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { CliResult, TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

const scratch = fileScratch('udcli-e2e-change-');
let seq = 0;
function list(lines: string[]): string {
  const p = join(scratch, `${++seq}-testers.txt`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return `@${p}`;
}

type Line = { line: number; input: string; uid: string | null; status: string; error?: unknown };
const ndjson = (r: CliResult): Line[] =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
/** Not a user of the demo data: a uid no one has. */
const GHOST = 'ffffffffffffffffffffffffffffffff';

describe('the change runner (e2e, in-process)', () => {
  let env: TestEnv;
  beforeAll(({ sandbox }) => {
    env = sandbox;
  });

  /** The requests that may change state the sandbox has answered so far (its request log). */
  async function changesSent(): Promise<string[]> {
    const log = (await (await fetch(`${env.sandbox.url}/_sandbox/requests?limit=1000`)).json()) as {
      requests: Array<{ method: string; path: string }>;
    };
    return log.requests
      .filter((q) => q.method !== 'GET' && q.path.startsWith('/services/'))
      .map((q) => `${q.method} ${q.path}`);
  }

  describe('a dry run checks what the run checks, and fails the same way before anything is sent', () => {
    it.for([
      [
        'a quest that does not exist: exit 4 at once, dry or not, where the dry run used to print a line a user',
        ['achievements', 'reset'],
        'NO_SUCH_QUEST',
        /^udcli: not found: achievement NO_SUCH_QUEST/,
      ],
      [
        'a sku that does not exist: exit 4 at once for a batch, dry or not (one read, not a failure a line)',
        ['products', 'give'],
        'NO_SUCH_SKU',
        /^udcli: not found: product NO_SUCH_SKU/,
      ],
    ] as const)('%s', async ([, verb, missing, notFound]) => {
      const testers = list(['alice', 'bob', 'carol']);
      const before = await changesSent();
      const dry = await env.read([...verb, testers, missing, '--dry-run']);
      expect(dry.code, dry.stderr).toBe(4);
      expect(dry.stdout).toBe('');
      expect(dry.stderr).toMatch(notFound);
      expect(await changesSent()).toEqual(before);

      const real = await env.read([...verb, testers, missing]);
      expect(real.code).toBe(4);
      expect(real.stdout).toBe('');
      expect(real.stderr.split('\n')[0]).toBe(dry.stderr.split('\n')[0]);
      expect(await changesSent()).toEqual(before);
    });

    it('a user who does not exist: that line fails (404, not sent) in the dry run as in the run; the others are dry-run lines; exit 6 both', async () => {
      const testers = list(['alice', GHOST, 'bob']);
      const before = await changesSent();
      const dry = await env.read(['products', 'give', testers, 'xp-boost', '--dry-run']);
      expect(dry.code, dry.stderr).toBe(6);
      const lines = new Map(ndjson(dry).map((l) => [l.input, l]));
      expect(lines.get(GHOST)).toMatchObject({ status: 'failed', sent: false, error: { code: 404 } });
      expect(lines.get('alice')).toMatchObject({ status: 'dry-run', uid: uidForUsername('alice') });
      expect(lines.get('bob')).toMatchObject({ status: 'dry-run' });
      expect(await changesSent()).toEqual(before);

      const real = await env.read(['products', 'give', testers, 'xp-boost']);
      expect(real.code).toBe(6);
      // alice's and bob's changes (each may be a challenge and its signed retry): the log sees what is sent
      const sent = (await changesSent()).slice(before.length);
      expect(
        sent.some((q) => q.includes(uidForUsername('alice'))) && sent.some((q) => q.includes(uidForUsername('bob'))),
      ).toBe(true);
      expect(new Map(ndjson(real).map((l) => [l.input, l])).get(GHOST)).toMatchObject({
        status: 'failed',
        sent: false,
        error: { code: 404 },
      });
    });

    it('one user: a quest or a user that does not exist is exit 4 for the dry run as for the run, nothing sent', async () => {
      const before = await changesSent();
      for (const args of [
        ['achievements', 'inc', 'alice', 'NO_SUCH_QUEST'],
        ['achievements', 'set', GHOST, 'FIRST_WIN', '50%'],
        ['products', 'take', GHOST, 'xp-boost'],
      ]) {
        const dry = await env.read([...args, '--dry-run']);
        expect(dry.code, `${args.join(' ')} --dry-run: ${dry.stderr}`).toBe(4);
        expect(dry.stdout).toBe('');
      }
      expect(await changesSent()).toEqual(before);
    });

    it('an invalid save key is refused before anything is read (exit 2)', async () => {
      const r = await env.read(['saves', 'erase', 'alice', 'no spaces allowed', '--yes']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^udcli: invalid key/);
    });
  });

  describe('a batch error is one object in every format (README "Batch mode")', () => {
    it('NDJSON, -o json and --fields all give error as {message, code}', async () => {
      const testers = list(['alice', 'nobody_by_that_name']);
      const expected = { message: 'not found: user named nobody_by_that_name', code: 404 };
      const reset = (...flags: string[]) => env.read(['achievements', 'reset', testers, 'FIRST_WIN', ...flags]);
      const lines = ndjson(await reset());
      expect(lines.find((l) => l.line === 2)!.error).toEqual(expected);

      const json = await reset('-o', 'json');
      expect(json.code).toBe(6);
      const rows = JSON.parse(json.stdout) as Line[];
      expect(rows.find((l) => l.line === 2)!.error).toEqual(expected);
      expect(rows.find((l) => l.line === 1)!.error).toBeNull();

      const fields = await reset('--fields', 'line,error', '-o', 'ndjson');
      expect(ndjson(fields).find((l) => l.line === 2)).toEqual({ line: 2, error: expected });

      // A table and CSV show the message itself.
      const csv = await reset('--fields', 'line,error', '-o', 'csv');
      expect(csv.stdout.split('\n')).toContain(`2,${expected.message}`);
    });
  });

  describe('--fail-fast', () => {
    it('with concurrency 8, nothing is sent after the first failure: the second bad line is not attempted, and the summary says what was in flight', async () => {
      // Line 1 is no user at all (longer than any line a user can be); line 4 is a username that does not exist.
      const testers = list([
        'x'.repeat(5000),
        'alice',
        'bob',
        'nobody_by_that_name',
        'carol',
        'dave',
        'erin',
        'frank',
        'grace',
      ]);
      const before = await changesSent();
      const r = await env.read(['products', 'give', testers, 'xp-boost', '--fail-fast', '--concurrency', '8']);
      expect(r.code, r.stderr).toBe(6);
      const lines = ndjson(r);
      expect(lines.map((l) => [l.line, l.status])).toEqual([[1, 'failed']]);
      expect(r.stderr).toMatch(
        /batch: 1 item: 0 ok, 1 failed.*stopped after the first failure \(--fail-fast\): nothing started after it, none was in flight/,
      );
      expect(await changesSent()).toEqual(before);
    });
  });
});
