/** The client against the real sandbox (port 0, temporary database, demo data). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/client.js';
import { createSigner } from '../../src/client/signer.js';
import type { AchievementTarget, ApiClient } from '../../src/client/types.js';
import { ApiError } from '../../src/errors.js';
import { Database } from '../sqlite.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';

let root: string;
let sandbox: RunningSandbox;
let client: ApiClient;
const uid = DEMO.user.uid;
const GEMS: AchievementTarget = { type: 'Game', pid: DEMO.game.id, developerId: 'COLLECT_1000_GEMS' };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-client-'));
  sandbox = await startSandbox({ port: 0, host: '127.0.0.1', dbPath: join(root, 'sandbox.db'), seed: 'demo' });
  client = createClient({
    baseUrl: sandbox.url,
    apiKey: DEMO.game.apiKey,
    signer: createSigner('hmac-sha256-v1', DEMO.game.signingSecret),
    timeoutMs: 10_000,
    retries: 0,
  });
});

afterAll(async () => {
  await client?.close();
  await sandbox?.close();
  rmSync(root, { recursive: true, force: true });
});

/** Units of a consumable held (SERVICE.md: Products: purchase.data is the number). */
function quantity(entry: { purchase: { data: unknown } }): number {
  return entry.purchase.data as number;
}

describe('the client against the sandbox', () => {
  it('getUser of the demo player', async () => {
    const reply = await client.getUser(uid);
    expect(reply.payload).toMatchObject({ uid, username: DEMO.user.username });
    expect(reply.envelope).toMatchObject({ version: 1, code: 200, message: 'OK' });
    const byName = await client.getUser(DEMO.user.username, { byUsername: true, publicOnly: true });
    expect(byName.payload.uid).toBe(uid);
    expect(byName.payload.gender).toBeUndefined();
  });

  it('a signed increment is accepted and adds up', async () => {
    const before = (await client.listUserAchievements(uid, { ...GEMS })).payload[0]!.current_value;
    const reply = await client.changeUserAchievement(uid, GEMS, { increment: 5 });
    expect(reply.payload).toMatchObject({ developer_id: 'COLLECT_1000_GEMS', current_value: before + 5 });
    const after = await client.listUserAchievements(uid, { ...GEMS });
    expect(after.payload[0]!.current_value).toBe(before + 5);
  });

  it('a signed product adjust (non-ASCII sku, an unlockable) is accepted; taking more than held is a 409', async () => {
    const target = { parentId: DEMO.game.id, sku: 'héros+épée' };
    const given = await client.adjustProduct(uid, target, 2, 'increment');
    expect(given.payload.product.sku).toBe('héros+épée');
    expect(given.payload.purchase).toMatchObject({ success: true, data: true });
    const listed = await client.listProducts(uid, { parentId: DEMO.game.id, sku: 'héros+épée' });
    expect(listed.payload.map((e) => [e.product.sku, e.purchase.data])).toEqual([['héros+épée', true]]);
    const taken = await client.adjustProduct(uid, target, 1, 'decrement');
    expect(taken.payload.purchase).toMatchObject({ success: false, data: false });

    const e = await client.adjustProduct(uid, target, 1, 'decrement').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 409 });
  });

  it('a consumable is counted in units: give and take by pack or base', async () => {
    const give = await client.adjustProduct(uid, { parentId: DEMO.game.id, sku: 'gems:500' }, 7, 'increment');
    const held = quantity(give.payload);
    const take = await client.adjustProduct(uid, { parentId: DEMO.game.id, sku: 'gems' }, 2, 'decrement');
    expect(quantity(take.payload)).toBe(held - 2);
  });

  it('a POST with a method=put override, signed, is accepted (a reset back to start_value)', async () => {
    const [definition] = (await client.listAchievementDefinitions(DEMO.game.id, { developerId: 'LEVEL_10' })).payload;
    expect(definition!.start_value).toBeGreaterThan(0); // so the reset is visible
    const reply = await client.request<{ current_value: number }>({
      method: 'POST',
      path: `/services/rest/v1/achievements/user/${uid}.json`,
      query: [
        ['method', 'put'],
        ['type', 'Game'],
        ['pid', DEMO.game.id],
        ['developer_id', 'LEVEL_10'],
        ['reset', '1'],
      ],
      sign: true,
      idempotent: true,
    });
    expect(reply.payload.current_value).toBe(definition!.start_value);
  });

  it('the sandbox rejects a signature made with another secret', async () => {
    const wrong = createClient({
      baseUrl: sandbox.url,
      apiKey: DEMO.game.apiKey,
      signer: createSigner('hmac-sha256-v1', 'not-the-secret'),
      timeoutMs: 10_000,
      retries: 0,
    });
    try {
      const e = await wrong.changeUserAchievement(uid, GEMS, { increment: 1 }).catch((err: unknown) => err);
      expect(e).toMatchObject({ code: 403, message: expect.stringMatching(/^bad signature/) });
    } finally {
      await wrong.close();
    }
  });

  it('friendPages streams all 1,200 friends, 500 a page', async () => {
    const sizes: number[] = [];
    for await (const page of client.friendPages(uid)) {
      for (const friend of page) expect(friend.uid).toMatch(/^[0-9a-f]{32}$/);
      sizes.push(page.length);
    }
    expect(sizes).toEqual([500, 500, 200]);
  });

  it('site login, test token, authenticate', async () => {
    const cookie = await client.siteLogin(DEMO.user.username);
    const { record } = await client.generateToken(DEMO.game.id, cookie);
    expect(record.uid).toBe(uid);
    const auth = await client.authenticate(record.uid, record.token);
    expect(auth.payload).toMatchObject({ uid, username: DEMO.user.username });
    const invalid = await client.authenticate(record.uid, '0'.repeat(32));
    expect(invalid.payload).toBeNull();
  });
});

