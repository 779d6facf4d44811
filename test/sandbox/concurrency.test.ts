/** Every change is one transaction: parallel writers never lose an update; a failed take changes nothing. */
import { Pool } from 'undici';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import {
  API_PREFIX,
  type AchievementDefinition,
  type Envelope,
  type ProductEntry,
  type UserAchievement,
} from '../../src/domain/types.js';
import { api, freshNonce, queryString, sign, signedApi, type TestSandbox } from './helpers/sandbox.js';

let sb: TestSandbox;
beforeAll(({ sb: fileSb }) => {
  sb = fileSb;
});

/** Several independent clients (own connection pools), all requests in flight at once. */
async function inParallel(
  clients: number,
  perClient: number,
  send: (pool: Pool, i: number) => Promise<number>,
): Promise<number[]> {
  const pools = Array.from({ length: clients }, () => new Pool(sb.url, { connections: 4 }));
  try {
    return await Promise.all(
      pools.flatMap((pool, c) => Array.from({ length: perClient }, (_, i) => send(pool, c * perClient + i))),
    );
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
}

async function signedStatus(pool: Pool, path: string, params: Array<[string, string]>): Promise<number> {
  const full = `${API_PREFIX}${path}`;
  const unsigned: Array<[string, string]> = [['api_key', DEMO.game.apiKey], ...params, ['nonce', freshNonce()]];
  const signed = sign('PUT', full, unsigned, DEMO.game.signingSecret, Math.floor(sb.clock.ms / 1000));
  const r = await pool.request({ method: 'PUT', path: `${full}?${queryString(signed)}` });
  await r.body.text();
  return r.statusCode;
}

describe('concurrent writes', () => {
  it('64 parallel signed increments from 4 clients add up exactly', async () => {
    const uid = uidForUsername('player_0100');
    const path = `/achievements/user/${uid}.json`;
    const statuses = await inParallel(4, 16, (pool) =>
      signedStatus(pool, path, [
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'COLLECT_1000_GEMS'],
        ['increment', '3'],
      ]),
    );
    expect(statuses.every((s) => s === 200)).toBe(true);
    const r = await api<UserAchievement[]>(sb.url, 'GET', path, [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', 'COLLECT_1000_GEMS'],
    ]);
    expect(r.body.payload![0]).toMatchObject({ current_value: 192, state: 'In Progress', percent_complete: 19 });
  });

  it('parallel increments that cross the target complete it exactly once', async () => {
    const uid = uidForUsername('player_0101');
    const path = `/achievements/user/${uid}.json`;
    const before = (
      await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json', [['developer_id', 'DAILY_STREAK_7']])
    ).body.payload![0]!;
    await inParallel(3, 10, (pool) =>
      signedStatus(pool, path, [
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'DAILY_STREAK_7'],
        ['increment', '1'],
      ]),
    );
    const r = await api<UserAchievement[]>(sb.url, 'GET', path, [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', 'DAILY_STREAK_7'],
    ]);
    expect(r.body.payload![0]).toMatchObject({ current_value: 7, state: 'Completed' });
    const after = (
      await api<AchievementDefinition[]>(sb.url, 'GET', '/achievements/1001.json', [['developer_id', 'DAILY_STREAK_7']])
    ).body.payload![0]!;
    expect(after.completion_count).toBe(before.completion_count + 1);
  });

  it('parallel grants and takes: exactly as many takes succeed as units exist, the rest are 409', async () => {
    const uid = uidForUsername('player_0102');
    const path = `/products/user/${uid}.json`;
    const grants = await inParallel(5, 10, async (pool) => {
      const r = await pool.request({
        method: 'POST',
        path: `${API_PREFIX}${path}?${queryString([
          ['api_key', DEMO.game.apiKey],
          ['parent_id', '1001'],
          ['sku', 'xp-boost'],
          ['qty', '1'],
        ])}`,
      });
      await r.body.text();
      return r.statusCode;
    });
    expect(grants.filter((s) => s === 200)).toHaveLength(50);
    const takes = await inParallel(5, 12, (pool) =>
      signedStatus(pool, path, [
        ['parent_id', '1001'],
        ['sku', 'xp-boost'],
        ['qty', '1'],
        ['decrement', 'true'],
      ]),
    );
    expect(takes.filter((s) => s === 200)).toHaveLength(50);
    expect(takes.filter((s) => s === 409)).toHaveLength(10);
    const left = await api<ProductEntry[]>(sb.url, 'GET', path, [
      ['parent_id', '1001'],
      ['sku', 'xp-boost'],
    ]);
    expect(left.body.payload!.map((e) => e.purchase)).toMatchObject([{ success: false, data: false }]);
  });
});

describe('409 insufficient quantity', () => {
  it('taking more than held answers 409 and changes nothing', async () => {
    const bob = uidForUsername('bob');
    const path = `/products/user/${bob}.json`;
    const before = await api<ProductEntry[]>(sb.url, 'GET', path, [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
    ]);
    expect(before.body.payload![0]!.purchase.data).toBe(30);
    const r = await signedApi<ProductEntry>(sb, 'PUT', path, [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
      ['qty', '31'],
      ['decrement', 'true'],
    ]);
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      code: 409,
      payload: null,
      message: expect.stringMatching(/^insufficient quantity/),
    });
    const after = await api<ProductEntry[]>(sb.url, 'GET', path, [
      ['parent_id', '1001'],
      ['sku', 'gold-pack_10'],
    ]);
    expect(after.body.payload).toEqual(before.body.payload);
    const none = await signedApi<ProductEntry>(sb, 'PUT', `/products/user/${uidForUsername('carol')}.json`, [
      ['parent_id', '1001'],
      ['sku', 'sword-of-dawn'],
      ['qty', '1'],
      ['decrement', 'true'],
    ]);
    expect(none.status).toBe(409);
  });
});

describe('429 rate limited', () => {
  it('answers 429 with Retry-After beyond N requests per second per api_key, and recovers', async ({ newSb }) => {
    const limited = await newSb({ rateLimitPerSecond: 3, startMs: Date.UTC(2025, 0, 1, 0, 0, 0, 200) });
    try {
      const friends = (key: string = DEMO.game.apiKey) =>
        api(limited.url, 'GET', `/friends/${DEMO.user.uid}.json`, [['limit', '1']], key);
      for (let i = 0; i < 3; i++) expect((await friends()).status).toBe(200);
      const r = await friends();
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body as Envelope<unknown>).toMatchObject({
        version: 1,
        code: 429,
        payload: null,
        message: expect.stringMatching(/^rate limited/),
      });
      // Another key has its own budget; the same key in UUID form shares it.
      expect((await friends(DEMO.secondGame.apiKey)).status).toBe(200);
      const k = DEMO.game.apiKey;
      expect(
        (await friends(`${k.slice(0, 8)}-${k.slice(8, 12)}-${k.slice(12, 16)}-${k.slice(16, 20)}-${k.slice(20)}`))
          .status,
      ).toBe(429);
      limited.clock.advance(1);
      expect((await friends()).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
