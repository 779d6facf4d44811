/**
 * Batch runs that know instead of guessing (issue 13): a 200-user `inc` and `give` with
 * --journal, each killed with SIGKILL at five random moments and resumed every time, end with
 * every user changed exactly once and nothing unknown: items in flight at a kill are decided on
 * resume from the state journaled before sending. The built binary against a real sandbox.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mulberry32 } from '../../src/sandbox/seed/prng.js';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { until } from '../until.js';
import { BIN, runInProcess, withDb, type TestEnv } from './harness.js';

// The five kills come within 300 new journal lines (two a user: started, then done), 150 users
// at most (about 50 in practice); 200 users, 400 lines, so every kill lands mid-run and the last
// run still has a part of the list to finish. Five kills, each a process of the built binary,
// catch users in flight as surely as ten did (8 are in flight at any moment of a run).
const USERS = Array.from({ length: 200 }, (_, i) => `tester_${String(i + 1).padStart(4, '0')}`);
const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-resume-'));
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
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function readDb<T>(sql: string, ...params: unknown[]): T[] {
  return withDb(env, (db) => db.prepare(sql).all(...params) as T[]);
}

/**
 * Runs the command, killing it with SIGKILL at five random moments (after 1 to 60 new journal lines), then lets it
 * finish.
 */
async function killFiveTimesThenFinish(args: string[], journal: string, seed: number) {
  const next = mulberry32(seed);
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env.env };
  delete base.FORCE_COLOR;
  const lines = () => (existsSync(journal) ? readFileSync(journal, 'utf8').split('\n').length : 0);
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
