/**
 * --faults end to end (issue 11): the CLI (main in-process) against a sandbox that misbehaves on purpose.
 * Each kind at probability 1 gives the CLI what the awkward test platform (test/client/
 * awkward-platform.ts, the shapes the real platform sends) gives it: the same exit code and the
 * same message. A faulted mutation changes nothing (read back from the database), `slow` does;
 * a batch under reset=0.1 changes every user once or reports it unknown. Bad specs: exit 2.
 * Needs `npm run build` first, like every e2e test.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, type NewSandbox } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { seededRandom } from '../../src/sandbox/faults/injector.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { fileAwkwardPlatform, startAwkwardPlatform } from '../client/awkward-platform.js';
import { fileScratch } from '../scratch.js';
import { BIN, demoEnvAt, runCli, runInProcess, withDb, type CliResult, type TestEnv } from './harness.js';

const scratch = fileScratch('udcli-e2e-faults-');
const platform = fileAwkwardPlatform();

let newSandbox: NewSandbox;
beforeAll(({ newSandbox: start }) => {
  newSandbox = start;
});
function sandboxWith(spec: string, seed = 1): Promise<TestEnv> {
  return newSandbox({ faults: { spec, seed } });
}

/** The CLI against the awkward platform, which answers per scenario (the last path element). */
function againstPlatform(args: string[]): Promise<CliResult> {
  return runInProcess(args, { ...demoEnvAt(platform.url, scratch), UDCLI_GAME_ID: undefined });
}

/**
 * Exit code and the first stderr line, with what differs by server taken out: its address, the
 * user asked for, byte counts, and the socket error's code (the sandbox resets the connection,
 * ECONNRESET; the test platform closes it mid-reply, UND_ERR_SOCKET: both "connection lost").
 */
function seen(r: CliResult, base: string): { code: number; line: string } {
  const line = (r.stderr.split('\n')[0] ?? '')
    .replaceAll(base, 'BASE')
    .replace(/\/users\/[^/?\s]+\.json/, '/users/USER.json')
    .replace(/\d+ bytes, starts with .*\)$/, 'N bytes, …)')
    .replace(/\((ECONNRESET|UND_ERR_SOCKET);/, '(SOCKET ERROR;');
  return { code: r.code, line };
}

function value(env: TestEnv, uid: string, developerId: string): number {
  return withDb(env, (db) => {
    const row = db
      .prepare(
        `SELECT ua.current_value AS v FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id
         WHERE ua.uid = ? AND a.parent_id = '1001' AND a.developer_id = ?`,
      )
      .get(uid, developerId) as { v: number } | undefined;
    return row?.v ?? 0;
  });
}

describe('each kind at probability 1 looks to the CLI like the awkward platform', () => {
  it.each([
    ['html-502', 'html-502'],
    ['truncated', 'truncated-200'],
    ['empty', 'empty-200'],
    ['envelope-error', 'error-500-in-200'],
    ['reset', 'reset'],
  ])("%s: `udcli user` sees what it sees from the platform's %s", async (kind, scenario) => {
    const env = await sandboxWith(`${kind}=1`);
    const fromSandbox = await env.run(['user', DEMO.user.username]);
    const fromPlatform = await againstPlatform(['user', scenario]);
    expect(fromSandbox.stdout).toBe('');
    expect(fromSandbox.code).not.toBe(0);
    expect(seen(fromSandbox, env.sandbox.url)).toEqual(seen(fromPlatform, platform.url));
  });

  it("rate-limit: exit 7 like the platform's 429, after waiting out Retry-After on every retry", async () => {
    const env = await sandboxWith('rate-limit=1');
    const r = await env.run(['user', DEMO.user.username, '--retries', '1']);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/^udcli: rate limited: retry after 1 s\n/);
    const fresh = await startAwkwardPlatform();
    try {
      const p = await runInProcess(['user', 'rate-limited', '--retries', '0'], {
        UDCLI_CONFIG_DIR: join(scratch, 'c2'),
        UDCLI_DATA_DIR: join(scratch, 'd2'),
        UDCLI_BASE_URL: fresh.url,
        UDCLI_API_KEY: DEMO.game.apiKey,
      });
      expect(p.code).toBe(7);
      expect(p.stderr).toMatch(/^udcli: rate limited\n/);
    } finally {
      await fresh.close();
    }
    expect(await (await fetch(`${env.sandbox.url}/_sandbox/faults`)).json()).toMatchObject({
      requests: 2,
      counts: { 'rate-limit': 2 },
    });
  });

  it("challenge-again: a challenge loop, as from the platform's agi-loop: 3 signed attempts refused, exit 3, nothing changed", async () => {
    const env = await sandboxWith('challenge-again=1');
    const before = value(env, DEMO.user.uid, 'LEVEL_10');
    const r = await env.run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^udcli: the server refused 3 signed attempts \(last reply: stale session \(unknown, used or expired: sign again with this one\)\): each was refused, so none was applied\n/,
    );
    expect(value(env, DEMO.user.uid, 'LEVEL_10')).toBe(before);
    expect(await (await fetch(`${env.sandbox.url}/_sandbox/faults`)).json()).toMatchObject({
      counts: { 'challenge-again': 3 },
    });
  });
});

