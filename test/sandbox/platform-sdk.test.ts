/**
 * The sandbox driven exactly as the platform's own JavaScript SDK drives the real service, written
 * from docs/PLATFORM.md and nothing of udcli: its own request shape (GET for reads; PUT and
 * DELETE as a form-encoded POST with `method=`; api_key in upper-case UUID form; `game_id`), its
 * own challenge loop (401 {session, key} → at most 3 signed retries, 100 ms × attempt apart) and
 * its own signature (values sorted, joined, lower-cased, MD5). A game written against the SDK and
 * pointed at the sandbox must work as it does in production.
 */
import { SDK_DEMO, type SdkReply as Reply, sdkChallenged, sdkSig, sdkSucceeded } from './helpers/sdk-signature.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import type { TestSandbox } from './helpers/sandbox.js';

const { PLAYER, API_KEY, GAME } = SDK_DEMO;

let sb: TestSandbox;
const sent: Array<{ method: string; url: string }> = [];

async function raw(
  verb: 'GET' | 'PUT' | 'DELETE',
  path: string,
  query: Record<string, string>,
  body: Record<string, string> = {},
): Promise<Reply> {
  const viaPost = verb !== 'GET';
  const full = viaPost ? { ...query, method: verb.toLowerCase() } : query;
  const url = `${sb.url}/services/rest/v1/${path}?${new URLSearchParams(full).toString()}`;
  sent.push({ method: viaPost ? 'POST' : 'GET', url });
  const response = await fetch(url, {
    method: viaPost ? 'POST' : 'GET',
    headers: {
      accept: 'application/json',
      ...(viaPost ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(viaPost ? { body: new URLSearchParams(body).toString() } : {}),
  });
  const envelope = (await response.json()) as Omit<Reply, 'status'>;
  return { status: response.status, ...envelope };
}

/** The SDK's request: a PUT or DELETE is signed over its `method=` too. */
function sdk(verb: 'GET' | 'PUT' | 'DELETE', path: string, params: Record<string, string>): Promise<Reply> {
  const query = { api_key: API_KEY, ...params };
  const full = verb === 'GET' ? query : { ...query, method: verb.toLowerCase() };
  return sdkChallenged(
    () => raw(verb, path, query),
    (session, key) => raw(verb, path, { ...query, session, sig: sdkSig(path, full, session, key) }),
  );
}

/** The SDK's change of the player's gems by their base sku: `qty` units, up or down. */
const changeGems = (direction: 'increment' | 'decrement', qty: string) =>
  sdk('PUT', `products/user/${PLAYER}.json`, { sku: 'gems', [direction]: 'true', qty, game_id: GAME });

beforeAll(({ sb: fileSb }) => {
  sb = fileSb;
});

describe('quests as the SDK sees them', () => {
  it("lists the quests the player started with api_key alone, the player's progress on each", async () => {
    const r = await sdk('GET', `achievements/user/${PLAYER}.json`, {});
    expect(sdkSucceeded(r)).toBe(true);
    const byId = Object.fromEntries((r.payload as Array<Record<string, unknown>>).map((q) => [q.developer_id, q]));
    expect(Object.keys(byId).sort()).toEqual(['COLLECT_1000_GEMS', 'FIRST_WIN', 'LEVEL_10']);
    for (const q of Object.values(byId)) {
      for (const field of ['percent_complete', 'current_value', 'state', 'completed_date', 'developer_id'])
        expect(q).toHaveProperty(field);
    }
    expect(byId.FIRST_WIN).toMatchObject({ state: 'Completed', percent_complete: 100 });
    expect(byId.LEVEL_10).toMatchObject({
      state: 'In Progress',
      percent_complete: 33,
      completed_date: '0000-00-00 00:00:00',
    });
  });

  it('submits progress (progress, developer_id, pid, no type) through the challenge, and gets the submit reply', async () => {
    const from = sent.length;
    const r = await sdk('PUT', `achievements/user/${PLAYER}.json`, {
      progress: '1',
      developer_id: 'SECRET_ROOM',
      pid: GAME,
    });
    expect(sdkSucceeded(r)).toBe(true);
    expect(r.payload).toEqual({
      state: 'Completed',
      current_value: 1,
      percent_complete: 100,
      developer_id: 'SECRET_ROOM',
      score_awarded: 25,
      already_completed: false,
      completed_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    // The first request was unsigned and answered 401; the second carried session and sig.
    const urls = sent.slice(from).map((s) => new URL(s.url));
    expect(sent.slice(from).map((s) => s.method)).toEqual(['POST', 'POST']);
    expect(urls.map((u) => [u.searchParams.has('session'), u.searchParams.has('sig')])).toEqual([
      [false, false],
      [true, true],
    ]);
    const again = await sdk('PUT', `achievements/user/${PLAYER}.json`, {
      progress: '1',
      developer_id: 'SECRET_ROOM',
      pid: GAME,
    });
    expect(again.payload).toMatchObject({ already_completed: true, score_awarded: 0 });
  });

  it('resets with reset=1', async () => {
    const r = await sdk('PUT', `achievements/user/${PLAYER}.json`, {
      reset: '1',
      developer_id: 'SECRET_ROOM',
      pid: GAME,
    });
    expect(r.payload).toMatchObject({
      state: 'In Progress',
      current_value: 0,
      percent_complete: 0,
      completed_date: '0000-00-00 00:00:00',
    });
  });

  it('refuses a replayed session and a value changed after signing, changing nothing', async () => {
    const path = `achievements/user/${PLAYER}.json`;
    const query = { api_key: API_KEY, progress: '0.5', developer_id: 'LEVEL_10', pid: GAME };
    const challenge = await raw('PUT', path, query);
    expect(challenge.status).toBe(401);
    const { session, key } = challenge.payload as { session: string; key: string };
    const sig = sdkSig(path, { ...query, method: 'put' }, session, key);
    const changed = await raw('PUT', path, { ...query, progress: '1', session, sig });
    expect(changed.status).toBe(401);
    expect(sdkSucceeded(changed)).toBe(false);
    const fresh = changed.payload as { session: string; key: string };
    const good = await raw('PUT', path, {
      ...query,
      session: fresh.session,
      sig: sdkSig(path, { ...query, method: 'put' }, fresh.session, fresh.key),
    });
    expect(good.payload).toMatchObject({ current_value: 6 });
    const replay = await raw('PUT', path, {
      ...query,
      session: fresh.session,
      sig: sdkSig(path, { ...query, method: 'put' }, fresh.session, fresh.key),
    });
    expect(replay.status).toBe(401);
    const list = await sdk('GET', path, { developer_id: 'LEVEL_10' });
    expect(list.payload[0]).toMatchObject({ current_value: 6, state: 'In Progress' });
  });
});

describe('premium content as the SDK sees it', () => {
  it('lists every product of the game by game_id, held or not', async () => {
    const r = await sdk('GET', `products/user/${PLAYER}.json`, { game_id: GAME });
    expect(sdkSucceeded(r)).toBe(true);
    const entries = r.payload as Array<{
      purchase: { success: boolean; data: unknown };
      product: { sku: string; type: string; data: unknown };
    }>;
    const bySku = Object.fromEntries(entries.map((e) => [e.product.sku, e]));
    // Not held: the documented sample's shape.
    expect(bySku['dragon-mount']!.purchase).toMatchObject({ success: false, data: false });
    expect(bySku['sword-of-dawn']!.purchase).toMatchObject({ success: true });
    // A consumable: units held as data, the pack size in product.data.
    expect(bySku['gems:100']).toMatchObject({
      purchase: { success: true, data: 250 },
      product: { type: 'consumable', data: { consumable_qty: 100 } },
    });
  });

  it('consumes a consumable by its base sku (decrement=true&qty=N)', async () => {
    const r = await changeGems('decrement', '50');
    expect(sdkSucceeded(r)).toBe(true);
    expect(r.payload.purchase).toMatchObject({ success: true, data: 200 });
    const more = await changeGems('decrement', '201');
    expect(more.status).toBe(409);
    expect(sdkSucceeded(more)).toBe(false);
    const list = await sdk('GET', `products/user/${PLAYER}.json`, { game_id: GAME, sku: 'gems:500' });
    expect(list.payload.map((e: { purchase: { data: unknown } }) => e.purchase.data)).toEqual([200]);
  });

  it("retrievePurchase('gems') resolves: a base sku lists one entry, whose purchase.data is the base's units", async () => {
    const r = await sdk('GET', `products/user/${PLAYER}.json`, { game_id: GAME, sku: 'gems' });
    // The SDK resolves the payload itself only when it is one entry (docs/PLATFORM.md).
    expect(Array.isArray(r.payload) && r.payload.length).toBe(1);
    const resolved = r.payload[0] as { purchase: { data: unknown }; product: { sku: string; data: unknown } };
    expect(resolved.product).toMatchObject({ sku: 'gems:100', data: { consumable_qty: 100 } });
    expect(resolved.purchase.data).toBe(200);
  });

  it('increment=true (what the SDK sends for a negative consume) adds units', async () => {
    const r = await changeGems('increment', '5');
    expect(r.payload.purchase.data).toBe(205);
  });
});

describe('the user as the SDK sees it', () => {
  it('has avatar_med, avatar_lg, birthday and premium with a valid key', async () => {
    const r = await sdk('GET', `users/${PLAYER}.json`, {});
    expect(r.payload).toMatchObject({
      uid: PLAYER,
      username: 'demo_player',
      avatar_med: expect.any(String),
      avatar_lg: expect.any(String),
      birthday: '1990-04-12',
      premium: true,
    });
    const bob = await sdk('GET', 'users/bob.json', { username: '1' });
    expect(bob.payload).toMatchObject({ birthday: '0000-00-00', premium: false });
  });
});
