/**
 * agi as the sandbox checks it (SERVICE.md: Signatures / agi): the worked examples of
 * agi-signing-vectors.json verify against the sandbox's verifier, and the challenge store keeps
 * its promises — bound to the api_key, 300 s, used up by its first signed request, fresh each time.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { createChallengeStore } from '../../src/sandbox/http/challenges.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX, type AchievementUpdate, type ProductEntry } from '../../src/domain/types.js';
import { AGI_SIGNING_VECTORS } from '../fixtures/agi-signing-vectors.js';
import { api, call, type Params, type TestSandbox } from './helpers/sandbox.js';

type Challenge = { session: string; key: string };

/** The challenge store hands out what the test queues, else random values like the real one. */
const queued: string[] = [];
const store = () => createChallengeStore({ token: () => queued.shift() ?? randomBytes(16).toString('hex') });

async function send<T>(sb: TestSandbox, sentAs: string, path: string, query: Params, body: Params = []) {
  const init =
    body.length > 0
      ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(body).toString() }
      : {};
  return call<T>(sb.url, sentAs, path, query, init);
}

/** The unsigned request, its challenge, and the signed retry's query. */
async function challenged(sb: TestSandbox, sentAs: string, path: string, query: Params, body: Params = []) {
  const first = await send<Challenge>(sb, sentAs, path, query, body);
  expect(first.status, first.body.message).toBe(401);
  expect(first.body.message).toBe('signature required');
  const challenge = first.body.payload!;
  const sig = agiSignature({ ...challenge, path, query, body });
  return { challenge, signed: [...query, ['session', challenge.session], ['sig', sig]] as Params };
}

describe('the worked examples verify against the sandbox', () => {
  let sb: TestSandbox;
  const VECTOR_UID = 'c3323c76c063636c91d2e8cb8f4dfcaf';
  beforeAll(async ({ newSb }) => {
    sb = await newSb({ challenges: store() });
    const { repos } = sb.db;
    // Vector 0 is the SDK documentation's own example: its game, key, user and consumable.
    repos.games.insert({
      id: '1000042',
      type: 'Game',
      name: 'SDK example',
      launchable: false,
      contentUri: null,
      signing: 'agi',
      createdOn: 0,
    });
    repos.games.insertApiKey({
      apiKey: 'e7ac17510f3a4e55874ba4c59b1a79d0',
      gameId: '1000042',
      signingSecret: 'unused',
      partner: false,
      label: '',
      createdOn: 0,
    });
    repos.users.insert({ uid: VECTOR_UID, username: 'vector_user', gender: 'unspecified', createdOn: 0 });
    const cookies = repos.products.insert({
      parentId: '1000042',
      sku: '2wa-cookies:20',
      name: 'Cookies',
      description: '',
      type: 'consumable',
      priceCents: 99,
      displayOrder: 1,
      image: '',
      status: 'active',
      sold: 0,
      createdOn: 0,
      updatedOn: 0,
    });
    repos.products.setQuantity(VECTOR_UID, cookies, 5, 0);
    // Vector 2 names its sku in another case than the demo's héros+épée: a product of its own.
    repos.products.insert({
      parentId: '1001',
      sku: 'Héros+Épée',
      name: 'Épée (vector)',
      description: '',
      type: 'unlockable',
      priceCents: 0,
      displayOrder: 99,
      image: '',
      status: 'active',
      sold: 0,
      createdOn: 0,
      updatedOn: 0,
    });
  });

  for (const [i, v] of AGI_SIGNING_VECTORS.vectors.entries()) {
    it(`vector ${i}: ${v.note}`, async () => {
      queued.push(v.session, v.key);
      const first = await send<Challenge>(sb, v.sent_as, v.path, v.query, v.body);
      expect(first.status).toBe(401);
      expect(first.body.payload).toEqual({ session: v.session, key: v.key });
      const r = await send(sb, v.sent_as, v.path, [...v.query, ['session', v.session], ['sig', v.sig]], v.body);
      expect(r.status, r.body.message).toBe(200);
    });
  }

  it('a worked example with one value changed is a bad signature, with a fresh challenge', async () => {
    const v = AGI_SIGNING_VECTORS.vectors[1]!;
    queued.push(v.session, v.key);
    await send(sb, v.sent_as, v.path, v.query);
    const tampered = v.query.map(([n, val]) => [n, n === 'progress' ? '0.9' : val] as [string, string]);
    const r = await send<Challenge>(sb, v.sent_as, v.path, [...tampered, ['session', v.session], ['sig', v.sig]]);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/^bad signature \(agi: /);
    expect(r.body.payload?.session).toMatch(/^[0-9a-f]{32}$/);
    expect(r.body.payload?.session).not.toBe(v.session);
  });
});

