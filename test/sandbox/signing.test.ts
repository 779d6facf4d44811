/**
 * hmac-sha256-v1 as the sandbox checks it: the shared vectors, the clock window, one use per
 * signature (issue 31, 5), partner keys,
 * and which games accept it (1001 both schemes, 1002 agi only). agi itself: agi-signing.test.ts.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX, type AchievementUpdate, type ProductEntry } from '../../src/domain/types.js';
import { SIGNING_VECTORS, type SigningVector } from '../fixtures/signing-vectors.js';
import { achievementRecords, api, call, queryString, sign, signedApi, type TestSandbox } from './helpers/sandbox.js';

const { vectors } = SIGNING_VECTORS;
const VECTOR_TIME = 1_795_000_000;
const VECTOR_UID = 'c3323c76c063636c91d2e8cb8f4dfcaf';

/** Sends the request exactly as the vector describes it, with the vector's signature. */
async function sendVector<T>(sb: TestSandbox, v: SigningVector) {
  const url = `${sb.url}${v.path}?${queryString(v.params)}&signature=${v.signature}`;
  const response = await fetch(url, { method: v.sent_as });
  return { status: response.status, body: (await response.json()) as { code: number; message: string; payload: T } };
}

describe('the shared signing vectors verify against the sandbox (clock at the vectors time)', () => {
  let sb: TestSandbox;
  beforeAll(async ({ newSb }) => {
    sb = await newSb({ startMs: VECTOR_TIME * 1000 });
    // The vectors' user: the uid is given, so store it directly.
    sb.db.repos.users.insert({
      uid: VECTOR_UID,
      username: 'vector_user',
      gender: 'unspecified',
      createdOn: VECTOR_TIME - 86_400,
    });
  });

  // In order: each vector's change starts from the state the one before left.
  it.each([
    [0, 'PUT increment FIRST_WIN', 'FIRST_WIN', 'Completed', 1, 100],
    [1, 'PUT progress 0.5 with a developer_id full of reserved characters', 'SPEED RUN/100%', 'In Progress', 50, 50],
    [2, 'POST with method=put (the effective method is signed) resets FIRST_WIN', 'FIRST_WIN', 'In Progress', 0, 0],
  ] as const)('vector %i: %s', async (index, _title, developer_id, state, current_value, percent_complete) => {
    const r = await sendVector<AchievementUpdate>(sb, vectors[index]!);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({ state, current_value, percent_complete, developer_id });
  });

  it('vector 3: PUT products increment gold-pack_10 by 3', async () => {
    const r = await sendVector<ProductEntry>(sb, vectors[3]!);
    expect(r.status).toBe(200);
    expect(r.body.payload.purchase).toMatchObject({ success: true, data: 3 });
  });

  it('vector 4: PUT products decrement of a non-ASCII SKU', async () => {
    const grant = await api(sb.url, 'POST', `/products/user/${VECTOR_UID}.json`, [
      ['parent_id', '1001'],
      ['sku', 'héros+épée'],
      ['qty', '1'],
    ]);
    expect(grant.status).toBe(200);
    const r = await sendVector<ProductEntry>(sb, vectors[4]!);
    expect(r.status).toBe(200);
    expect(r.body.payload.purchase).toMatchObject({ success: false, data: false });
  });

  it('a vector replayed with one parameter changed is a bad signature', async () => {
    const v = vectors[0]!;
    const tampered = {
      ...v,
      params: v.params.map(([n, val]) => [n, n === 'increment' ? '5' : val] as [string, string]),
    };
    const r = await sendVector(sb, tampered);
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/^bad signature \(hmac-sha256-v1: /);
  });

  it('a vector sent with a different verb than it signed is a bad signature', async () => {
    const r = await sendVector(sb, {
      ...vectors[0]!,
      sent_as: 'POST',
      params: [['method', 'put'], ...vectors[0]!.params],
    });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/^bad signature \(hmac-sha256-v1: /);
  });
});

