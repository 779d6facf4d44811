/**
 * Game saves (SERVICE.md: Game saves) over real HTTP: read, save, replace, erase; the token and
 * signature a change needs; and every bound (key form, value size, 100 keys), each refused with
 * one clear 4xx that changes nothing. Changes here are hmac-signed (game 1001 accepts both
 * schemes); the SDK's own agi flow is in platform-sdk-saves.test.ts.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { Envelope } from '../../src/domain/types.js';
import { api, freshNonce, queryString, sign, type Params, type TestSandbox } from './helpers/sandbox.js';

const PLAYER = DEMO.user.uid;
const ALICE = uidForUsername('alice');
const path = (uid: string) => `/services/rest/v1/gamesave/${uid}.json`;

let sb: TestSandbox;

async function tokenFor(username: string, gameId: string = DEMO.game.id): Promise<string> {
  const login = await fetch(`${sb.url}/login?username=${encodeURIComponent(username)}`, { method: 'POST' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const r = await fetch(`${sb.url}/service/user-auth-token-generator/${gameId}`, { headers: { cookie } });
  return ((await r.json()) as { token: string }).token;
}

interface SendOptions {
  verb?: 'POST' | 'DELETE';
  /** Form-body fields, sent as the SDK sends `data`. */
  body?: Params;
  key?: string;
  secret?: string;
  signed?: boolean;
}

/** A change to a save: hmac-signed query (api_key first), `body` as a form-encoded body. */
// biome-ignore lint/suspicious/noExplicitAny: a reply of any payload
type AnyEnvelope = Envelope<any>;

