/** Every endpoint over real HTTP, against the demo data. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type {
  AchievementDefinition,
  AchievementUpdate,
  Friend,
  ProductEntry,
  User,
  UserAchievement,
} from '../../src/domain/types.js';
import { api, call, signedApi, startTestSandbox, type TestSandbox } from './helpers/sandbox.js';

const PLAYER = DEMO.user.uid;
const ALICE = uidForUsername('alice');
const CAROL = uidForUsername('carol');
const DAVE = uidForUsername('dave');
const ua = (uid: string) => `/achievements/user/${uid}.json`;
const products = (uid: string) => `/products/user/${uid}.json`;
/** A signed change (PUT) of what `uid` holds of `sku` in game 1001, counted in units. */
const changeHeld = (uid: string, sku: string, qty: string, dir: 'increment' | 'decrement') =>
  signedApi<ProductEntry>(sb, 'PUT', products(uid), [
    ['parent_id', '1001'],
    ['sku', sku],
    ['qty', qty],
    [dir, 'true'],
  ]);
/** An unsigned grant (POST) of `qty` of `sku` in game `parent` to the player `uid`. */
const grant = (uid: string, sku: string, qty: string, parent = '1001') =>
  api<ProductEntry>(sb.url, 'POST', products(uid), [
    ['parent_id', parent],
    ['sku', sku],
    ['qty', qty],
  ]);
const game: Array<[string, string]> = [
  ['type', 'Game'],
  ['pid', '1001'],
];

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(async () => {
  await sb.close();
});

