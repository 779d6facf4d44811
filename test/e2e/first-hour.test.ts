/**
 * Issue 33, as a new user meets it: batches found where they are used (`@FILE` in the argument
 * help, a `@FILE --journal` example that runs as printed, `udcli batch` pointing there), wrong
 * credentials caught early (a refused key on `user` warns; doctor tries an hmac secret with a
 * signed request that changes nothing), and swapped arguments stopped with the hint before
 * anything is sent. In-process through `main`, against a real sandbox on port 0.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { main } from '../../src/cli/main.js';
import { declarationFiles } from '../../src/ops/args.js';
import { DEMO } from '../../src/domain/demo.js';
import { fakeIO } from '../output/fake-io.js';
import {
  json,
  type CliResult,
  type TestEnv,
  lastRequestId as harnessLastRequestId,
  loggedSince as harnessLoggedSince,
} from './harness.js';

let env: TestEnv;
let scratch: string;
beforeAll(async ({ sandbox }) => {
  env = sandbox;
  scratch = mkdtempSync(join(tmpdir(), 'udcli-first-hour-'));
});
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
});

const lastRequestId = () => harnessLastRequestId(env.sandbox.url);
const loggedSince = (id: number) => harnessLoggedSince(env.sandbox.url, id);

const lines = (text: string): string[] => text.split('\n').filter((l) => l !== '');

describe('batches found where they are used', () => {
  it.each(
    [['batch'], ['batch', '--help'], ['help', 'batch'], ['batch', '@testers.txt', 'LEVEL_10']].map(
      (argv) => [argv.join(' '), argv] as const,
    ),
  )('udcli %s: one line pointing to @FILE, exit 2', async (_line, argv) => {
    const f = fakeIO({ env: { UDCLI_CONFIG_DIR: join(scratch, 'config'), NO_COLOR: '1' } });
    const code = await main(argv, f.io);
    expect(code).toBe(2);
    expect(f.stdout()).toBe('');
    expect(f.stderr()).toBe(
      'udcli: there is no batch command; give a command @FILE in place of the user, e.g. udcli achievements inc @users.txt LEVEL_10 --journal run.jsonl\n',
    );
  });

  // Every declared change (the registry's files), on one sandbox and in any order: what one removes
  // is alice's as seeded (FIRST_WIN, 2 xp-boost; no other example removes them) or, her save, set
  // by the test itself just before.
  const BATCH_COMMANDS = declarationFiles().map((m) => `${m[1]} ${m[2]}`);

  it.each(BATCH_COMMANDS)(
    'udcli %s --help says @FILE in its argument help, and its @FILE --journal example runs as printed',
    async (command) => {
      const help = await env.read([...command.split(' '), '--help']);
      expect(help.code, help.stderr).toBe(0);
      const args = /\nArguments:\n([\s\S]*?)\n\n/.exec(help.stdout)?.[1] ?? '';
      expect(args).toMatch(/^ {2}user +a uid \(32 hex digits\) or a username; or @FILE for a\s+batch/);
      const example = new RegExp(`^ {2}\\$ udcli ${command} @users\\.txt (.+) --journal run\\.jsonl$`, 'm').exec(
        help.stdout,
      );
      expect(example, help.stdout).not.toBeNull();

      // The example as printed, its two files in a scratch directory.
      const dir = mkdtempSync(join(scratch, 'example-'));
      writeFileSync(join(dir, 'users.txt'), '# testers\nalice\n');
      const line = example![0].replace(/^ {2}\$ udcli /, '');
      const argv = line.split(' ').map((a) => {
        if (a === '@users.txt') return `@${join(dir, 'users.txt')}`;
        if (a === 'run.jsonl') return join(dir, 'run.jsonl');
        // Any other file the example names (a save's value): made beside the list.
        if (a.startsWith('@')) writeFileSync(join(dir, a.slice(1)), '{"level":3}');
        return a.startsWith('@') ? `@${join(dir, a.slice(1))}` : a;
      });
      if (command === 'saves erase') {
        const saved = await env.run(['saves', 'set', 'alice', argv[3]!, '{"level":3}']);
        expect(saved.code, saved.stderr).toBe(0);
      }
      const r = await env.read(argv);
      expect(r.code, r.stderr).toBe(0);
      expect(lines(r.stdout).map((l) => JSON.parse(l) as { input: string; status: string })).toEqual([
        expect.objectContaining({ input: 'alice', status: 'ok' }),
      ]);
      expect(existsSync(join(dir, 'run.jsonl'))).toBe(true);
      expect(readFileSync(join(dir, 'run.jsonl'), 'utf8')).toContain('alice');
    },
  );
});

describe('credentials checked early', () => {
  // Of the right form, but no key of this sandbox.
  const WRONG_KEY = 'abcdef0123456789abcdef0123456789';

  it('a refused api key on user: the public fields, exit 0, one warning naming where the key came from, the key never in full', async () => {
    const r = await env.read(['user', DEMO.user.username], { env: { UDCLI_API_KEY: WRONG_KEY } });
    expect(r.code, r.stderr).toBe(0);
    expect(Object.keys(json<object>(r)).sort()).toEqual(['avatar', 'uid', 'username']);
    expect(r.stderr).toBe(
      'warning: api_key abcd…6789 (from env UDCLI_API_KEY, profile sandbox) was not accepted: the server answered with the public fields only\n',
    );
    expect(r.stdout + r.stderr).not.toContain(WRONG_KEY);
  });

  it('the right key, or --public on purpose: no warning', async () => {
    const right = await env.read(['user', DEMO.user.username]);
    expect(right.code, right.stderr).toBe(0);
    expect(json<{ email?: string }>(right).email).toBeDefined();
    expect(right.stderr).toBe('');
    const asked = await env.read(['user', DEMO.user.username, '--public'], { env: { UDCLI_API_KEY: WRONG_KEY } });
    expect(asked.code).toBe(0);
    expect(asked.stderr).toBe('');
  });

  interface Check {
    check: string;
    status: string;
    detail: string;
  }
  const HMAC = { UDCLI_SIGNING_SCHEME: 'hmac-sha256-v1' };

  it('doctor with a wrong hmac secret: the signing check fails (exit 1); one signed request, refused, changed nothing', async () => {
    const before = await lastRequestId();
    const r = await env.read(['doctor', '-o', 'json'], {
      env: { ...HMAC, UDCLI_SIGNING_SECRET: 'not-the-secret-of-this-game' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('udcli: doctor: 1 of 7 checks failed\n');
    const signing = json<Check[]>(r).find((c) => c.check === 'signing');
    expect(signing).toMatchObject({
      status: 'fail',
      detail:
        "hmac-sha256-v1 with signing_secret not-…game refused: bad signature (the server's explanation: udcli doctor -v): signed changes (achievements inc/set/reset, products give/take) will fail",
    });
    expect(r.stdout).not.toContain('not-the-secret-of-this-game');
    const puts = (await loggedSince(before)).filter((q) => q.method !== 'GET');
    expect(puts).toEqual([
      expect.objectContaining({
        path: '/services/rest/v1/achievements/user/00000000000000000000000000000000.json',
        status: 403,
      }),
    ]);
  });

  it('doctor with the right hmac secret: verified by the same request, answered "not found"', async () => {
    const before = await lastRequestId();
    const r = await env.read(['doctor', '-o', 'json'], { env: HMAC });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(json<Check[]>(r).find((c) => c.check === 'signing')).toMatchObject({
      status: 'ok',
      detail: expect.stringContaining('accepted'),
    });
    const puts = (await loggedSince(before)).filter((q) => q.method !== 'GET');
    expect(puts).toEqual([expect.objectContaining({ status: 404 })]);
  });

  it('doctor with hmac on a game that takes agi only (1002): the signing check says so and fails', async () => {
    const r = await env.read(['doctor', '-o', 'json'], {
      env: {
        ...HMAC,
        UDCLI_GAME_ID: DEMO.secondGame.id,
        UDCLI_API_KEY: DEMO.secondGame.apiKey,
        UDCLI_SIGNING_SECRET: DEMO.secondGame.signingSecret,
      },
    });
    expect(r.code).toBe(1);
    expect(json<Check[]>(r).find((c) => c.check === 'signing')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('refused: signature required (this game accepts agi only)'),
    });
  });
});

describe('swapped arguments: the hint in every form, exit 2, nothing sent', () => {
  const UID = DEMO.user.uid;
  const FORMS: string[][] = [
    ['achievements', 'inc', 'LEVEL_10', 'alice'],
    ['achievements', 'set', 'LEVEL_10', 'alice', '50%'],
    ['achievements', 'reset', 'LEVEL_10', 'alice'],
    ['achievements', 'delete', 'FIRST_WIN', 'alice', '--yes'],
    ['achievements', 'reset', 'LEVEL_10', UID],
    ['achievements', 'reset', 'LEVEL_10', '@testers.txt'],
    ['achievements', 'reset', 'LEVEL_10', '@testers.txt', '--journal', 'run.jsonl'],
    ['products', 'take', 'gems:500', 'alice', '--concurrency', '4'],
    ['achievements', 'inc', 'SPEED RUN/100%', 'alice'],
    ['products', 'give', 'gems:500', 'alice'],
    ['products', 'take', 'xp-boost', UID],
    ['products', 'give', 'xp-boost', '@testers.txt'],
    ['saves', 'get', 'SLOT_1', 'alice'],
    ['saves', 'set', 'slot1', UID, '{}'],
    ['saves', 'erase', 'SLOT_1', 'demo_player', '--yes'],
  ];

  it.each(FORMS.map((argv) => [argv.join(' '), argv] as const))('udcli %s', async (_line, argv) => {
    const before = await lastRequestId();
    const r: CliResult = await env.read(argv);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    const [message, hint, ...rest] = lines(r.stderr);
    expect(message).toMatch(/^udcli: arguments look swapped: /);
    // The hint shows the command the right way round.
    const [, , key, user] = argv;
    expect(hint).toContain(`udcli ${argv[0]} ${argv[1]} ${user} `);
    expect(hint).toContain(key!.includes(' ') ? `'${key}'` : key);
    expect(rest).toEqual([]);
    expect(await loggedSince(before)).toEqual([]);
  });
});