describe('the challenge store', () => {
  let sb: TestSandbox;
  const UID = DEMO.user.uid;
  const PATH = `${API_PREFIX}/achievements/user/${UID}.json`;
  const inc = (by: string): Params => [
    ['api_key', DEMO.game.apiKey],
    ['pid', '1001'],
    ['developer_id', 'COLLECT_1000_GEMS'],
    ['increment', by],
    ['method', 'put'],
  ];
  const gems = async () =>
    (
      await api<Array<{ current_value: number }>>(sb.url, 'GET', `/achievements/user/${UID}.json`, [
        ['developer_id', 'COLLECT_1000_GEMS'],
      ])
    ).body.payload![0]!.current_value;

  beforeAll(({ sb: fileSb }) => {
    sb = fileSb;
  });

  it('hands out a fresh session and key of 32 hex digits each time, and the unsigned request changes nothing', async () => {
    const before = await gems();
    const a = await send<Challenge>(sb, 'POST', PATH, inc('1'));
    const b = await send<Challenge>(sb, 'POST', PATH, inc('1'));
    for (const r of [a, b]) {
      expect(r).toMatchObject({ status: 401, body: { code: 401, message: 'signature required' } });
      expect(r.body.payload).toEqual({
        session: expect.stringMatching(/^[0-9a-f]{32}$/),
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    }
    expect(
      new Set([a.body.payload!.session, a.body.payload!.key, b.body.payload!.session, b.body.payload!.key]).size,
    ).toBe(4);
    expect(await gems()).toBe(before);
  });

  it('a session signs one request: a replay is a stale session and changes nothing', async () => {
    const before = await gems();
    const { signed } = await challenged(sb, 'POST', PATH, inc('5'));
    const ok = await send<AchievementUpdate>(sb, 'POST', PATH, signed);
    expect(ok.status).toBe(200);
    expect(ok.body.payload?.current_value).toBe(before + 5);
    const replay = await send<Challenge>(sb, 'POST', PATH, signed);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/^stale session/);
    expect(replay.body.payload?.session).toMatch(/^[0-9a-f]{32}$/);
    expect(await gems()).toBe(before + 5);
  });

  it('a bad signature uses the session up too: the right signature after it is stale', async () => {
    const { challenge, signed } = await challenged(sb, 'POST', PATH, inc('1'));
    const wrong = await send(sb, 'POST', PATH, [...inc('1'), ['session', challenge.session], ['sig', '0'.repeat(32)]]);
    expect(wrong.body.message).toMatch(/^bad signature \(agi: /);
    expect((await send(sb, 'POST', PATH, signed)).body.message).toMatch(/^stale session/);
  });

  it('is bound to the api_key that asked for it', async () => {
    const { challenge } = await challenged(sb, 'POST', PATH, inc('1'));
    const partner: Params = inc('1').map(([n, v]) => [n, n === 'api_key' ? DEMO.partner.apiKey : v]);
    const sig = agiSignature({ ...challenge, path: PATH, query: partner });
    const r = await send(sb, 'POST', PATH, [...partner, ['session', challenge.session], ['sig', sig]]);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/^stale session/);
  });

  it('lives 300 s on the server clock', async () => {
    const fresh = await challenged(sb, 'POST', PATH, inc('1'));
    sb.clock.advance(299);
    expect((await send(sb, 'POST', PATH, fresh.signed)).status).toBe(200);
    const old = await challenged(sb, 'POST', PATH, inc('1'));
    sb.clock.advance(301);
    const r = await send(sb, 'POST', PATH, old.signed);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/^stale session/);
  });

  it('a sig without a session, and a session without a sig, get a challenge', async () => {
    const noSession = await send<Challenge>(sb, 'POST', PATH, [...inc('1'), ['sig', '0'.repeat(32)]]);
    expect(noSession).toMatchObject({ status: 401, body: { message: 'signature required (sig without session)' } });
    const { challenge } = await challenged(sb, 'POST', PATH, inc('1'));
    const noSig = await send<Challenge>(sb, 'POST', PATH, [...inc('1'), ['session', challenge.session]]);
    expect(noSig).toMatchObject({ status: 401, body: { message: 'signature required (session without sig)' } });
  });

  it('signs the form body: a body field changed after signing is a bad signature', async () => {
    const body: Params = [['note', 'QA run 7']];
    const { signed } = await challenged(sb, 'POST', PATH, inc('1'), body);
    const r = await send(sb, 'POST', PATH, signed, [['note', 'QA run 8']]);
    expect(r.body.message).toMatch(/^bad signature \(agi: /);
    const ok = await challenged(sb, 'POST', PATH, inc('1'), body);
    expect((await send(sb, 'POST', PATH, ok.signed, body)).status).toBe(200);
  });

  it('a partner key may leave achievement PUTs unsigned, never product PUTs', async () => {
    const give: Params = [
      ['api_key', DEMO.partner.apiKey],
      ['parent_id', '1001'],
      ['sku', 'xp-boost'],
      ['qty', '1'],
      ['increment', 'true'],
      ['method', 'put'],
    ];
    const path = `${API_PREFIX}/products/user/${UID}.json`;
    // challenged() asserts the unsigned PUT is answered with a challenge, not carried out.
    const { signed } = await challenged(sb, 'POST', path, give);
    const r = await send<ProductEntry>(sb, 'POST', path, signed);
    expect(r.status).toBe(200);
    const partnerInc: Params = inc('1').map(([n, v]) => [n, n === 'api_key' ? DEMO.partner.apiKey : v]);
    expect((await send(sb, 'POST', PATH, partnerInc)).status).toBe(200);
  });
});

describe('createChallengeStore', () => {
  it('keeps at most its limit, dropping the oldest; expired ones are swept', () => {
    const s = createChallengeStore({ limit: 3 });
    const issued = [1, 2, 3, 4].map(() => s.issue('k', 0));
    expect(s.size).toBe(3);
    expect(s.take(issued[0]!.session, 'k', 0)).toBeUndefined();
    expect(s.take(issued[3]!.session, 'k', 0)).toEqual(issued[3]);
    s.issue('k', 300_001);
    expect(s.size).toBe(1);
  });

  it('hands out sessions and keys of 32 hex digits, never one twice, across many refills of its random pool', () => {
    const s = createChallengeStore();
    const tokens = Array.from({ length: 1000 }, () => s.issue('k', 0)).flatMap((c) => [c.session, c.key]);
    for (const token of tokens) expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });
});