describe('envelope', () => {
  it('wraps every reply: version 1, code = HTTP status, message OK', async () => {
    const r = await api(sb.url, 'GET', `/users/${PLAYER}.json`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.body).toMatchObject({ version: 1, code: 200, message: 'OK' });
  });

  it('answers the .xml variant of a path with the same envelope as XML', async () => {
    const r = await api(sb.url, 'GET', `/users/${PLAYER}.xml`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(r.text).toContain('<?xml version="1.0" encoding="UTF-8"?>');
    expect(r.text).toMatch(
      /<response><version>1<\/version><code>200<\/code><message>OK<\/message><payload><uid>01e528d59829836fd23b09085b56edab<\/uid><username>demo_player<\/username>/,
    );
  });

  it('answers errors as XML on the .xml variant, and lists arrays as <item>', async () => {
    const missing = await call(sb.url, 'GET', `/services/rest/v1/friends/${PLAYER}.xml`);
    expect(missing.status).toBe(401);
    expect(missing.text).toContain('<code>401</code><message>missing api_key</message><payload nil="true"/>');
    const defs = await api(sb.url, 'GET', '/achievements/1001.xml', [['developer_id', 'FIRST_WIN']]);
    expect(defs.text).toMatch(/<payload><item><id>\d+<\/id><developer_id>FIRST_WIN<\/developer_id>/);
    expect(defs.text).toContain('<tags><item key="1">combat</item><item key="2">starter</item></tags>');
  });
});

describe('users (4.5)', () => {
  it('gives the full user with a valid key, created_on as a string, plays_game "1" for the launchable game', async () => {
    const r = await api<User>(sb.url, 'GET', `/users/${PLAYER}.json`);
    expect(r.body.payload).toEqual({
      uid: PLAYER,
      username: 'demo_player',
      avatar: expect.stringMatching(new RegExp(`/avatars/${PLAYER}\\.svg\\?size=\\d+$`)),
      // The extra fields the platform's SDK shows (SERVICE.md: Users).
      avatar_med: expect.stringMatching(new RegExp(`/avatars/${PLAYER}\\.svg\\?size=100$`)),
      avatar_lg: expect.stringMatching(new RegExp(`/avatars/${PLAYER}\\.svg\\?size=200$`)),
      gender: 'male',
      birthday: '1990-04-12',
      premium: true,
      email: 'demo_player@example.test',
      created_on: String(Date.UTC(2020, 2, 14, 12) / 1000),
      plays_game: '1',
    });
    const carol = await api<User>(sb.url, 'GET', `/users/${CAROL}.json`);
    expect(carol.body.payload).toMatchObject({ birthday: '0000-00-00', premium: false });
  });

  it('says plays_game "0" for a user who never played the game', async () => {
    const r = await api<User>(sb.url, 'GET', `/users/${CAROL}.json`);
    expect(r.body.payload?.plays_game).toBe('0');
  });

  it('leaves plays_game out when the key belongs to a game that is not launchable', async () => {
    const r = await api<User>(sb.url, 'GET', `/users/${DAVE}.json`, [], DEMO.secondGame.apiKey);
    expect(r.body.payload).toHaveProperty('gender');
    expect(r.body.payload).not.toHaveProperty('plays_game');
  });

  it('reduces the user to uid, username, avatar without a key or with an unknown or malformed key (never an error)', async () => {
    for (const params of [[], [['api_key', 'ffffffffffffffffffffffffffffffff']], [['api_key', 'junk']]] as Array<
      Array<[string, string]>
    >) {
      const r = await call<User>(sb.url, 'GET', `/services/rest/v1/users/${PLAYER}.json`, params);
      expect(r.status).toBe(200);
      expect(Object.keys(r.body.payload ?? {}).sort()).toEqual(['avatar', 'uid', 'username']);
    }
  });

  it('looks users up by username with username=1 or true (exact match)', async () => {
    for (const flag of ['1', 'true']) {
      const r = await api<User>(sb.url, 'GET', '/users/alice.json', [['username', flag]]);
      expect(r.body.payload?.uid).toBe(ALICE);
    }
    const wrongCase = await api(sb.url, 'GET', '/users/Alice.json', [['username', '1']]);
    expect(wrongCase.status).toBe(404);
    expect(wrongCase.body.message).toMatch(/^not found: user/);
  });

  it('accepts an upper-case uid and answers in lower case', async () => {
    const r = await api<User>(sb.url, 'GET', `/users/${PLAYER.toUpperCase()}.json`);
    expect(r.body.payload?.uid).toBe(PLAYER);
  });

  it('accepts the api key in UUID form, any case', async () => {
    const k = DEMO.game.apiKey;
    const uuid =
      `${k.slice(0, 8)}-${k.slice(8, 12)}-${k.slice(12, 16)}-${k.slice(16, 20)}-${k.slice(20)}`.toUpperCase();
    const r = await api<Friend[]>(sb.url, 'GET', `/friends/${PLAYER}.json`, [['limit', '1']], uuid);
    expect(r.status).toBe(200);
    expect(r.body.payload).toHaveLength(1);
  });

  it('serves the avatar the user record points at', async () => {
    const user = await api<User>(sb.url, 'GET', `/users/${PLAYER}.json`);
    const avatar = await fetch(user.body.payload!.avatar);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/svg+xml');
    expect(await avatar.text()).toContain('>D</text>');
  });
});

describe('friends (4.6)', () => {
  const friendsOf = (params: Array<[string, string]>) =>
    api<Friend[]>(sb.url, 'GET', `/friends/${PLAYER}.json`, params);

  it('returns 500 friends by default, with the user fields and plays_game strings', async () => {
    const r = await friendsOf([]);
    expect(r.body.payload).toHaveLength(500);
    const alice = r.body.payload!.find((f) => f.username === 'alice');
    expect(alice).toMatchObject({ uid: ALICE, gender: 'female', created_on: expect.any(String), plays_game: '1' });
    expect(r.body.payload!.find((f) => f.username === 'carol')?.plays_game).toBe('0');
  });

  it('caps limit at 500', async () => {
    expect((await friendsOf([['limit', '501']])).body.payload).toHaveLength(500);
    expect((await friendsOf([['limit', '100000']])).body.payload).toHaveLength(500);
  });

  it('pages through all 1,200 friends with offset, without repeats or gaps, in a stable order', async () => {
    const seen: string[] = [];
    for (const offset of [0, 500, 1000]) {
      const page = await friendsOf([['offset', String(offset)]]);
      seen.push(...page.body.payload!.map((f) => f.uid));
    }
    expect(seen).toHaveLength(1200);
    expect(new Set(seen).size).toBe(1200);
    // Same call twice, same order.
    const again = await friendsOf([['limit', '500']]);
    expect(again.body.payload!.map((f) => f.uid)).toEqual(seen.slice(0, 500));
    // Friendship order first (alice and bob share a moment: uid breaks the tie), then carol.
    const first = seen.slice(0, 3);
    expect(first.slice(0, 2).sort()).toEqual(first.slice(0, 2));
    expect(first[2]).toBe(CAROL);
  });

  it('numbers pages from 1: page N is offset (N-1)*limit, and page wins over offset', async () => {
    const byOffset = await friendsOf([
      ['limit', '50'],
      ['offset', '100'],
    ]);
    const byPage = await friendsOf([
      ['limit', '50'],
      ['page', '3'],
    ]);
    expect(byPage.body.payload!.map((f) => f.uid)).toEqual(byOffset.body.payload!.map((f) => f.uid));
    const both = await friendsOf([
      ['limit', '50'],
      ['page', '3'],
      ['offset', '7'],
    ]);
    expect(both.body.payload!.map((f) => f.uid)).toEqual(byOffset.body.payload!.map((f) => f.uid));
    const page1 = await friendsOf([
      ['limit', '50'],
      ['page', '1'],
    ]);
    const offset0 = await friendsOf([['limit', '50']]);
    expect(page1.body.payload).toEqual(offset0.body.payload);
  });

  it('gives the last partial page and then an empty array past the end', async () => {
    expect((await friendsOf([['page', '3']])).body.payload).toHaveLength(200);
    const past = await friendsOf([['page', '4']]);
    expect(past.status).toBe(200);
    expect(past.body.payload).toEqual([]);
    expect((await friendsOf([['offset', '5000']])).body.payload).toEqual([]);
  });

  it('rejects limit below 1 and malformed paging values', async () => {
    for (const [name, value] of [
      ['limit', '0'],
      ['limit', '-1'],
      ['limit', 'ten'],
      ['page', '0'],
      ['offset', '-5'],
      ['offset', '1.5'],
    ]) {
      const r = await friendsOf([[name!, value!]]);
      expect(r.status, `${name}=${value}`).toBe(400);
      expect(r.body.message).toMatch(new RegExp(`^invalid parameter: ${name}`));
    }
  });

  it('answers 404 for an unknown user', async () => {
    const r = await api(sb.url, 'GET', `/friends/${'0'.repeat(32)}.json`);
    expect(r.status).toBe(404);
    expect(r.body.message).toMatch(/^not found: user/);
  });
});

describe('achievement definitions (4.7)', () => {
  it('lists the Active definitions of a game, ordered by id, with every field', async () => {
    const r = await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json');
    const defs = r.body.payload!;
    expect(defs.map((d) => d.developer_id)).toEqual([
      'FIRST_WIN',
      'COLLECT_1000_GEMS',
      'LEVEL_10',
      'SPEED RUN/100%',
      'DAILY_STREAK_7',
      'SECRET_ROOM',
    ]);
    expect(defs.map((d) => d.id)).toEqual([...defs.map((d) => d.id)].sort((a, b) => a - b));
    expect(defs[0]).toEqual({
      id: expect.any(Number),
      developer_id: 'FIRST_WIN',
      parent_id: '1001',
      type: 'Game',
      name: 'First Victory',
      description: 'Win your first battle.',
      admin_description: '',
      icon: 'first_win.png?v=1',
      start_value: 0,
      target_value: 1,
      score: 10,
      state: 'Active',
      completion_count: 2,
      created_date: expect.any(Number),
      updated_date: expect.any(Number),
      tags: { '1': 'combat', '2': 'starter' },
    });
  });

  it('selects one definition by aid or by developer_id; the Inactive one is hidden', async () => {
    const gems = await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json', [
      ['developer_id', 'COLLECT_1000_GEMS'],
    ]);
    expect(gems.body.payload).toHaveLength(1);
    expect(gems.body.payload![0]).toMatchObject({ developer_id: 'COLLECT_1000_GEMS', target_value: 1000 });
    const byAid = await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json', [
      ['aid', String(gems.body.payload![0]!.id)],
    ]);
    expect(byAid.body.payload).toEqual(gems.body.payload);
    const hidden = await api(sb.url, 'GET', '/achievements/1001.json', [['developer_id', 'BETA_TESTER']]);
    expect(hidden.status).toBe(404);
    const otherGame = await api(
      sb.url,
      'GET',
      '/achievements/1002.json',
      [['aid', String(gems.body.payload![0]!.id)]],
      DEMO.secondGame.apiKey,
    );
    expect(otherGame.status).toBe(404);
  });

  it("answers 403 for a game other than the key's own, and 404 for a Website parent that does not exist", async () => {
    const r = await api(sb.url, 'GET', '/achievements/9999.json');
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('forbidden: this api_key belongs to game 1001');
    const web = await api(sb.url, 'GET', '/achievements/1001.json', [['type', 'Website']]);
    expect(web.body.message).toBe('not found: website 1001');
  });
});

