/**
 * What the platform's own JavaScript API pages settle (docs/PLATFORM.md, "What the
 * JavaScript API pages settle"), one test per point, written from those words and not from
 * udcli's code: the sandbox must answer as the platform does, so that a game written against it
 * works in production (`if (q.completed_date)` is true for every quest there, for one).
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { loadData } from '../../src/sandbox/data/load.js';
import { parseDataText } from '../../src/sandbox/data/read.js';
import { inProgressReply, ZERO_DATE } from './helpers/achievement-replies.js';
import { api, call, signedApi, type Params, type TestSandbox } from './helpers/sandbox.js';

const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;
const PLAYER = DEMO.user.uid;
const CAROL = uidForUsername('carol');
const ALICE = uidForUsername('alice');

/** A game of its own with a quest revoked (only a data file can say so) and a user with an email. */
const QA_KEY = 'b84276aa53974b89a8ba0f16ffb7566f';
const QA_FILE = `
games:
  - id: "4711"
    name: QA Quest
    signing: both
    keys: [{ api_key: B84276AA-5397-4B89-A8BA-0F16FFB7566F, signing_secret: qa-secret }]
    achievements:
      - { developer_id: CHEAT_FREE, name: Cheat free, target_value: 10 }
      - { developer_id: WINNER, name: Winner, target_value: 1 }
users:
  - username: qa_revoked
    email: qa_revoked@example.test
    progress:
      "4711":
        CHEAT_FREE: { value: 10, state: Revoked, completed_date: "2024-01-02 03:04:05" }
        WINNER: 1
`;
const QA_USER = uidForUsername('qa_revoked');

let sb: TestSandbox;
beforeAll(async ({ newSb }) => {
  sb = await newSb({ startMs: Date.UTC(2026, 0, 2, 3, 4, 5) });
  loadData(sb.db, parseDataText('qa.yaml', QA_FILE, false), Math.floor(sb.clock.ms / 1000), 'qa.yaml');
});

const quests = (uid: string, params: Params = [], key?: string) =>
  api<Array<Record<string, unknown>>>(sb.url, 'GET', `/achievements/user/${uid}.json`, params, key);
const submit = (
  uid: string,
  developerId: string,
  change: [string, string],
  options: { key?: string; secret?: string; pid?: string } = {},
) =>
  signedApi<Record<string, unknown>>(
    sb,
    'PUT',
    `/achievements/user/${uid}.json`,
    [['pid', options.pid ?? '1001'], ['developer_id', developerId], change],
    options,
  );

describe('quest list (retrieveQuests)', () => {
  it('lists only the quests the user has started; a user new to the game gets an empty array', async () => {
    // carol has never played game 1001: no record, an empty array (the game joins its definitions).
    const fresh = await quests(CAROL);
    expect(fresh.status).toBe(200);
    expect(fresh.body.payload).toEqual([]);
    // demo_player started three of the game's six quests: those three, no others.
    expect((await quests(PLAYER)).body.payload!.map((q) => q.developer_id).sort()).toEqual([
      'COLLECT_1000_GEMS',
      'FIRST_WIN',
      'LEVEL_10',
    ]);
    // Started by a submit: then (and only then) listed.
    await submit(CAROL, 'DAILY_STREAK_7', ['increment', '1']);
    expect((await quests(CAROL)).body.payload!.map((q) => q.developer_id)).toEqual(['DAILY_STREAK_7']);
  });
});

