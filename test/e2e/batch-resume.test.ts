/**
 * Batch runs that know instead of guessing (issue 13): a 200-user `inc` and `give` with
 * --journal, each killed with SIGKILL at five random moments and resumed every time, end with
 * every user changed exactly once and nothing unknown: items in flight at a kill are decided on
 * resume from the state journaled before sending. The built binary against a real sandbox.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../src/sandbox/seed/prng.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { seededRandom } from '../../src/sandbox/faults/injector.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { until } from '../until.js';
import { BIN, runInProcess, withDb, type TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

// The five kills come within 300 new journal lines (two a user: started, then done), 150 users
// at most (about 50 in practice); 200 users, 400 lines, so every kill lands mid-run and the last
// run still has a part of the list to finish. Five kills, each a process of the built binary,
// catch users in flight as surely as ten did (8 are in flight at any moment of a run).
const USERS = Array.from({ length: 200 }, (_, i) => `tester_${String(i + 1).padStart(4, '0')}`);
const scratch = fileScratch('udcli-e2e-resume-');
let env: TestEnv;

beforeAll(async ({ newSandbox }) => {
  // The demo game's id and keys (what the test env signs with), the players, nothing held or started.
  const data = {
    games: [
      {
        id: DEMO.game.id,
        name: 'Resume Test',
        signing: 'both',
        keys: [{ api_key: DEMO.game.apiKey, signing_secret: DEMO.game.signingSecret }],
        achievements: [{ developer_id: 'STEPS', name: 'Steps', target_value: 1000000 }],
        products: [{ sku: 'gems', type: 'consumable', packs: [10], name: 'Gems', price: '0.99' }],
      },
    ],
    users: USERS.map((username) => ({ username })),
  };
  const file = join(scratch, 'resume.json');
  writeFileSync(file, JSON.stringify(data));
  env = await newSandbox({ data: file });
});

function readDb<T>(sql: string, ...params: unknown[]): T[] {
  return withDb(env, (db) => db.prepare(sql).all(...params) as T[]);
}

/**
 * The journal's lines as `readFileSync(file).split('\n').length` counts them (0 while there is no file), read a
 * poll at a time from the end of the last whole line: the kills poll every 2 ms, and reading the whole journal each
 * time was most of this file's CPU. A resume cuts a torn last line back to that end (so it is read again), and a
 * journal that shrank further is counted again from its start.
 */
function journalLines(file: string): () => number {
  let counted = 0;
  let newlines = 0;
  const chunk = Buffer.alloc(64 * 1024);
  return () => {
    if (!existsSync(file)) return 0;
    const fd = openSync(file, 'r');
    try {
      if (fstatSync(fd).size < counted) [counted, newlines] = [0, 0];
      for (let at = counted, n: number; (n = readSync(fd, chunk, 0, chunk.length, at)) > 0; at += n) {
        for (let i = 0; i < n; i++) {
          if (chunk[i] !== 0x0a) continue;
          newlines++;
          counted = at + i + 1;
        }
      }
    } finally {
      closeSync(fd);
    }
    return newlines + 1;
  };
}

/**
 * Runs the command, killing it with SIGKILL at five random moments (after 1 to 60 new journal lines), then lets it
 * finish.
 */