describe('user achievements (4.3)', () => {
  it('lists progress with every field, newest start first by default', async () => {
    const r = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), game);
    const list = r.body.payload!;
    // The quests started (the platform's pages: never the untouched ones), newest first.
    expect(list.map((a) => a.developer_id)).toEqual(['LEVEL_10', 'COLLECT_1000_GEMS', 'FIRST_WIN']);
    expect(list[2]).toEqual({
      id: expect.any(Number),
      uid: PLAYER,
      achievement_id: expect.any(Number),
      parent_id: '1001',
      current_value: 1,
      percent_complete: 100,
      state: 'Completed',
      started_date: '2024-05-01 10:00:00',
      completed_date: '2024-05-01 10:05:00',
      updated_date: '2024-05-01 10:05:00',
      developer_id: 'FIRST_WIN',
      type: 'Game',
      name: 'First Victory',
      target_value: 1,
    });
    expect(list[1]).toMatchObject({
      state: 'In Progress',
      current_value: 250,
      percent_complete: 25,
      completed_date: '0000-00-00 00:00:00',
    });
    // LEVEL_10 runs from 1 to 10: value 4 is 3/9 of the way, floored.
    expect(list[0]).toMatchObject({ current_value: 4, percent_complete: 33 });
  });

  it("lists as the platform's SDK asks: api_key alone means type Game and the key's game", async () => {
    const bare = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER));
    expect(bare.status).toBe(200);
    const full = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), game);
    expect(bare.body.payload).toEqual(full.body.payload);
    const ofPuzzleLab = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [], DEMO.secondGame.apiKey);
    expect(ofPuzzleLab.body.payload).toEqual([]);
  });

  it('orders and sorts by each allowed column', async () => {
    const rows = async (order: string, sort: string) =>
      (await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [...game, ['order', order], ['sort', sort]])).body
        .payload!;
    const names = async (order: string, sort: string) => (await rows(order, sort)).map((a) => a.developer_id);
    expect(await names('started_date', 'asc')).toEqual(['FIRST_WIN', 'COLLECT_1000_GEMS', 'LEVEL_10']);
    expect(await names('percent_complete', 'desc')).toEqual(['FIRST_WIN', 'LEVEL_10', 'COLLECT_1000_GEMS']);
    expect(await names('name', 'asc')).toEqual(['FIRST_WIN', 'COLLECT_1000_GEMS', 'LEVEL_10']); // First Victory, Gem Hoarder, Seasoned Adventurer
    expect(await names('state', 'asc')).toEqual(['FIRST_WIN', 'COLLECT_1000_GEMS', 'LEVEL_10']); // ties: record id, same direction
    // The zero date sorts as "not completed": after the completed ones in either direction.
    expect(await names('completed_date', 'desc')).toEqual(['FIRST_WIN', 'LEVEL_10', 'COLLECT_1000_GEMS']);
    expect(await names('completed_date', 'asc')).toEqual(['FIRST_WIN', 'COLLECT_1000_GEMS', 'LEVEL_10']);
  });

  it('applies limit and offset', async () => {
    const r = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [
      ...game,
      ['order', 'started_date'],
      ['sort', 'asc'],
      ['limit', '1'],
      ['offset', '1'],
    ]);
    expect(r.body.payload!.map((a) => a.developer_id)).toEqual(['COLLECT_1000_GEMS']);
    const past = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [...game, ['offset', '10']]);
    expect(past.body.payload).toEqual([]);
    const capped = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [...game, ['limit', '5000']]);
    expect(capped.status).toBe(200);
  });

  it('filters: name and parent case-insensitive substrings, state and parent_id exact, percent_complete with comparators', async () => {
    const ids = async (filter: string, match: string) =>
      (
        await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [
          ...game,
          ['filter', filter],
          ['match', match],
          ['sort', 'asc'],
        ])
      ).body.payload!.map((a) => a.developer_id);
    expect(await ids('name', 'hoard')).toEqual(['COLLECT_1000_GEMS']);
    expect(await ids('parent', 'demo q')).toHaveLength(3);
    expect(await ids('parent', 'puzzle')).toEqual([]);
    expect(await ids('state', 'Completed')).toEqual(['FIRST_WIN']);
    expect(await ids('state', 'completed')).toEqual([]);
    expect(await ids('state', 'In Progress')).toEqual(['COLLECT_1000_GEMS', 'LEVEL_10']);
    expect(await ids('state', 'Not Started')).toEqual([]);
    expect(await ids('parent_id', '1001')).toHaveLength(3);
    expect(await ids('percent_complete', '100')).toEqual(['FIRST_WIN']);
    expect(await ids('percent_complete', '>=33')).toEqual(['FIRST_WIN', 'LEVEL_10']);
    expect(await ids('percent_complete', '>33')).toEqual(['FIRST_WIN']);
    expect(await ids('percent_complete', '<30')).toEqual(['COLLECT_1000_GEMS']);
    expect(await ids('percent_complete', '>25')).toEqual(['FIRST_WIN', 'LEVEL_10']);
    expect(await ids('percent_complete', '<=25')).toEqual(['COLLECT_1000_GEMS']);
  });

  it('narrows to one achievement with developer_id, or its alias dev_id', async () => {
    for (const name of ['developer_id', 'dev_id']) {
      const r = await api<UserAchievement[]>(sb.url, 'GET', ua(PLAYER), [...game, [name, 'COLLECT_1000_GEMS']]);
      expect(r.body.payload!.map((a) => a.developer_id)).toEqual(['COLLECT_1000_GEMS']);
    }
  });

  it('increments (signed), answering the update result of spec 2.8', async () => {
    const r = await signedApi<AchievementUpdate>(sb, 'PUT', ua(ALICE), [
      ...game,
      ['developer_id', 'COLLECT_1000_GEMS'],
      ['increment', '10'],
    ]);
    expect(r.status).toBe(200);
    expect(r.body.payload).toEqual({
      state: 'In Progress',
      current_value: 10,
      percent_complete: 1,
      developer_id: 'COLLECT_1000_GEMS',
      score_awarded: 0,
      already_completed: false,
      completed_date: '0000-00-00 00:00:00',
    });
  });

  it('accepts dev_id as the alias of developer_id on PUT', async () => {
    const r = await signedApi<AchievementUpdate>(sb, 'PUT', ua(ALICE), [
      ...game,
      ['dev_id', 'DAILY_STREAK_7'],
      ['increment', '1'],
    ]);
    expect(r.body.payload).toMatchObject({ developer_id: 'DAILY_STREAK_7', current_value: 1 });
  });

  it('deletes progress, answering the record as it was; then 404', async () => {
    await signedApi(sb, 'PUT', ua(CAROL), [...game, ['developer_id', 'SECRET_ROOM'], ['increment', '1']]);
    const del = await api<UserAchievement>(sb.url, 'DELETE', ua(CAROL), [...game, ['developer_id', 'SECRET_ROOM']]);
    expect(del.status).toBe(200);
    expect(del.body.payload).toMatchObject({
      uid: CAROL,
      developer_id: 'SECRET_ROOM',
      state: 'Completed',
      current_value: 1,
      percent_complete: 100,
    });
    const after = (await api<UserAchievement[]>(sb.url, 'GET', ua(CAROL), game)).body.payload!;
    expect(after.find((a) => a.developer_id === 'SECRET_ROOM')).toBeUndefined();
    const again = await api(sb.url, 'DELETE', ua(CAROL), [...game, ['developer_id', 'SECRET_ROOM']]);
    expect(again.status).toBe(404);
    expect(again.body.message).toMatch(/^not found: user achievement/);
  });

  it('honours the method override: POST method=delete deletes, GET method=get lists, GET method=put is 405', async () => {
    await signedApi(sb, 'PUT', ua(CAROL), [...game, ['developer_id', 'FIRST_WIN'], ['increment', '1']]);
    const viaGet = await api<UserAchievement[]>(sb.url, 'GET', ua(CAROL), [...game, ['method', 'get']]);
    expect(viaGet.body.payload!.map((a) => a.developer_id)).toEqual(['FIRST_WIN']);
    const del = await api<UserAchievement>(sb.url, 'POST', ua(CAROL), [
      ...game,
      ['developer_id', 'FIRST_WIN'],
      ['method', 'DELETE'],
    ]);
    expect(del.status).toBe(200);
    expect(del.body.payload?.developer_id).toBe('FIRST_WIN');
    // A GET never changes state, whatever it says (a link, a prefetch): 405, signed or not.
    const params: Array<[string, string]> = [
      ['method', 'Put'],
      ...game,
      ['developer_id', 'FIRST_WIN'],
      ['increment', '1'],
    ];
    const viaGetPut = await signedApi<AchievementUpdate>(sb, 'PUT', ua(CAROL), params, { sentAs: 'GET' });
    expect(viaGetPut.status).toBe(405);
    expect(viaGetPut.body.message).toBe('method not allowed: GET with method=Put (send it as POST)');
    expect(
      (await api(sb.url, 'GET', ua(CAROL), [...game, ['developer_id', 'FIRST_WIN'], ['method', 'delete']])).status,
    ).toBe(405);
    expect(
      (await api<UserAchievement[]>(sb.url, 'GET', ua(CAROL), [...game, ['developer_id', 'FIRST_WIN']])).body.payload,
    ).toEqual([]);
    const put = await signedApi<AchievementUpdate>(sb, 'PUT', ua(CAROL), params, { sentAs: 'POST' });
    expect(put.status).toBe(200);
    expect(put.body.payload?.state).toBe('Completed');
  });
});