describe('signature rules', () => {
  let sb: TestSandbox;
  const bob = uidForUsername('bob');
  const UA = `/achievements/user/${bob}.json`;
  const PRODUCTS = `/products/user/${bob}.json`;
  const inc: Array<[string, string]> = [
    ['type', 'Game'],
    ['pid', '1001'],
    ['developer_id', 'DAILY_STREAK_7'],
    ['increment', '1'],
  ];
  const give: Array<[string, string]> = [
    ['parent_id', '1001'],
    ['sku', 'xp-boost'],
    ['qty', '1'],
    ['increment', 'true'],
  ];
  beforeAll(({ sb: fileSb }) => {
    sb = fileSb;
  });

  it('requires a signature on achievement PUTs and product PUTs: unsigned, a game accepting agi answers the challenge', async () => {
    for (const [path, params] of [
      [UA, inc],
      [PRODUCTS, give],
    ] as const) {
      const r = await api(sb.url, 'PUT', path, [...params, ['timestamp', String(Math.floor(sb.clock.ms / 1000))]]);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({
        code: 401,
        message: 'signature required',
        payload: { session: expect.stringMatching(/^[0-9a-f]{32}$/) },
      });
    }
  });

  it('a game that accepts hmac-sha256-v1 only answers an unsigned PUT with 403 saying what to send', async () => {
    sb.db.repos.games.insert({
      id: 'hm1',
      type: 'Game',
      name: 'Hmac Only',
      launchable: false,
      contentUri: null,
      signing: 'hmac-sha256-v1',
      createdOn: 0,
    });
    const key = 'ab'.repeat(16);
    sb.db.repos.games.insertApiKey({
      apiKey: key,
      gameId: 'hm1',
      signingSecret: 'hm1-secret',
      partner: false,
      label: '',
      createdOn: 0,
    });
    sb.db.repos.achievements.insertDefinition({
      parentId: 'hm1',
      developerId: 'ONE',
      name: 'One',
      description: '',
      adminDescription: '',
      icon: '',
      startValue: 0,
      targetValue: 3,
      score: 1,
      state: 'Active',
      tags: {},
      createdOn: 0,
      updatedOn: 0,
    });
    const params: Array<[string, string]> = [
      ['pid', 'hm1'],
      ['developer_id', 'ONE'],
      ['increment', '1'],
    ];
    const unsigned = await api(sb.url, 'PUT', UA, params, key);
    expect(unsigned.status).toBe(403);
    expect(unsigned.body).toMatchObject({
      payload: null,
      message: 'signature required (this game accepts hmac-sha256-v1 only: send timestamp and signature)',
    });
    const agiTry = await api(
      sb.url,
      'PUT',
      UA,
      [...params, ['session', 'ab'.repeat(16)], ['sig', 'cd'.repeat(16)]],
      key,
    );
    expect(agiTry.status).toBe(403);
    const signed = await signedApi(sb, 'PUT', UA, params, { key, secret: 'hm1-secret' });
    expect(signed.status).toBe(200);
  });

  it('rejects a wrong signature, one made with another key’s secret, and a signature without timestamp', async () => {
    const now = Math.floor(sb.clock.ms / 1000);
    const wrong = await api(sb.url, 'PUT', UA, [...inc, ['timestamp', String(now)], ['signature', 'ab'.repeat(32)]]);
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toMatch(/^bad signature \(hmac-sha256-v1: /);
    const otherSecret = await signedApi(sb, 'PUT', UA, inc, { secret: DEMO.secondGame.signingSecret });
    expect(otherSecret.body.message).toMatch(/^bad signature \(hmac-sha256-v1: /);
    const noTimestamp = await api(sb.url, 'PUT', UA, [...inc, ['signature', 'ab'.repeat(32)]]);
    expect(noTimestamp.status).toBe(400);
    expect(noTimestamp.body.message).toBe('missing parameter: timestamp');
    const badTimestamp = await api(sb.url, 'PUT', UA, [
      ...inc,
      ['timestamp', 'yesterday'],
      ['signature', 'ab'.repeat(32)],
    ]);
    expect(badTimestamp.body.message).toMatch(/^invalid parameter: timestamp/);
  });

  it('accepts the signature in upper-case hex', async () => {
    const full = `${API_PREFIX}${UA}`;
    const params = sign(
      'PUT',
      full,
      [['api_key', DEMO.game.apiKey], ...inc],
      DEMO.game.signingSecret,
      Math.floor(sb.clock.ms / 1000),
    );
    const upper = params.map(([n, v]) => [n, n === 'signature' ? v.toUpperCase() : v] as [string, string]);
    const r = await call(sb.url, 'PUT', full, upper);
    expect(r.status).toBe(200);
  });

  it('accepts a timestamp up to 300 s away from the server clock, either side, and no further', async () => {
    const now = Math.floor(sb.clock.ms / 1000);
    // (0 is the upper-case test's timestamp: that signature is used.)
    for (const skew of [-300, 300, 1]) {
      const r = await signedApi(sb, 'PUT', UA, inc, { timestamp: now + skew });
      expect(r.status, `skew ${skew}`).toBe(200);
    }
    for (const skew of [-301, 301, -86_400]) {
      const r = await signedApi(sb, 'PUT', UA, inc, { timestamp: now + skew });
      expect(r.status, `skew ${skew}`).toBe(403);
      expect(r.body.message).toMatch(/^stale timestamp/);
    }
  });

  it('follows the server clock, not the wall clock', async () => {
    const signedAt = Math.floor(sb.clock.ms / 1000);
    sb.clock.advance(301);
    const r = await signedApi(sb, 'PUT', UA, inc, { timestamp: signedAt });
    expect(r.body.message).toMatch(/^stale timestamp/);
    sb.clock.advance(-301);
  });

  it('a captured signed give, sent three times, is granted once: then 401 signature already used, for the rest of its window', async () => {
    const gems: Array<[string, string]> = [
      ['parent_id', '1001'],
      ['sku', 'gems'],
      ['qty', '1'],
      ['increment', 'true'],
    ]; // a PUT counts units
    const held = async () =>
      (
        await api<Array<{ purchase: { data: number } }>>(sb.url, 'GET', PRODUCTS, [
          ['parent_id', '1001'],
          ['sku', 'gems'],
        ])
      ).body.payload?.[0]?.purchase.data ?? 0;
    const before = await held();
    const signedAt = Math.floor(sb.clock.ms / 1000);
    const full = `${API_PREFIX}${PRODUCTS}`;
    const captured = sign('PUT', full, [['api_key', DEMO.game.apiKey], ...gems], DEMO.game.signingSecret, signedAt);
    const replies = [];
    for (let k = 0; k < 3; k++) replies.push(await call(sb.url, 'PUT', full, captured));
    expect(replies.map((r) => r.status)).toEqual([200, 401, 401]);
    expect(replies[1]!.body).toMatchObject({
      code: 401,
      message: expect.stringMatching(/^signature already used \(hmac-sha256-v1/),
      payload: null,
    });
    expect(await held()).toBe(before + 1);
    // In upper case it is the same signature; sent as POST with the override, a different one (another effective
    // request line).
    const upper = captured.map(([n, v]) => [n, n === 'signature' ? v.toUpperCase() : v] as [string, string]);
    expect((await call(sb.url, 'PUT', full, upper)).status).toBe(401);
    // To the end of the window, and past it the timestamp is stale anyway.
    sb.clock.advance(300);
    expect((await call(sb.url, 'PUT', full, captured)).body.message).toMatch(/^signature already used/);
    sb.clock.advance(1);
    expect((await call(sb.url, 'PUT', full, captured)).body.message).toMatch(/^stale timestamp/);
    sb.clock.advance(-301);
    expect(await held()).toBe(before + 1);
    // A new signature of the same change (another second) is a new request.
    expect((await signedApi(sb, 'PUT', PRODUCTS, gems, { timestamp: signedAt + 1 })).status).toBe(200);
    expect(await held()).toBe(before + 2);
  });

  it('lets a partner key omit the signature on achievement PUTs, but never on product PUTs', async () => {
    const partnerInc = await api<AchievementUpdate>(sb.url, 'PUT', UA, inc, DEMO.partner.apiKey);
    expect(partnerInc.status).toBe(200);
    expect(partnerInc.body.payload?.developer_id).toBe('DAILY_STREAK_7');
    const partnerGive = await api(sb.url, 'PUT', PRODUCTS, give, DEMO.partner.apiKey);
    expect(partnerGive.status).toBe(401);
    expect(partnerGive.body.message).toBe('signature required');
  });

  it('checks a partner’s signature when one is sent, against the partner key’s own secret', async () => {
    const own = await signedApi(sb, 'PUT', PRODUCTS, give, {
      key: DEMO.partner.apiKey,
      secret: DEMO.partner.signingSecret,
    });
    expect(own.status).toBe(200);
    const gameSecret = await signedApi(sb, 'PUT', UA, inc, {
      key: DEMO.partner.apiKey,
      secret: DEMO.game.signingSecret,
    });
    expect(gameSecret.status).toBe(403);
    expect(gameSecret.body.message).toMatch(/^bad signature \(hmac-sha256-v1: /);
  });

  it('game 1002 accepts agi only: a right hmac signature gets the agi challenge and changes nothing', async () => {
    const params: Array<[string, string]> = [
      ['type', 'Game'],
      ['pid', '1002'],
      ['developer_id', 'PUZZLE_MASTER'],
      ['increment', '5'],
    ];
    const r = await signedApi<AchievementUpdate>(sb, 'PUT', UA, params, {
      key: DEMO.secondGame.apiKey,
      secret: DEMO.secondGame.signingSecret,
    });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({
      message: 'signature required (this game accepts agi only)',
      payload: { session: expect.any(String), key: expect.any(String) },
    });
    expect(await achievementRecords(sb.url, UA, 'PUZZLE_MASTER', DEMO.secondGame.apiKey)).toEqual([]);
  });

  it('does not require a signature on GET, POST grants or DELETE', async () => {
    expect(
      (
        await api(sb.url, 'GET', UA, [
          ['type', 'Game'],
          ['pid', '1001'],
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await api(sb.url, 'POST', PRODUCTS, [
          ['parent_id', '1001'],
          ['sku', 'xp-boost'],
          ['qty', '1'],
        ])
      ).status,
    ).toBe(200);
    expect(
      (
        await api(sb.url, 'DELETE', UA, [
          ['type', 'Game'],
          ['pid', '1001'],
          ['developer_id', 'DAILY_STREAK_7'],
        ])
      ).status,
    ).toBe(200);
  });
});