describe('game saves: the value in a signed form body', () => {
  /** Text a query encoder gets wrong in every way: spaces, +, &, =, %, quotes, new lines, non-ASCII. */
  const VALUE = '{"name": "a+b & c=d 100%", "note": "line 1\nline 2", "héros": "épée ✓"}';

  it.each(['hmac-sha256-v1', 'agi'] as const)(
    '%s: saved exactly, read back, erased; a token of another user is 403',
    async (scheme) => {
      const c = createClient({
        baseUrl: sandbox.url,
        apiKey: DEMO.game.apiKey,
        signer: createSigner(scheme, DEMO.game.signingSecret),
        verbOverride: scheme === 'agi',
        timeoutMs: 10_000,
        retries: 0,
      });
      try {
        const { record } = await c.generateToken(DEMO.game.id, await c.siteLogin(DEMO.user.username));
        const key = `form-${scheme}`;
        expect((await c.saveGame(uid, key, VALUE, record.token)).payload).toEqual({ key, success: 1 });
        expect((await c.getSaves(uid, key)).payload).toEqual({ [key]: VALUE });
        expect((await c.getSaves(uid)).payload[key]).toBe(VALUE);
        expect((await c.eraseGame(uid, key, record.token)).payload).toEqual({ [key]: 'deleted' });
        expect((await c.getSaves(uid, key)).payload).toEqual({});
        const other = (await c.generateToken(DEMO.game.id, await c.siteLogin('alice'))).record.token;
        const refused = await c.saveGame(uid, key, VALUE, other).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(ApiError);
        expect((refused as ApiError).httpStatus).toBe(403);
      } finally {
        await c.close();
      }
    },
  );
});

describe('hmac-sha256-v1 signatures are used once (issue 31, 5): udcli never reuses one', () => {
  const GIVE = { parentId: DEMO.game.id, sku: 'gems' }; // a PUT counts units
  const held = async () =>
    quantity((await client.listProducts(uid, { parentId: DEMO.game.id, sku: 'gems' })).payload[0]!);
  /** A client whose clock stands still: every request it signs falls in the same second. */
  const frozen = (second: number, retries: number) =>
    createClient({
      baseUrl: sandbox.url,
      apiKey: DEMO.game.apiKey,
      signer: createSigner('hmac-sha256-v1', DEMO.game.signingSecret),
      timeoutMs: 10_000,
      retries,
      nowSeconds: () => second,
    });

  it('the same give twice in one second, and from another process in that second: each its own nonce, all granted, none signed ahead of the clock', async () => {
    const second = Math.floor(Date.now() / 1000);
    const before = await held();
    const first = frozen(second, 0);
    const other = frozen(second, 0);
    try {
      await first.adjustProduct(uid, GIVE, 1, 'increment');
      await first.adjustProduct(uid, GIVE, 1, 'increment');
      // A second udcli (its own signer) in the same second: its nonce makes its signature its own.
      await other.adjustProduct(uid, GIVE, 1, 'increment');
      expect(await held()).toBe(before + 3);
      // All three signed at the frozen second itself (the old workaround signed the repeats 1 and 2 s ahead).
      const db = new Database(sandbox.dbPath, { readonly: true });
      try {
        const ahead = db.prepare('SELECT count(*) AS n FROM used_signatures WHERE timestamp > ?').get(second) as {
          n: number;
        };
        const at = db.prepare('SELECT count(*) AS n FROM used_signatures WHERE timestamp = ?').get(second) as {
          n: number;
        };
        expect(ahead.n).toBe(0);
        expect(at.n).toBeGreaterThanOrEqual(3);
      } finally {
        db.close();
      }
    } finally {
      await Promise.all([first.close(), other.close()]);
    }
  });
});
