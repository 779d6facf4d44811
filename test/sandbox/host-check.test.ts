/**
 * The Host check on every route (issue 21, DNS rebinding): a page on another site whose name
 * resolves to 127.0.0.1 sends its own name in Host; the site (login, token generator, play
 * page), the API, the docs and /_sandbox all refuse it, with or without a matching Origin. Real
 * HTTP on port 0.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { exactRequest, type TestSandbox } from './helpers/sandbox.js';

let sb: TestSandbox;
let port: string;
let cookie: string;

beforeAll(async ({ newSb }) => {
  sb = await newSb({ hostNames: { names: ['sandbox-box'], hosts: ['sandbox.example.com'] } });
  port = new URL(sb.url).port;
  const login = await fetch(`${sb.url}/login?username=demo_player`, { method: 'POST' });
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
});

const asHost = (host: string, method: string, path: string, headers: Record<string, string> = {}) =>
  exactRequest(sb.url, method, path, { host, ...headers });

describe('a foreign Host is refused everywhere', () => {
  const foreign = () => `evil.example:${port}`;

  it('a login with a foreign Host and its matching Origin: 403, no session', async () => {
    const r = await asHost(foreign(), 'POST', '/login?username=demo_player', { origin: `http://${foreign()}` });
    expect(r.status).toBe(403);
    expect(r.headers['set-cookie']).toBeUndefined();
    expect(JSON.parse(r.text)).toEqual({
      status: false,
      code: 403,
      message: expect.stringMatching(/^forbidden: the sandbox answers only requests addressed to it \(Host header/),
    });
  });

  it('the token generator, with a valid session cookie: 403, no token', async () => {
    const r = await asHost(foreign(), 'GET', `/service/user-auth-token-generator/${DEMO.game.id}`, {
      cookie,
      origin: `http://${foreign()}`,
    });
    expect(r.status).toBe(403);
    expect(r.text).not.toMatch(/"token"/);
  });

  it('the API: 403 in the envelope, still readable cross-origin (CORS), no data', async () => {
    const r = await asHost(foreign(), 'GET', `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`);
    expect(r.status).toBe(403);
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(JSON.parse(r.text)).toMatchObject({ code: 403, payload: null });
    expect(r.text).not.toContain(DEMO.user.uid);
  });

  it.each(['/', `/play/${DEMO.game.id}`, '/docs', '/openapi.json', '/_sandbox/games', '/_sandbox/status', '/nowhere'])(
    '%s: 403',
    async (path) => {
      const r = await asHost(foreign(), 'GET', path, { cookie });
      expect(r.status).toBe(403);
    },
  );

  it('the right name with another port, or no port, is foreign too', async () => {
    for (const host of [`localhost:${Number(port) + 1}`, 'localhost', '127.0.0.1', `sandbox-box:${Number(port) + 1}`]) {
      expect(
        (await asHost(host, 'GET', `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`)).status,
        host,
      ).toBe(403);
    }
  });
});

describe('its own names are answered', () => {
  it.each([
    ['127.0.0.1:PORT'],
    ['localhost:PORT'],
    ['LOCALHOST:PORT'],
    ['[::1]:PORT'],
    ['sandbox-box:PORT'],
    ['sandbox.example.com'],
  ])('%s', async (template) => {
    const host = template.replace('PORT', port);
    expect(
      (await asHost(host, 'GET', `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`)).status,
    ).toBe(200);
    const login = await asHost(host, 'POST', '/login?username=demo_player', { origin: `http://${host}` });
    expect(login.status).toBe(200);
    expect((await asHost(host, 'GET', '/_sandbox/status')).status).toBe(200);
  });
});

describe('startSandbox with a public URL (--public-url)', () => {
  it('answers its Host, and the bound address, and still refuses others', async () => {
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const running = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: ':memory:',
      seed: 'none',
      publicUrl: 'http://sandbox.example.com:9999',
    });
    try {
      const get = (host: string) => exactRequest(running.url, 'GET', '/_sandbox/status', { host });
      expect((await get('sandbox.example.com:9999')).status).toBe(200);
      expect((await get(`127.0.0.1:${running.port}`)).status).toBe(200);
      expect((await get('sandbox.example.com:9998')).status).toBe(403);
      expect((await get(`other.example.com:${running.port}`)).status).toBe(403);
    } finally {
      await running.close();
    }
  });
});