async function killFiveTimesThenFinish(args: string[], journal: string, seed: number) {
  const next = mulberry32(seed);
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env.env };
  delete base.FORCE_COLOR;
  const lines = journalLines(journal);
  const kills: number[] = [];
  let killedOutput = '';
  for (let k = 0; k < 5; k++) {
    const from = lines();
    const target = from + 1 + Math.floor(next() * 60);
    const child = spawn(process.execPath, [BIN, ...args], { env: base, stdio: ['ignore', 'pipe', 'ignore'] });
    child.stdout.on('data', (chunk: Buffer) => (killedOutput += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    let done = false;
    void exited.then(() => (done = true));
    await until(() => done || lines() >= target, `the journal to reach ${target} lines`, {
      timeoutMs: 60_000,
      intervalMs: 2,
    }).finally(() => child.kill('SIGKILL'));
    await exited;
    kills.push(lines());
  }
  const last = await runInProcess(args, env.env);
  // Complete lines only: a kill may cut the last one.
  const resolved = [...killedOutput.split('\n').slice(0, -1), ...last.stdout.split('\n')].filter((l) =>
    l.includes('"resolved"'),
  ).length;
  return { kills, last, resolved };
}

type Line = { input: string; status: string; resolved?: { how: string } };
const ndjson = (stdout: string): Line[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);

/**
 * The runs were killed at distinct moments, some users in flight were resolved, and the last run reported every user
 * ok.
 */
function expectEveryUserFinished({ kills, last, resolved }: Awaited<ReturnType<typeof killFiveTimesThenFinish>>): void {
  expect(new Set(kills).size, `journal lines at each kill: ${kills.join(', ')}`).toBeGreaterThan(2);
  // Kills caught users in flight, and resumes decided them from the journaled state.
  expect(resolved).toBeGreaterThan(0);
  expect(last.code, last.stderr).toBe(0);
  const out = ndjson(last.stdout);
  expect(out).toHaveLength(USERS.length);
  expect(out.filter((l) => l.status === 'unknown' || l.status === 'failed')).toEqual([]);
}

describe('killed five times and resumed (issue 13)', () => {
  it('inc by 1: every one of 200 users incremented exactly once, nothing unknown', async () => {
    const list = join(scratch, 'inc.txt');
    writeFileSync(list, `${USERS.join('\n')}\n`);
    const journal = join(scratch, 'inc.journal');
    expectEveryUserFinished(
      await killFiveTimesThenFinish(['achievements', 'inc', `@${list}`, 'STEPS', '--journal', journal], journal, 13),
    );
    const values = readDb<{ uid: string; v: number }>(
      `SELECT ua.uid AS uid, ua.current_value AS v FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id
       WHERE a.parent_id = ? AND a.developer_id = 'STEPS'`,
      DEMO.game.id,
    );
    const byUid = new Map(values.map((r) => [r.uid, r.v]));
    const wrong = USERS.filter((u) => byUid.get(uidForUsername(u)) !== 1);
    expect(wrong.map((u) => `${u}=${byUid.get(uidForUsername(u)) ?? 0}`)).toEqual([]);
  }, 240_000);

  it('give a consumable: every one of 200 users given exactly one unit, nothing unknown', async () => {
    const list = join(scratch, 'give.txt');
    writeFileSync(list, `${USERS.join('\n')}\n`);
    const journal = join(scratch, 'give.journal');
    expectEveryUserFinished(
      await killFiveTimesThenFinish(
        ['products', 'give', `@${list}`, 'gems', '--qty', '1', '--journal', journal],
        journal,
        31,
      ),
    );
    const held = readDb<{ uid: string; q: number }>(
      `SELECT uid, quantity AS q FROM holdings WHERE parent_id = ?`,
      DEMO.game.id,
    );
    const byUid = new Map(held.map((r) => [r.uid, r.q]));
    const wrong = USERS.filter((u) => byUid.get(uidForUsername(u)) !== 1);
    expect(wrong.map((u) => `${u}=${byUid.get(uidForUsername(u)) ?? 0}`)).toEqual([]);
  }, 240_000);
});

/**
 * What a rerun prints, and what its refusals and hints say (issue 54, points 3 and 4): the
 * shared demo sandbox, the commands run in-process through main, the piped NDJSON parsed.
 */
/** A seed under which the first `misses` draws of probability 0.5 miss and the next `hits` hit. */
function seedMissingFirst(misses: number, hits: number): number {
  for (let seed = 1; ; seed++) {
    const random = seededRandom(seed);
    const draws = Array.from({ length: misses + hits }, () => random());
    if (draws.every((x, i) => (i < misses ? x >= 0.5 : x < 0.5))) return seed;
  }
}
/** `achievements reset @FILE` reads the achievement's definition once, before any user. */
const ONCE_CHECKS = 1;

describe('a rerun with the journal, as a script reads it (issue 54)', () => {
  let demo: TestEnv;
  beforeAll(({ sandbox }) => {
    demo = sandbox;
  });
  const run = (args: string[]) => runInProcess(args, demo.env);
  let n = 0;
  const list = (lines: string[]) => {
    const p = join(scratch, `issue54-${++n}.txt`);
    writeFileSync(p, `${lines.join('\n')}\n`);
    return p;
  };
  type Out = {
    line: number;
    input: string;
    uid: string | null;
    status: string;
    result?: { before?: unknown; after?: unknown; undo?: string | null; change?: string };
    earlier?: { at?: string; note?: string };
    error?: { message: string; code?: number };
  };
  const out = (stdout: string): Out[] =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Out);

  it('after a partial first run, the rerun alone prints every line of the list: skipped ones with their uid and what the first run did', async () => {
    const users = Array.from({ length: 12 }, (_, i) => generatedUsername(200 + i));
    // Line 1 a comment; line 8 a user that does not exist, so the first run leaves it unfinished.
    const file = list(['# testers', ...users.slice(0, 6), 'no_such_tester_54', ...users.slice(6)]);
    const journal = join(scratch, 'issue54-partial.journal');
    const args = ['achievements', 'inc', `@${file}`, 'DAILY_STREAK_7', '--journal', journal];
    const first = await run(args);
    expect(first.code, first.stderr).toBe(6);
    const firstOk = new Map(
      out(first.stdout)
        .filter((l) => l.status === 'ok')
        .map((l) => [l.line, l]),
    );
    expect(firstOk.size).toBe(12);

    const again = await run(args);
    expect(again.code, again.stderr).toBe(6);
    const lines = out(again.stdout);
    // One line per user line of the list, each once.
    expect(lines.map((l) => l.line).sort((a, b) => a - b)).toEqual(Array.from({ length: 13 }, (_, i) => i + 2));
    for (const l of lines.filter((x) => x.status === 'skipped')) {
      const was = firstOk.get(l.line)!;
      expect(l.uid, `line ${l.line}`).toBe(uidForUsername(l.input));
      expect(l.result).toEqual(was.result);
      expect(l.result?.undo).toMatch(/^udcli achievements /);
      expect(l.earlier?.at).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(lines.filter((l) => l.status === 'skipped')).toHaveLength(12);
    expect(lines.find((l) => l.line === 8)).toMatchObject({ status: 'failed', error: { code: 404 } });
  });

  it('a journal written by an older udcli (no details kept): skipped lines still carry the uid, and say the details are not there', async () => {
    const users = Array.from({ length: 4 }, (_, i) => generatedUsername(230 + i));
    const file = list(users);
    const journal = join(scratch, 'issue54-old.journal');
    const args = ['achievements', 'inc', `@${file}`, 'DAILY_STREAK_7', '--journal', journal];
    expect((await run(args)).code).toBe(0);
    // What the previous udcli wrote: the same records without the result.
    const [header, ...records] = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    const old = records.map((r) => {
      const { result: _r, resolved: _s, ...rest } = JSON.parse(r) as Record<string, unknown>;
      return JSON.stringify(rest);
    });
    writeFileSync(journal, `${[header, ...old].join('\n')}\n`);
    const again = await run(args);
    expect(again.code, again.stderr).toBe(0);
    const lines = out(again.stdout);
    expect(lines).toHaveLength(4);
    for (const l of lines) {
      expect(l).toMatchObject({ status: 'skipped', uid: uidForUsername(l.input) });
      expect(l.result).toBeUndefined();
      expect(l.earlier?.note).toMatch(/not in this journal/);
    }
  });

  it('a list changed on one line is refused naming that line; several changed lines, the first of them', async () => {
    const users = Array.from({ length: 200 }, (_, i) => generatedUsername(300 + i));
    const lines = ['# testers', ...users];
    const journal = join(scratch, 'issue54-changed.journal');
    const args = (f: string) => ['achievements', 'reset', `@${f}`, 'SECRET_ROOM', '--journal', journal];
    expect((await run(args(list(lines)))).code).toBe(0);

    const one = [...lines];
    one[100] = 'someone_else_54';
    const r = await run(args(list(one)));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`line 101 was "${users[99]}", now "someone_else_54"`);
    expect(r.stderr).not.toMatch(/lines 2–201/);

    const several = [...lines];
    for (const at of [40, 101, 150, 190, 199]) several[at - 1] = `changed_${at}`;
    const s = await run(args(list(several)));
    expect(s.code).toBe(2);
    expect(s.stderr).toContain(`line 40 was "${users[38]}", now "changed_40"`);
    expect(s.stderr).toContain(`line 101 was "${users[99]}", now "changed_101"`);
    expect(s.stderr).toMatch(/and more/);
    expect(s.stderr).not.toContain('changed_199');
  });

  it('a user not found (404) is not worth a rerun: the hint says so; a server error keeps the rerun hint', async ({
    newSandbox,
  }) => {
    const file = list([generatedUsername(520), 'no_such_tester_54b', generatedUsername(521)]);
    const journal = join(scratch, 'issue54-404.journal');
    const r = await run(['achievements', 'reset', `@${file}`, 'SECRET_ROOM', '--journal', journal]);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/not found/);
    expect(r.stderr).toMatch(/line 2/);
    expect(r.stderr).toMatch(/a rerun will not help/);
    expect(r.stderr).not.toMatch(/rerun the same command/);

    // A 502 for every request after the checks the batch makes once: the user's read fails.
    const failing = await newSandbox({ faults: { spec: 'html-502=0.5', seed: seedMissingFirst(ONCE_CHECKS, 12) } });
    const f = list([uidForUsername(generatedUsername(522))]);
    const j = join(scratch, 'issue54-502.journal');
    const bad = await runInProcess(
      ['achievements', 'reset', `@${f}`, 'SECRET_ROOM', '--journal', j, '--retries', '0'],
      failing.env,
    );
    expect(bad.code, bad.stderr).toBe(6);
    expect(bad.stderr).toContain(`rerun the same command with --journal ${j} to retry`);
  });
});