/**
 * A seed whose draw number `hitAt` hits and every other of the first `length` draws misses: with
 * it, the fault lands on exactly that request of a known sequence.
 */
function seedFaultingOnly(probability: number, hitAt: number, length = hitAt + 8): number {
  for (let seed = 1; ; seed++) {
    const random = seededRandom(seed);
    const draws = Array.from({ length }, () => random());
    if (draws.every((x, i) => (i === hitAt - 1 ? x < probability : x >= probability))) return seed;
  }
}
// `achievements inc <uid>`: GET the definition, GET the user's record (for the receipt), the
// unsigned POST (challenged), then the signed POST: the 4th request.
const SIGNED_REQUEST = 4;

describe('a faulted signed increment', () => {
  it.each(['html-502', 'truncated', 'reset'])(
    '%s: the reply is lost; the CLI reads the state, finds the increment not applied, and sends it again (applied once)',
    async (kind) => {
      const env = await sandboxWith(`${kind}=0.5`, seedFaultingOnly(0.5, SIGNED_REQUEST));
      const before = value(env, DEMO.user.uid, 'LEVEL_10');
      const r = await env.run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10']);
      expect(r.code, r.stderr).toBe(0);
      // The CLI's own read after the fault: the faulted request changed nothing.
      expect(r.stderr).toContain(
        `Resolved: the reply was lost, and reading the state showed the change was not applied (before ${before}, now ${before} (applied would be ${before + 1})); sent it again`,
      );
      expect(value(env, DEMO.user.uid, 'LEVEL_10')).toBe(before + 1);
      expect(await (await fetch(`${env.sandbox.url}/_sandbox/faults`)).json()).toMatchObject({ counts: { [kind]: 1 } });
    },
  );

  it('envelope-error: an error the envelope states: exit 1, "internal error", not applied and not sent again', async () => {
    const env = await sandboxWith('envelope-error=0.5', seedFaultingOnly(0.5, SIGNED_REQUEST));
    const before = value(env, DEMO.user.uid, 'LEVEL_10');
    const r = await env.run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/^udcli: internal error\n/);
    expect(value(env, DEMO.user.uid, 'LEVEL_10')).toBe(before);
    expect(await (await fetch(`${env.sandbox.url}/_sandbox/faults`)).json()).toMatchObject({
      requests: SIGNED_REQUEST,
      counts: { 'envelope-error': 1 },
    });
  });

  it('slow: applied, and the CLI waits for the late reply (exit 0)', async () => {
    const env = await sandboxWith('slow=1:300ms');
    const before = value(env, DEMO.user.uid, 'LEVEL_10');
    const r = await env.run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('Resolved');
    expect(value(env, DEMO.user.uid, 'LEVEL_10')).toBe(before + 1);
  });

  it('slow beyond --timeout: the reply is lost, the CLI reads the state and finds the increment applied (not sent again)', async () => {
    const env = await sandboxWith('slow=0.5:3s', seedFaultingOnly(0.5, SIGNED_REQUEST));
    const before = value(env, DEMO.user.uid, 'LEVEL_10');
    const r = await env.run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10', '--timeout', '1000']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('Resolved: the reply was lost, and reading the state shows the change was applied');
    expect(value(env, DEMO.user.uid, 'LEVEL_10')).toBe(before + 1);
  });
});