describe('quest fields', () => {
  it('percent_complete is an integer: floor(100 * (current - start) / (target - start)), 100 only when complete', async () => {
    const list = (await quests(PLAYER)).body.payload!;
    const byId = Object.fromEntries(list.map((q) => [q.developer_id, q]));
    // LEVEL_10 runs from 1 to 10 and stands at 4: 3/9 of the way is 33.3…, floored to 33.
    expect(byId.LEVEL_10).toMatchObject({ current_value: 4, percent_complete: 33 });
    expect(byId.FIRST_WIN).toMatchObject({ state: 'Completed', percent_complete: 100 });
    for (const q of list) expect(Number.isInteger(q.percent_complete)).toBe(true);
    // bob's COLLECT_1000_GEMS stands at 999 of 1000: 99, not a rounded 100.
    const bob = (await quests(uidForUsername('bob'))).body.payload!;
    expect(bob.find((q) => q.developer_id === 'COLLECT_1000_GEMS')).toMatchObject({
      current_value: 999,
      percent_complete: 99,
      state: 'In Progress',
    });
  });

  it('state is one of In Progress, Completed, Revoked', async () => {
    const states = new Set<unknown>();
    for (const uid of [PLAYER, ALICE, uidForUsername('bob')])
      for (const q of (await quests(uid)).body.payload!) states.add(q.state);
    for (const q of (await quests(QA_USER, [], QA_KEY)).body.payload!) states.add(q.state);
    expect([...states].sort()).toEqual(['Completed', 'In Progress', 'Revoked']);
  });

  it('completed_date is Y-m-d H:i:s (UTC) once completed, and the string 0000-00-00 00:00:00 before: never null', async () => {
    const byId: Record<string, Record<string, unknown>> = Object.fromEntries(
      (await quests(PLAYER)).body.payload!.map((q) => [q.developer_id, q]),
    );
    expect(byId.FIRST_WIN!.completed_date).toBe('2024-05-01 10:05:00');
    expect(byId.LEVEL_10!.completed_date).toBe(ZERO_DATE);
    expect(byId.COLLECT_1000_GEMS!.completed_date).toBe(ZERO_DATE);
    // What a game written for the platform tests: a non-empty string for every quest.
    for (const q of Object.values(byId))
      expect(typeof q.completed_date === 'string' && q.completed_date !== '').toBe(true);
  });

  it('submit replies with {state, current_value, percent_complete, developer_id, score_awarded, already_completed, completed_date}', async () => {
    const inProgress = await submit(ALICE, 'LEVEL_10', ['progress', '0.5']);
    expect(inProgress.body.payload).toEqual(inProgressReply('LEVEL_10', 6, 55, false));
    const done = await submit(ALICE, 'LEVEL_10', ['progress', '1']);
    expect(done.body.payload).toMatchObject({
      state: 'Completed',
      percent_complete: 100,
      completed_date: '2026-01-02 03:04:05',
    });
  });

  it('a reset puts progress back to its start: In Progress, the zero date, in the reply and the list', async () => {
    const reset = await submit(ALICE, 'LEVEL_10', ['reset', '1']);
    expect(reset.body.payload).toEqual(inProgressReply('LEVEL_10', 1, 0, true));
    expect((await quests(ALICE, [['developer_id', 'LEVEL_10']])).body.payload).toEqual([
      expect.objectContaining({
        state: 'In Progress',
        current_value: 1,
        percent_complete: 0,
        completed_date: ZERO_DATE,
      }),
    ]);
  });

  it('a reset of a quest never started creates its record, like a submit', async () => {
    const reset = await submit(CAROL, 'SECRET_ROOM', ['reset', '1']);
    expect(reset.body.payload).toMatchObject({ state: 'In Progress', current_value: 0, completed_date: ZERO_DATE });
    expect((await quests(CAROL, [['developer_id', 'SECRET_ROOM']])).body.payload).toEqual([
      expect.objectContaining({ state: 'In Progress', started_date: expect.stringMatching(DATE_TIME) }),
    ]);
  });

  it('a Revoked quest (from a data file) takes no progress: 409, and nothing changes', async () => {
    const before = (await quests(QA_USER, [], QA_KEY)).body.payload;
    expect(before!.find((q) => q.developer_id === 'CHEAT_FREE')).toMatchObject({
      state: 'Revoked',
      current_value: 10,
      completed_date: '2024-01-02 03:04:05',
    });
    for (const change of [
      ['increment', '1'],
      ['progress', '0.5'],
      ['reset', '1'],
    ] as Array<[string, string]>) {
      const r = await submit(QA_USER, 'CHEAT_FREE', change, { key: QA_KEY, secret: 'qa-secret', pid: '4711' });
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ code: 409, payload: null });
      expect(r.body.message).toMatch(/revoked/);
    }
    expect((await quests(QA_USER, [], QA_KEY)).body.payload).toEqual(before);
  });

  it('every filter, order and paging rule works on the new values', async () => {
    const ids = async (params: Params) => (await quests(PLAYER, params)).body.payload!.map((q) => q.developer_id);
    expect(
      await ids([
        ['filter', 'state'],
        ['match', 'In Progress'],
        ['sort', 'asc'],
      ]),
    ).toEqual(['COLLECT_1000_GEMS', 'LEVEL_10']);
    expect(
      await ids([
        ['filter', 'percent_complete'],
        ['match', '>=33'],
      ]),
    ).toEqual(['LEVEL_10', 'FIRST_WIN']);
    // Ordered by completed_date, the zero date is "not completed": after the completed ones, either way.
    expect(
      (
        await ids([
          ['order', 'completed_date'],
          ['sort', 'asc'],
        ])
      )[0],
    ).toBe('FIRST_WIN');
    expect(
      (
        await ids([
          ['order', 'completed_date'],
          ['sort', 'desc'],
        ])
      )[0],
    ).toBe('FIRST_WIN');
    const pages = [
      await ids([
        ['order', 'name'],
        ['sort', 'asc'],
        ['limit', '2'],
      ]),
      await ids([
        ['order', 'name'],
        ['sort', 'asc'],
        ['limit', '2'],
        ['offset', '2'],
      ]),
    ];
    expect(pages).toEqual([['FIRST_WIN', 'COLLECT_1000_GEMS'], ['LEVEL_10']]);
  });
});

