/** The site login, the token generator (spec 4.2) and authenticate (spec 4.1). */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import type { AuthenticatedUser, TokenRecord } from '../../src/domain/types.js';
import { api, exactRequest, type TestSandbox } from './helpers/sandbox.js';

async function login(
  sb: TestSandbox,
  username: string,
): Promise<{ status: number; cookie: string; body: Record<string, unknown> }> {
  const r = await fetch(`${sb.url}/login?username=${encodeURIComponent(username)}`, { method: 'POST' });
  const cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  return { status: r.status, cookie, body: (await r.json()) as Record<string, unknown> };
}

async function generate(sb: TestSandbox, gameId: string, cookie?: string) {
  const r = await fetch(`${sb.url}/service/user-auth-token-generator/${gameId}`, { headers: cookie ? { cookie } : {} });
  return { status: r.status, body: (await r.json()) as TokenRecord & { message?: string } };
}

const authenticate = (sb: TestSandbox, userId: string, token: string, key: string = DEMO.game.apiKey) =>
  api<AuthenticatedUser>(
    sb.url,
    'GET',
    '/authenticate/user.json',
    [
      ['user_id', userId],
      ['auth_token', token],
    ],
    key,
  );

describe('login and the token generator', () => {
  it('logs in without a password and sets a session cookie', async ({ sb }) => {
    const r = await login(sb, 'demo_player');
    expect(r.status).toBe(200);
    expect(r.cookie).toMatch(/^__Host-udcli_sandbox_session=[0-9a-f]{32}$/);
    expect(r.body).toMatchObject({ status: true, uid: DEMO.user.uid, username: 'demo_player', cookie: r.cookie });
  });

  it('answers an unknown username with 404 JSON, and other verbs with 405', async ({ sb }) => {
    const r = await login(sb, 'nobody');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ status: false, message: expect.stringMatching(/^not found: user/) });
    const get = await fetch(`${sb.url}/login?username=demo_player`);
    expect(get.status).toBe(405);
    const missing = await fetch(`${sb.url}/login`, { method: 'POST' });
    expect(missing.status).toBe(400);
  });

  it('refuses to generate a token without the cookie: HTTP 401 and status false', async ({ sb }) => {
    for (const cookie of [
      undefined,
      '__Host-udcli_sandbox_session=' + '0'.repeat(32),
      'other=1; __Host-udcli_sandbox_session=junk',
    ]) {
      const r = await generate(sb, '1001', cookie);
      expect(r.status).toBe(401);
      expect(r.body.status).toBe(false);
    }
  });

  it('generates a token record (not enveloped) bound to the logged-in user, for the game of the path', async ({
    sb,
  }) => {
    const { cookie } = await login(sb, 'alice');
    const now = Math.floor(sb.clock.ms / 1000);
    const r = await generate(sb, '1001', `theme=dark; ${cookie}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      status: true,
      game_id: '1001',
      uid: uidForUsername('alice'),
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      created_on: now,
      expires_on: now + 900,
      duration: expect.any(Number),
    });
    const second = await generate(sb, '1001', cookie);
    expect(second.body.token).not.toBe(r.body.token);
    expect((await generate(sb, '4242', cookie)).status).toBe(404);
  });
});

describe("the login cookie, which no game's page can shadow", () => {
  // Names and an origin of its own.
  let sb: TestSandbox;
  beforeAll(async ({ newSb }) => {
    sb = await newSb({
      hostNames: { names: ['sandbox-box'], hosts: ['sandbox.example.com'] },
      publicOrigin: 'https://sandbox.example.com',
    });
  });

  const loginAt = async (host: string) => {
    const r = await exactRequest(sb.url, 'POST', '/login?username=alice', { host });
    return { setCookie: String(r.headers['set-cookie']), cookie: (JSON.parse(r.text) as { cookie: string }).cookie };
  };
  const tokenStatus = async (host: string, cookie: string) =>
    (await exactRequest(sb.url, 'GET', '/service/user-auth-token-generator/1001', { host, cookie })).status;
  const port = () => new URL(sb.url).port;

  it('is a __Host- cookie where a browser keeps a Secure one: loopback names, *.localhost, an https --public-url', async () => {
    for (const host of [
      `127.0.0.1:${port()}`,
      `localhost:${port()}`,
      `sandbox.localhost:${port()}`,
      'sandbox.example.com',
    ]) {
      const { setCookie, cookie } = await loginAt(host);
      expect(setCookie, host).toMatch(
        /^__Host-udcli_sandbox_session=[0-9a-f]{32}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax; Secure$/,
      );
      expect(await tokenStatus(host, cookie), host).toBe(200);
      // The plain name, a login from before (or a game's cookie), is not read there: log in again.
      expect(await tokenStatus(host, cookie.replace(/^__Host-/, '')), host).toBe(401);
    }
  });

  it('keeps the plain name on a name reached over plain http (no Secure cookie there), the first live one read', async () => {
    const host = `sandbox-box:${port()}`;
    const { setCookie, cookie } = await loginAt(host);
    expect(setCookie).toMatch(/^udcli_sandbox_session=[0-9a-f]{32}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/);
    const junk = `udcli_sandbox_session=${'f'.repeat(32)}`;
    expect(await tokenStatus(host, `${junk}; other=1; ${cookie}`)).toBe(200);
    expect(await tokenStatus(host, junk)).toBe(401);
  });
});

describe('authenticate', () => {
  let sb: TestSandbox;
  let token: TokenRecord;
  beforeAll(async ({ sb: fileSb }) => {
    sb = fileSb;
    const { cookie } = await login(sb, 'demo_player');
    token = (await generate(sb, '1001', cookie)).body;
  });

  it('returns the user for the token, with the api_key of the token’s game', async () => {
    const r = await authenticate(sb, token.uid, token.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      version: 1,
      code: 200,
      message: 'OK',
      payload: { uid: DEMO.user.uid, username: 'demo_player' },
    });
  });

  it('accepts ids in upper case and the partner key of the same game', async () => {
    expect((await authenticate(sb, token.uid.toUpperCase(), token.token.toUpperCase())).body.payload?.uid).toBe(
      DEMO.user.uid,
    );
    expect((await authenticate(sb, token.uid, token.token, DEMO.partner.apiKey)).body.payload?.uid).toBe(DEMO.user.uid);
  });

  it('answers code 200 with a null payload and "invalid token" for another game’s key, another user, an unknown token', async () => {
    const cases: Array<[string, string, string]> = [
      [token.uid, token.token, DEMO.secondGame.apiKey],
      [uidForUsername('alice'), token.token, DEMO.game.apiKey],
      [token.uid, 'f'.repeat(32), DEMO.game.apiKey],
    ];
    for (const [uid, t, key] of cases) {
      const r = await authenticate(sb, uid, t, key);
      expect(r.status).toBe(200);
      expect(r.body.code).toBe(200);
      expect(r.body.payload).toBeNull();
      expect(r.body.message).toMatch(/^invalid token/);
    }
  });

  it('says "token expired" once expires_on is reached (900 s by default), with code 200', async () => {
    sb.clock.advance(899);
    expect((await authenticate(sb, token.uid, token.token)).body.payload?.username).toBe('demo_player');
    sb.clock.advance(1);
    const r = await authenticate(sb, token.uid, token.token);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ version: 1, code: 200, message: 'token expired', payload: null });
  });

  it('honours tokenTtlSeconds', async ({ newSb }) => {
    const short = await newSb({ tokenTtlSeconds: 60 });
    const { cookie } = await login(short, 'bob');
    const t = (await generate(short, '1002', cookie)).body;
    expect(t.expires_on - t.created_on).toBe(60);
    expect((await authenticate(short, t.uid, t.token, DEMO.secondGame.apiKey)).body.payload?.username).toBe('bob');
    short.clock.advance(60);
    expect((await authenticate(short, t.uid, t.token, DEMO.secondGame.apiKey)).body.message).toBe('token expired');
  });
});