describe('a faulted POST grant of a pack', () => {
  /** Units of gems demo_player holds, read from the database. */
  const gems = (env: TestEnv) =>
    withDb(
      env,
      (db) =>
        (
          db
            .prepare(`SELECT quantity AS q FROM holdings WHERE uid = ? AND parent_id = '1001' AND item = 'gems'`)
            .get(DEMO.user.uid) as { q: number }
        ).q,
    );

  it('slow beyond --timeout: the lost reply is judged against qty × the pack (2 × gems:500 = 1,000 units): applied, not sent again', async () => {
    // `products give <uid> gems:500 --post`: GET the entry (before), then the POST: the 2nd request.
    const env = await sandboxWith('slow=0.5:3s', seedFaultingOnly(0.5, 2));
    const before = gems(env);
    const r = await env.run([
      'products',
      'give',
      DEMO.user.uid,
      'gems:500',
      '--qty',
      '2',
      '--post',
      '--timeout',
      '1000',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `Resolved: the reply was lost, and reading the state shows the change was applied (before ${before} units, now ${before + 1000} units (applied would be ${before + 1000} units))`,
    );
    expect(gems(env)).toBe(before + 1000);
  });
});

describe('a batch under reset=0.1', () => {
  it('every user is changed exactly once or reported unknown (state read back)', async () => {
    const env = await sandboxWith('reset=0.1', 11);
    const users = Array.from({ length: 200 }, (_, i) => uidForUsername(generatedUsername(i + 1)));
    const before = new Map(users.map((u) => [u, value(env, u, 'COLLECT_1000_GEMS')]));
    const list = join(scratch, 'batch-users.txt');
    writeFileSync(list, `${users.join('\n')}\n`);
    // A request that changes nothing (a read, the unsigned first request under agi) is retried when
    // reset; with the default 2 retries, 3 resets in a row (1 in 1000) end an item as `failed`,
    // "nothing was changed". More retries keep that out of a 200-user run.
    const r = await runInProcess(
      ['achievements', 'inc', `@${list}`, 'COLLECT_1000_GEMS', '--by', '3', '--retries', '6'],
      env.env,
    );
    const lines = r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { uid: string | null; status: string; resolved?: { how: string } });
    expect(lines).toHaveLength(200);
    const unknown = lines.filter((l) => l.status === 'unknown').map((l) => l.uid);
    expect(r.code, r.stderr).toBe(unknown.length > 0 ? 6 : 0);
    for (const line of lines) expect(['ok', 'unknown']).toContain(line.status);
    // About 20 signed increments were reset: their replies lost, the state read, each sent again.
    expect(lines.filter((l) => l.resolved?.how === 'sent').length).toBeGreaterThan(0);
    for (const uid of users) {
      const delta = value(env, uid, 'COLLECT_1000_GEMS') - before.get(uid)!;
      // A reset request is never applied: an unknown one changed nothing, every other one changed once.
      expect(delta, uid).toBe(unknown.includes(uid) ? 0 : 3);
    }
    const summary = (await (await fetch(`${env.sandbox.url}/_sandbox/faults`)).json()) as { counts: { reset: number } };
    expect(summary.counts.reset).toBeGreaterThan(0);
  });
});

describe('bad --faults: exit 2, one line, nothing started', () => {
  const dataDir = join(scratch, 'bad-data');
  const env = { UDCLI_DATA_DIR: dataDir, UDCLI_CONFIG_DIR: join(scratch, 'bad-config') };

  it.each([
    [
      'explode=0.1',
      'udcli: invalid --faults: unknown kind "explode" in "explode=0.1" (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)\n',
    ],
    ['reset', 'udcli: invalid --faults: "reset" is not kind=probability\n'],
    ['reset=1.5', 'udcli: invalid --faults: bad probability "1.5" in "reset=1.5": expected a number from 0 to 1\n'],
    [
      'slow=0.1:fast',
      'udcli: invalid --faults: bad delay "fast" in "slow=0.1:fast": expected a duration like 1500ms or 2s (at most 120s)\n',
    ],
    [
      'reset=0.6,empty=0.6',
      'udcli: invalid --faults: the probabilities add up to 1.2, more than 1 (a request gets at most one fault)\n',
    ],
  ])('sandbox start --faults %j', async (spec, stderr) => {
    const r = await runInProcess(['sandbox', 'start', '--port', '0', '--db', ':memory:', '--faults', spec], env);
    expect(r).toEqual({ code: 2, stdout: '', stderr });
    expect(existsSync(join(dataDir, 'sandbox.pid'))).toBe(false);
  });

  it('sandbox exec --faults with a bad spec runs nothing; --fault-seed without --faults is refused', async () => {
    const marker = join(scratch, 'ran');
    const exec = await runInProcess(
      [
        'sandbox',
        'exec',
        '--faults',
        'reset=2',
        '--',
        process.execPath,
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`,
      ],
      env,
    );
    expect(exec).toEqual({
      code: 2,
      stdout: '',
      stderr: 'udcli: invalid --faults: bad probability "2" in "reset=2": expected a number from 0 to 1\n',
    });
    expect(existsSync(marker)).toBe(false);
    const seedOnly = await runInProcess(
      ['sandbox', 'start', '--port', '0', '--db', ':memory:', '--fault-seed', '3'],
      env,
    );
    expect(seedOnly).toEqual({
      code: 2,
      stdout: '',
      stderr: 'udcli: --fault-seed needs --faults: it seeds the draws of the faults\n',
    });
  });
});

describe('sandbox exec --faults', () => {
  it('the command runs against the faulted sandbox; the seed is printed so the run can be replayed', async () => {
    // The binary: exec hands its own stderr to the command, whose line is checked here.
    const r = await runCli(
      [
        'sandbox',
        'exec',
        '--faults',
        'html-502=1',
        '--fault-seed',
        '42',
        '--',
        process.execPath,
        BIN,
        'user',
        DEMO.user.username,
      ],
      {
        UDCLI_DATA_DIR: join(scratch, 'exec-data'),
        UDCLI_CONFIG_DIR: join(scratch, 'exec-config'),
      },
    );
    expect(r.stderr).toContain(
      'udcli: injecting faults into /services/rest/v1: html-502=1 (seed 42; replay with --faults html-502=1 --fault-seed 42)\n',
    );
    expect(r.stderr).toContain('udcli: HTTP 502 Bad Gateway (the reply was not a service envelope)\n');
    expect(r.code).toBe(1);
  });
});