describe('products (4.4)', () => {
  const skusOf = (list: ProductEntry[]) => list.map((e) => [e.product.sku, e.purchase.success, e.purchase.data]);

  it('lists every active product of the game, held or not, with the entry shape of the contract', async () => {
    const r = await api<ProductEntry[]>(sb.url, 'GET', products(PLAYER), [['parent_id', '1001']]);
    // demo_player holds the sword (an unlockable) and 250 gems (a consumable in two pack sizes).
    expect(skusOf(r.body.payload!)).toEqual([
      ['gold-pack_10', false, false],
      ['sword-of-dawn', true, true],
      ['xp-boost', false, false],
      ['héros+épée', false, false],
      ['gems:100', true, 250],
      ['gems:500', true, 250],
      ['dragon-mount', false, false],
    ]);
    expect(r.body.payload![1]).toEqual({
      purchase: { success: true, data: true, message: 'held' },
      product: {
        id: expect.any(Number),
        sku: 'sword-of-dawn',
        name: 'Sword of Dawn',
        description: expect.any(String),
        type: 'unlockable',
        price: '4.99',
        display_order: 2,
        data: [],
        media: { image: 'products/sword-of-dawn.png?v=1' },
        status: 'active',
        parent_type: 'game',
        sold: 1,
        created_on: '2014-02-01 00:00:00',
        updated_on: '2014-02-01 00:00:00',
      },
    });
    expect(r.body.payload![4]).toMatchObject({
      purchase: { success: true, data: 250, message: 'holds 250 units' },
      product: { sku: 'gems:100', type: 'consumable', data: { consumable_qty: 100 } },
    });
    expect(r.body.payload![0]!.purchase).toEqual({ success: false, data: false, message: 'not held' });
  });

  it("names the game game_id, as the platform's SDK does", async () => {
    const bySdk = await api<ProductEntry[]>(sb.url, 'GET', products(PLAYER), [['game_id', '1001']]);
    const bySpec = await api<ProductEntry[]>(sb.url, 'GET', products(PLAYER), [['parent_id', '1001']]);
    expect(bySdk.status).toBe(200);
    expect(bySdk.body.payload).toEqual(bySpec.body.payload);
    const both = await api(sb.url, 'GET', products(PLAYER), [
      ['game_id', '1001'],
      ['parent_id', '1001'],
    ]);
    expect(both.status).toBe(400);
    const neither = await api(sb.url, 'GET', products(PLAYER));
    expect(neither.body.message).toBe('missing parameter: parent_id');
  });

  it('grants with an unsigned POST and counts the units as sold', async () => {
    const r = await grant(CAROL, 'xp-boost', '3');
    expect(r.status).toBe(200);
    expect(r.body.payload?.purchase).toEqual({ success: true, data: 3, message: 'granted 3 units; holds 3 units' });
    expect(r.body.payload?.product).toMatchObject({ sku: 'xp-boost', sold: 5 });
    const again = await api<ProductEntry>(sb.url, 'POST', products(CAROL), [
      ['parent_id', '1001'],
      ['sku', 'xp-boost'],
      ['qty', '2'],
      ['type', 'Game'],
    ]);
    expect(again.body.payload?.purchase.data).toBe(5);
  });

  it('an unlockable is held once: a second grant changes nothing and says so', async () => {
    const first = await grant(CAROL, 'dragon-mount', '1');
    expect(first.body.payload?.purchase).toEqual({ success: true, data: true, message: 'granted; held' });
    expect(first.body.payload?.product.sold).toBe(1);
    const again = await changeHeld(CAROL, 'dragon-mount', '3', 'increment');
    expect(again.body.payload?.purchase).toEqual({ success: true, data: true, message: 'already held' });
    expect(again.body.payload?.product.sold).toBe(1);
    const twice = await changeHeld(CAROL, 'dragon-mount', '2', 'decrement');
    expect(twice.status).toBe(409);
    const take = await changeHeld(CAROL, 'dragon-mount', '1', 'decrement');
    expect(take.body.payload?.purchase).toEqual({ success: false, data: false, message: 'removed; not held' });
    const notHeld = await changeHeld(CAROL, 'dragon-mount', '1', 'decrement');
    expect(notHeld.status).toBe(409);
  });

  it('a consumable is counted in units on its base: any pack, the base or BASE:N names it', async () => {
    const gems = (sku: string, qty: string, dir: 'increment' | 'decrement') => changeHeld(DAVE, sku, qty, dir);
    expect((await gems('gems:500', '500', 'increment')).body.payload?.purchase.data).toBe(500);
    const byBase = await gems('gems', '30', 'decrement');
    expect(byBase.body.payload).toMatchObject({ purchase: { data: 470 }, product: { sku: 'gems:100' } });
    expect((await gems('gems:7', '70', 'decrement')).body.payload?.purchase.data).toBe(400);
    // A base is one entry: its smallest pack, with the units held on the base (the SDK resolves a single entry only).
    const list = await api<ProductEntry[]>(sb.url, 'GET', products(DAVE), [
      ['parent_id', '1001'],
      ['sku', 'gems'],
    ]);
    expect(skusOf(list.body.payload!)).toEqual([['gems:100', true, 400]]);
    const pack = await api<ProductEntry[]>(sb.url, 'GET', products(DAVE), [
      ['parent_id', '1001'],
      ['sku', 'gems:500'],
    ]);
    expect(skusOf(pack.body.payload!)).toEqual([['gems:500', true, 400]]);
    const tooMany = await gems('gems:100', '401', 'decrement');
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.message).toBe('insufficient quantity: holds 400, cannot take 401');
  });

  it('a grant naming a pack gives qty packs; naming the base gives qty units; a PUT always counts units', async () => {
    const packs = await grant(CAROL, 'gems:500', '2');
    expect(packs.status, packs.body.message).toBe(200);
    expect(packs.body.payload).toMatchObject({
      purchase: { success: true, data: 1000, message: 'granted 1000 units; holds 1000 units' },
      product: { sku: 'gems:500' },
    });
    const small = await grant(CAROL, 'gems:100', '1');
    expect(small.body.payload?.purchase.data).toBe(1100);
    const units = await grant(CAROL, 'gems', '3');
    expect(units.body.payload).toMatchObject({
      purchase: { data: 1103, message: 'granted 3 units; holds 1103 units' },
      product: { sku: 'gems:100' },
    });
    const put = await changeHeld(CAROL, 'gems:500', '2', 'increment');
    expect(put.body.payload?.purchase.data).toBe(1105);
    const take = await changeHeld(CAROL, 'gems:500', '5', 'decrement');
    expect(take.body.payload?.purchase.data).toBe(1100);
    // A pack the game does not sell is no purchase: 404, not 7 × qty units (issue 31); nothing changes.
    const noPack = await grant(CAROL, 'gems:7', '3');
    expect(noPack.status).toBe(404);
    expect(noPack.body).toMatchObject({
      code: 404,
      message: 'not found: product gems:7 of game 1001 (no such pack)',
      payload: null,
    });
    const held = await api<ProductEntry[]>(sb.url, 'GET', products(CAROL), [
      ['parent_id', '1001'],
      ['sku', 'gems'],
    ]);
    expect(held.body.payload?.[0]?.purchase.data).toBe(1100);
  });

  it('increments and decrements with a signed PUT; at 0 the product is listed as not held', async () => {
    const base: Array<[string, string]> = [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
      ['qty', '4'],
    ];
    const inc = await signedApi<ProductEntry>(sb, 'PUT', products(DAVE), [...base, ['increment', 'true']]);
    expect(inc.body.payload?.purchase.data).toBe(4);
    const dec = await signedApi<ProductEntry>(sb, 'PUT', products(DAVE), [...base, ['decrement', 'true']]);
    expect(dec.status).toBe(200);
    expect(dec.body.payload?.purchase).toMatchObject({ success: false, data: false });
    const list = await api<ProductEntry[]>(sb.url, 'GET', products(DAVE), [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
    ]);
    expect(skusOf(list.body.payload!)).toEqual([['gold-pack_10', false, false]]);
  });

  it('narrows the list to one sku; an unknown sku is 404; another game is 403', async () => {
    const one = await api<ProductEntry[]>(sb.url, 'GET', products(uidForUsername('bob')), [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
    ]);
    expect(skusOf(one.body.payload!)).toEqual([['gold-pack_10', true, 30]]);
    const notHeld = await api<ProductEntry[]>(sb.url, 'GET', products(uidForUsername('bob')), [
      ['parent_id', '1001'],
      ['sku', 'xp-boost'],
    ]);
    expect(skusOf(notHeld.body.payload!)).toEqual([['xp-boost', false, false]]);
    const unknown = await api(sb.url, 'GET', products(PLAYER), [
      ['parent_id', '1001'],
      ['sku', 'nope'],
    ]);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('not found: product nope of game 1001');
    const otherGame = await grant(PLAYER, 'xp-boost', '1', '1002');
    expect(otherGame.status).toBe(403);
    const unknownInOwnGame = await api(
      sb.url,
      'POST',
      products(PLAYER),
      [
        ['parent_id', '1002'],
        ['sku', 'xp-boost'],
        ['qty', '1'],
      ],
      DEMO.secondGame.apiKey,
    );
    expect(unknownInOwnGame.status).toBe(404);
  });

  it('handles a non-ASCII SKU end to end', async () => {
    const r = await grant(PLAYER, 'héros+épée', '1');
    expect(r.status).toBe(200);
    expect(r.body.payload?.product.sku).toBe('héros+épée');
  });
});