describe('erase (eraseGame)', () => {
  it('the reply payload holds the erased key with the string "deleted"', async () => {
    const token = await tokenFor('demo_player');
    const save = await signedApi(sb, 'POST', `/gamesave/${PLAYER}.json`, [
      ['auth_token', token],
      ['key', 'slot9'],
      ['data', '{"a":1}'],
    ]);
    expect(save.status).toBe(200);
    const erase = await signedApi<Record<string, unknown>>(sb, 'POST', `/gamesave/${PLAYER}.json`, [
      ['auth_token', token],
      ['key', 'slot9'],
      ['method', 'delete'],
    ]);
    expect(erase.status).toBe(200);
    expect(erase.body.payload).toEqual({ slot9: 'deleted' });
  });
});

describe('a held unlockable', () => {
  it('purchase is {"success": true, "data": true}', async () => {
    const r = await api<
      Array<{ purchase: { success: boolean; data: unknown }; product: { sku: string; type: string } }>
    >(sb.url, 'GET', `/products/user/${PLAYER}.json`, [
      ['parent_id', '1001'],
      ['sku', 'sword-of-dawn'],
    ]);
    expect(r.body.payload).toHaveLength(1);
    expect(r.body.payload![0]!.product.type).toBe('unlockable');
    expect(r.body.payload![0]!.purchase).toMatchObject({ success: true, data: true });
  });
});

describe('users', () => {
  it('email with a valid key, never without one; demo users have one under example.test', async () => {
    const full = await api<Record<string, unknown>>(sb.url, 'GET', `/users/${PLAYER}.json`);
    expect(full.body.payload!.email).toBe('demo_player@example.test');
    for (const params of [[], [['api_key', 'ffffffffffffffffffffffffffffffff']]] as Params[]) {
      const reduced = await call<Record<string, unknown>>(
        sb.url,
        'GET',
        `/services/rest/v1/users/${PLAYER}.json`,
        params,
      );
      expect(reduced.body.payload).not.toHaveProperty('email');
    }
  });

  it('a data file may set email', async () => {
    const r = await api<Record<string, unknown>>(sb.url, 'GET', `/users/${QA_USER}.json`, [], QA_KEY);
    expect(r.body.payload).toMatchObject({ username: 'qa_revoked', email: 'qa_revoked@example.test' });
  });

  it('friend entries carry email and birthday too, and limit=1 pages until a short page', async () => {
    const seen: Array<Record<string, unknown>> = [];
    for (let page = 1; page < 10; page++) {
      const r = await api<Array<Record<string, unknown>>>(sb.url, 'GET', `/friends/${ALICE}.json`, [
        ['limit', '1'],
        ['page', String(page)],
      ]);
      expect(r.status).toBe(200);
      seen.push(...r.body.payload!);
      if (r.body.payload!.length < 1) break;
    }
    // alice's friends: demo_player and bob, one a page, then an empty page.
    expect(seen.map((f) => f.username).sort()).toEqual(['bob', 'demo_player']);
    for (const f of seen)
      expect(f).toMatchObject({
        email: `${String(f.username)}@example.test`,
        birthday: expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
      });
  });
});

describe('requests the SDK sends', () => {
  it('a GET with the form content type (the SDK sends one after its first POST) is answered like any GET', async () => {
    const form = { headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' } };
    for (const path of [
      `/users/${PLAYER}.json`,
      `/achievements/user/${PLAYER}.json`,
      `/products/user/${PLAYER}.json`,
    ]) {
      const params: Params = [
        ['api_key', DEMO.game.apiKey],
        ...(path.startsWith('/products') ? ([['game_id', '1001']] as Params) : []),
      ];
      const plain = await call(sb.url, 'GET', `/services/rest/v1${path}`, params);
      const withForm = await call(sb.url, 'GET', `/services/rest/v1${path}`, params, form);
      expect(withForm.status, path).toBe(200);
      expect(withForm.body, path).toEqual(plain.body);
    }
  });

  it('a GET is never challenged', async () => {
    const r = await quests(PLAYER);
    expect(r.status).toBe(200);
    expect(r.body.payload).not.toHaveProperty('session');
  });
});

/** A token of the user for game 1001 from the sandbox site, as a player's page gets one. */
async function tokenFor(username: string): Promise<string> {
  const login = await fetch(`${sb.url}/login?username=${username}`, { method: 'POST', redirect: 'manual' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const r = await fetch(`${sb.url}/service/user-auth-token-generator/1001`, { headers: { cookie } });
  return ((await r.json()) as { token: string }).token;
}
