/**
 * Batch mode end to end: main in-process (the built binary for a run killed midway) against a real sandbox (docs/CLI.md
 * "Batch mode",
 * "Safety for support staff"). Needs `npm run build` first, like every e2e test.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { DEMO_FACTS, DEMO_USER_COUNT } from '../../src/sandbox/seed/demo-data.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { until } from '../until.js';
import { BIN, runInProcess, withDb, type CliResult, type TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

const NAMED = DEMO_FACTS.users.map((u) => u.username);
const GENERATED = Array.from({ length: DEMO_USER_COUNT - NAMED.length }, (_, i) => generatedUsername(i + 1));
const ALL_USERS = [...NAMED, ...GENERATED];

const scratch = fileScratch('udcli-e2e-batch-');
let seq = 0;
function file(name: string, lines: string[]): string {
  const p = join(scratch, `${++seq}-${name}`);
  writeFileSync(p, `${lines.join('\n')}\n`);
  return p;
}

type Line = {
  input: string;
  uid: string | null;
  status: string;
  result?: Record<string, unknown>;
  error?: { message: string; code?: number };
};
const ndjson = (r: CliResult): Line[] =>
  r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

function achievementValues(env: TestEnv, developerId: string): Map<string, number> {
  return withDb(env, (db) => {
    const rows = db
      .prepare(
        `SELECT ua.uid AS uid, ua.current_value AS v FROM user_achievements ua
         JOIN achievements a ON a.id = ua.achievement_id WHERE a.parent_id = '1001' AND a.developer_id = ?`,
      )
      .all(developerId) as Array<{ uid: string; v: number }>;
    return new Map(rows.map((r) => [r.uid, r.v]));
  });
}

function productQuantities(env: TestEnv, sku: string): Map<string, number> {
  return withDb(env, (db) => {
    const rows = db
      .prepare(
        `SELECT h.uid AS uid, h.quantity AS q FROM holdings h JOIN products p ON p.parent_id = h.parent_id AND p.item = h.item WHERE p.parent_id = '1001' AND p.sku = ?`,
      )
      .all(sku) as Array<{ uid: string; q: number }>;
    return new Map(rows.map((r) => [r.uid, r.q]));
  });
}

describe('batch mode (e2e)', () => {
  let env: TestEnv;
  beforeAll(({ sandbox }) => {
    env = sandbox;
  });
  const run = (args: string[], input?: string) => runInProcess(args, env.env, input === undefined ? {} : { input });

  it('resets FIRST_WIN for 200 list entries (uids and usernames): every one ok, state reset, one audit line each', async () => {
    // The named demo users by username, 150 generated ones by uid, a comment, a blank line, and 45
    // of them listed again by username: 200 entries, 155 users. More than the 16 in flight at once,
    // every kind of line and repeated users: what the list's size proves (the full 1,500 demo users
    // took 25 s and proved nothing more).
    const listed = GENERATED.slice(0, 150);
    const lines = ['# CI testers', ...NAMED, ...listed.map(uidForUsername), '', ...listed.slice(0, 45)];
    const list = file('testers.txt', lines);
    const r = await run(['achievements', 'reset', `@${list}`, 'FIRST_WIN', '--concurrency', '16']);
    expect(r.code, r.stderr).toBe(0);
    const out = ndjson(r);
    expect(out).toHaveLength(200);
    expect(out.filter((l) => l.status !== 'ok')).toEqual([]);
    expect(new Set(out.map((l) => l.uid)).size).toBe(155);
    expect(out.find((l) => l.input === 'alice')).toMatchObject({ uid: uidForUsername('alice'), status: 'ok' });
    expect(r.stderr).toMatch(/200 items: 200 ok, 0 failed, 0 unknown, 0 skipped/);

    const values = achievementValues(env, 'FIRST_WIN');
    for (const u of [...NAMED, ...listed]) expect(values.get(uidForUsername(u)) ?? 0).toBe(0);
    // One outcome line each (every one closing its intent, written before sending).
    const audit = readFileSync(join(env.configDir, 'audit.log'), 'utf8')
      .trim()
      .split('\n')
      .filter((l) => (JSON.parse(l) as { kind?: string }).kind !== 'intent');
    expect(audit).toHaveLength(200);
    const aliceLine = audit
      .map((l) => JSON.parse(l) as { uid: string; change: string; undo: string })
      .find((e) => e.uid === uidForUsername('alice'));
    expect(aliceLine).toMatchObject({
      change: expect.stringMatching(/1\/1 Completed → 0\/1 In Progress/),
      undo: expect.stringMatching(/achievements set \w+ FIRST_WIN 100%/),
    });
  }, 150_000);

  it('--dry-run prints what would be sent for each user and changes nothing', async () => {
    const before = productQuantities(env, 'xp-boost');
    const r = await run(['products', 'take', '@-', 'xp-boost', '--qty', '1', '--dry-run'], 'alice\nbob\n');
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r).map((l) => l.status)).toEqual(['dry-run', 'dry-run']);
    expect(productQuantities(env, 'xp-boost')).toEqual(before);
  });

  it('an unknown username is reported failed, the rest go through, exit 6', async () => {
    const list = file('mixed.txt', ['carol', 'no_such_user_zz', 'dave']);
    const r = await run(['achievements', 'inc', `@${list}`, 'DAILY_STREAK_7', '--by', '2']);
    expect(r.code, r.stderr).toBe(6);
    const byInput = new Map(ndjson(r).map((l) => [l.input, l]));
    expect(byInput.get('no_such_user_zz')).toMatchObject({ status: 'failed', uid: null, error: { code: 404 } });
    expect(byInput.get('carol')!.status).toBe('ok');
    expect(achievementValues(env, 'DAILY_STREAK_7').get(uidForUsername('dave'))).toBe(2);
  });

  it('a missing list file is a usage error (exit 2) naming it', async () => {
    const r = await run(['achievements', 'reset', '@/nonexistent/testers.txt', 'FIRST_WIN']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('/nonexistent/testers.txt');
  });

  it('--rate spaces the users out', async () => {
    const list = file('rate.txt', GENERATED.slice(600, 611).map(uidForUsername));
    const started = Date.now();
    const r = await run(['achievements', 'reset', `@${list}`, 'SECRET_ROOM', '--rate', '10/s']);
    expect(r.code, r.stderr).toBe(0);
    expect(ndjson(r)).toHaveLength(11);
    // A lower bound, which a slow machine only passes more easily: 11 starts at 10/s take 1 s at
    // least, where the same batch unspaced takes a tenth of that.
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('a give killed with SIGKILL and resumed with the same journal gives each user exactly one, never two', async () => {
    // Killed at 100 journal lines (two a user): about 50 users before the kill, 150 after it; far
    // more than the 8 a batch has in flight, so some are done, some unknown, most still to do.
    const GIVEN = ALL_USERS.slice(0, 200);
    const list = file('give.txt', GIVEN);
    const journal = join(scratch, 'give.journal');
    const before = productQuantities(env, 'xp-boost');
    const args = ['products', 'give', `@${list}`, 'xp-boost', '--qty', '1', '--journal', journal];
    const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env.env };
    delete base.FORCE_COLOR;
    // The binary: a process killed mid-run.
    const child = spawn(process.execPath, [BIN, ...args], { env: base, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
    const journaled = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').length : 0);
    await until(() => journaled() >= 100, 'the journal to reach 100 lines', {
      timeoutMs: 60_000,
      intervalMs: 10,
    }).finally(() => child.kill('SIGKILL'));
    await exited;
    expect(journaled()).toBeLessThan(2 * GIVEN.length); // killed mid-run

    const r = await run(args);
    expect([0, 6]).toContain(r.code); // 6 when a user was in flight at the kill (reported unknown)
    const out = ndjson(r);
    expect(out).toHaveLength(GIVEN.length);
    const after = productQuantities(env, 'xp-boost');
    const unknown = new Set(out.filter((l) => l.status === 'unknown').map((l) => l.uid));
    expect(unknown.size).toBeLessThanOrEqual(8);
    expect(out.filter((l) => l.status === 'skipped').length).toBeGreaterThan(25);
    for (const u of GIVEN) {
      const uid = uidForUsername(u);
      const added = (after.get(uid) ?? 0) - (before.get(uid) ?? 0);
      if (unknown.has(uid)) expect(added).toBeLessThanOrEqual(1);
      else expect(added, `${u} got ${added}`).toBe(1);
    }
  }, 150_000);

  it('with the sandbox rate-limiting, 429s are retried by the client and the batch still succeeds', async ({
    newSandbox,
  }) => {
    // 10 users, three requests each, at most 20 a second: the first second's 20 leave the rest to
    // a 429 with Retry-After. (Every second beyond the first is a wait: one is enough.)
    const limited = await newSandbox({ rateLimitPerSecond: 20 });
    try {
      const list = file('limited.txt', GENERATED.slice(0, 10).map(uidForUsername));
      const r = await runInProcess(
        ['achievements', 'reset', `@${list}`, 'LEVEL_10', '--concurrency', '8'],
        limited.env,
      );
      expect(r.code, r.stderr).toBe(0);
      expect(ndjson(r).filter((l) => l.status !== 'ok')).toEqual([]);
      expect(ndjson(r)).toHaveLength(10);
      const log = (await (await fetch(`${limited.sandbox.url}/_sandbox/requests?limit=1000`)).json()) as {
        requests: Array<{ status: number }>;
      };
      expect(log.requests.filter((q) => q.status === 429).length).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  }, 150_000);

  it('under a production profile: refused off a terminal without --yes (exit 2, nothing sent); with --yes it runs once the banner is shown', async () => {
    const add = await run(['profile', 'add', 'live', '--base-url', env.sandbox.url, '--production']);
    expect(add.code, add.stderr).toBe(0);
    const list = file('prod.txt', ['bob']);
    const gems = () => achievementValues(env, 'COLLECT_1000_GEMS').get(uidForUsername('bob'));
    const was = gems();
    const refused = await run(['--profile', 'live', 'achievements', 'reset', `@${list}`, 'COLLECT_1000_GEMS']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/PRODUCTION profile "live"/);
    expect(refused.stderr).toMatch(/without --yes/);
    expect(gems()).toBe(was);

    const ok = await run(['--profile', 'live', 'achievements', 'reset', `@${list}`, 'COLLECT_1000_GEMS', '--yes']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(gems()).toBe(0);
    const audit = await run(['audit', '--profile', 'live', '--json']);
    expect(audit.code, audit.stderr).toBe(0);
    const entries = JSON.parse(audit.stdout) as Array<{
      uid: string;
      profile: string;
      before: { current_value: number };
    }>;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ uid: uidForUsername('bob'), profile: 'live', before: { current_value: 999 } });
  });
});