async function change(
  uid: string,
  params: Params,
  options: SendOptions = {},
): Promise<{ status: number; body: AnyEnvelope }> {
  const verb = options.verb ?? 'POST';
  const query: Params = [['api_key', options.key ?? DEMO.game.apiKey], ...params, ['nonce', freshNonce()]];
  // hmac-sha256-v1 signs the body's fields with the query's: sign both, send the body apart.
  const unsigned: Params = [...query, ...(options.body ?? [])];
  const all = sign(
    verb,
    path(uid),
    unsigned,
    options.secret ?? DEMO.game.signingSecret,
    Math.floor(sb.clock.ms / 1000),
  );
  const signed = options.signed === false ? query : all.filter((pair) => !options.body?.includes(pair));
  const response = await fetch(`${sb.url}${path(uid)}?${queryString(signed)}`, {
    method: verb,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    ...(options.body ? { body: queryString(options.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as AnyEnvelope };
}

const saveGame = (uid: string, token: string, key: string, data: string, options: SendOptions = {}) =>
  change(
    uid,
    [
      ['auth_token', token],
      ['key', key],
    ],
    { ...options, body: [['data', data]] },
  );
const eraseGame = (uid: string, token: string, key: string, options: SendOptions = {}) =>
  change(
    uid,
    [
      ['method', 'delete'],
      ['auth_token', token],
      ['key', key],
    ],
    options,
  );
const retrieve = (uid: string, key?: string, apiKey: string = DEMO.game.apiKey) =>
  api<Record<string, string>>(sb.url, 'GET', `/gamesave/${uid}.json`, key === undefined ? [] : [['key', key]], apiKey);

beforeAll(({ sb: fileSb }) => {
  sb = fileSb;
});

describe('reading saves', () => {
  it('answers {} for a key never saved, and for a user with no saves', async () => {
    expect((await retrieve(PLAYER, 'nothing')).body).toEqual({ version: 1, code: 200, message: 'OK', payload: {} });
    expect((await retrieve(PLAYER)).body.payload).toEqual({});
  });

  it('needs an api_key and a known user', async () => {
    const r = await fetch(`${sb.url}${path(PLAYER)}?key=slot1`);
    expect(r.status).toBe(401);
    const unknown = await retrieve('0'.repeat(32), 'slot1');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(`not found: user ${'0'.repeat(32)}`);
  });
});

describe('saving and erasing', () => {
  let token: string;
  beforeAll(async () => {
    token = await tokenFor(DEMO.user.username);
  });

  it('saves a value (data in the form body), reads it back as text, and replaces it', async () => {
    const value = JSON.stringify({ level: 3, name: 'Zoë <b>&</b>' });
    const r = await saveGame(PLAYER, token, 'slot1', value);
    expect(r.status).toBe(200);
    expect(r.body.payload).toEqual({ key: 'slot1', success: 1 });
    expect((await retrieve(PLAYER, 'slot1')).body.payload).toEqual({ slot1: value });
    expect((await saveGame(PLAYER, token, 'slot1', '{"level":4}')).body.payload).toEqual({ key: 'slot1', success: 1 });
    expect((await saveGame(PLAYER, token, 'options.v-2_x', '[]')).status).toBe(200);
    expect((await retrieve(PLAYER, 'slot1')).body.payload).toEqual({ slot1: '{"level":4}' });
    // Without key: every save of the user and the key's game (the sandbox's extension).
    expect((await retrieve(PLAYER)).body.payload).toEqual({ 'options.v-2_x': '[]', slot1: '{"level":4}' });
  });

  it("keeps each game's saves apart: the other game's key sees none of them", async () => {
    expect((await retrieve(PLAYER, 'slot1', DEMO.secondGame.apiKey)).body.payload).toEqual({});
    expect((await retrieve(PLAYER, undefined, DEMO.secondGame.apiKey)).body.payload).toEqual({});
  });

  it('erases with POST method=delete and with DELETE; an absent key is 404 not found: save K', async () => {
    await saveGame(PLAYER, token, 'temp', '1');
    const erased = await eraseGame(PLAYER, token, 'temp');
    expect(erased.status).toBe(200);
    expect(erased.body.payload).toEqual({ temp: 'deleted' });
    expect((await retrieve(PLAYER, 'temp')).body.payload).toEqual({});
    const again = await eraseGame(PLAYER, token, 'temp');
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 404, message: 'not found: save temp', payload: null });
    await saveGame(PLAYER, token, 'temp', '2');
    const viaDelete = await change(
      PLAYER,
      [
        ['auth_token', token],
        ['key', 'temp'],
      ],
      { verb: 'DELETE' },
    );
    expect(viaDelete.body.payload).toEqual({ temp: 'deleted' });
    expect((await retrieve(PLAYER, 'temp')).body.payload).toEqual({});
  });

  it('answers in XML too, a key that is no XML name as <item key="...">', async () => {
    await saveGame(PLAYER, token, '1st', '{"a":"<b>"}');
    const r = await fetch(`${sb.url}/services/rest/v1/gamesave/${PLAYER}.xml?api_key=${DEMO.game.apiKey}&key=1st`);
    expect(await r.text()).toContain('<payload><item key="1st">{&quot;a&quot;:&quot;&lt;b&gt;&quot;}</item></payload>');
    expect((await eraseGame(PLAYER, token, '1st')).status).toBe(200);
  });

  it('refuses (hmac) a data value changed after signing: the body is signed', async () => {
    const query: Params = [
      ['api_key', DEMO.game.apiKey],
      ['auth_token', token],
      ['key', 'slot1'],
    ];
    const signed = sign(
      'POST',
      path(PLAYER),
      [...query, ['data', '"mine"']],
      DEMO.game.signingSecret,
      Math.floor(sb.clock.ms / 1000),
    );
    const response = await fetch(`${sb.url}${path(PLAYER)}?${queryString(signed.filter(([n]) => n !== 'data'))}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'data=%22theirs%22',
    });
    expect(response.status).toBe(403);
    expect(((await response.json()) as Envelope<null>).message).toMatch(/^bad signature/);
    expect((await retrieve(PLAYER, 'slot1')).body.payload).toEqual({ slot1: '{"level":4}' });
  });

  it('answers an unsigned change with the agi challenge first, and saves nothing', async () => {
    const r = await saveGame(PLAYER, token, 'unsigned', '1', { signed: false });
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/^signature required/);
    expect(r.body.payload).toEqual({
      session: expect.stringMatching(/^[0-9a-f]{32}$/),
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect((await retrieve(PLAYER, 'unsigned')).body.payload).toEqual({});
  });

  it("refuses, with 403 invalid auth_token, a token that is unknown, another user's, another game's or expired: nothing changes", async () => {
    const aliceToken = await tokenFor('alice');
    const otherGame = await tokenFor(DEMO.user.username, DEMO.secondGame.id);
    const cases: Array<[string, string]> = [
      ['f'.repeat(32), 'unknown token'],
      [aliceToken, 'issued to another user'],
      [otherGame, 'issued for another game'],
    ];
    for (const [bad, why] of cases) {
      const saved = await saveGame(PLAYER, bad, 'slot1', '"hacked"');
      expect(saved.status).toBe(403);
      expect(saved.body).toMatchObject({ code: 403, message: `invalid auth_token (${why})`, payload: null });
      const erased = await eraseGame(PLAYER, bad, 'slot1');
      expect(erased.status).toBe(403);
    }
    // A token of the right user works on that user only: alice's token does not reach the player's saves.
    expect((await saveGame(ALICE, aliceToken, 'slot1', '"alice"')).status).toBe(200);
    expect((await retrieve(PLAYER, 'slot1')).body.payload).toEqual({ slot1: '{"level":4}' });

    const short = await tokenFor(DEMO.user.username);
    sb.clock.advance(900);
    const expired = await saveGame(PLAYER, short, 'slot1', '"late"');
    expect(expired.body.message).toBe('invalid auth_token (expired)');
    expect((await retrieve(PLAYER, 'slot1')).body.payload).toEqual({ slot1: '{"level":4}' });
    token = await tokenFor(DEMO.user.username);
  });

  it('needs auth_token and data, and a key of 1-64 of A-Z a-z 0-9 _ . -', async () => {
    const noToken = await change(PLAYER, [['key', 'slot1']], { body: [['data', '1']] });
    expect(noToken.body).toMatchObject({ code: 400, message: 'missing parameter: auth_token' });
    const noData = await change(PLAYER, [
      ['auth_token', token],
      ['key', 'slot9'],
    ]);
    expect(noData.status).toBe(400);
    expect(noData.body.message).toBe('missing parameter: data');
    for (const key of ['slot 1', 'k'.repeat(65), 'slot/1', 'é']) {
      const r = await saveGame(PLAYER, token, key, '1');
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^invalid parameter: key \(1 to 64 of A-Z a-z 0-9 _ \. -/);
    }
    expect((await saveGame(PLAYER, token, 'k'.repeat(64), '1')).status).toBe(200);
    expect((await eraseGame(PLAYER, token, 'k'.repeat(64))).status).toBe(200);
    const badGet = await retrieve(PLAYER, 'no space');
    expect(badGet.body.message).toMatch(/^invalid parameter: key/);
    expect((await retrieve(PLAYER)).body.payload).toEqual({ 'options.v-2_x': '[]', slot1: '{"level":4}' });
  });

  it('answers 404 for a change to an unknown user', async () => {
    const r = await saveGame('0'.repeat(32), token, 'slot1', '1');
    expect(r.status).toBe(404);
  });
});

describe('bounds', () => {
  it('keeps the 100-key bound under 120 saves of new keys in flight at once: exactly 100 saved, 20 refused', async () => {
    const dave = uidForUsername('dave');
    const token = await tokenFor('dave');
    const statuses = await Promise.all(
      Array.from({ length: 120 }, (_, i) => saveGame(dave, token, `p${i}`, String(i)).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 409)).toHaveLength(20);
    expect(Object.keys((await retrieve(dave)).body.payload ?? {})).toHaveLength(100);
  });

  it('takes a 200 KiB value in the form body, and refuses one over 256 KiB of UTF-8 with 400 naming the limit', async () => {
    const token = await tokenFor('carol');
    const carol = uidForUsername('carol');
    const big = JSON.stringify({ map: 'x'.repeat(200 * 1024) });
    expect((await saveGame(carol, token, 'big', big)).body.payload).toEqual({ key: 'big', success: 1 });
    expect((await retrieve(carol, 'big')).body.payload).toEqual({ big });
    // 131,073 two-byte characters: within 256 Ki characters, over 256 KiB of UTF-8.
    const over = await saveGame(carol, token, 'big', 'é'.repeat(131_073));
    expect(over.status).toBe(400);
    expect(over.body.message).toBe('invalid parameter: data (262146 bytes of UTF-8; at most 262144 (256 KiB))');
    expect((await saveGame(carol, token, 'exact', 'é'.repeat(131_072))).status).toBe(200);
    expect((await retrieve(carol, 'big')).body.payload).toEqual({ big });
  });

  it('keeps at most 100 keys per user and game: the 101st is 409 and saves nothing; replacing one still works', async () => {
    const bob = uidForUsername('bob');
    const token = await tokenFor('bob');
    for (let i = 0; i < 100; i++) expect((await saveGame(bob, token, `k${i}`, String(i))).status).toBe(200);
    const r = await saveGame(bob, token, 'k100', '100');
    expect(r.status).toBe(409);
    expect(r.body).toMatchObject({
      code: 409,
      message: 'too many saves: at most 100 keys per user and game',
      payload: null,
    });
    expect((await retrieve(bob, 'k100')).body.payload).toEqual({});
    expect((await saveGame(bob, token, 'k7', 'seven')).status).toBe(200);
    expect(Object.keys((await retrieve(bob)).body.payload ?? {})).toHaveLength(100);
  });
});
