/**
 * Cross-origin calls (SERVICE.md: CORS) over real HTTP: every /services/rest/v1 reply lets any
 * origin read it (success, every error, the 401 challenge, unknown paths, injected faults, XML),
 * an OPTIONS preflight there is 204, credentials are never allowed, and the site, the dashboard,
 * /docs and /_sandbox carry none of it. Then a real browser (headless chromium) on a page of
 * another origin reads a reply and the challenge, as a game calling the platform does.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { isApiPath, isApiTarget } from '../../src/sandbox/http/cors.js';
import { splitTarget } from '../../src/sandbox/http/query.js';
import { ensureChromium, sharedChromium } from './helpers/chromium.js';
import type { TestSandbox } from './helpers/sandbox.js';

const USER = `${API_PREFIX}/users/${DEMO.user.uid}.json`;
const PRODUCTS = `${API_PREFIX}/products/user/${DEMO.user.uid}.json`;
const KEY = `api_key=${DEMO.game.apiKey}`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let sb: TestSandbox;
beforeAll(({ sb: fileSb }) => {
  sb = fileSb;
});

async function send(
  base: string,
  method: string,
  target: string,
  init: { headers?: Record<string, string>; body?: string } = {},
) {
  const r = await fetch(`${base}${target}`, { method, redirect: 'manual', ...init });
  return { status: r.status, headers: r.headers, text: await r.text() };
}

function expectCors(headers: Headers, what: string): void {
  expect(headers.get('access-control-allow-origin'), what).toBe('*');
  expect(headers.get('access-control-expose-headers'), what).toMatch(/(^|, )Retry-After(,|$)/);
  expect(headers.get('access-control-allow-credentials'), what).toBeNull();
}

function expectNoCors(headers: Headers, what: string): void {
  for (const name of [
    'access-control-allow-origin',
    'access-control-expose-headers',
    'access-control-allow-methods',
    'access-control-allow-credentials',
  ]) {
    expect(headers.get(name), `${what}: ${name}`).toBeNull();
  }
}

describe('every /services/rest/v1 reply can be read cross-origin', () => {
  it('success, 400, 401 (missing key and the agi challenge), 404, 405, 413, 415 and XML', async () => {
    const cases: Array<[string, number, Promise<{ status: number; headers: Headers; text: string }>]> = [
      ['success', 200, send(sb.url, 'GET', `${USER}?${KEY}`)],
      ['success as XML', 200, send(sb.url, 'GET', `${API_PREFIX}/users/${DEMO.user.uid}.xml?${KEY}`)],
      ['bad parameter', 400, send(sb.url, 'GET', `${API_PREFIX}/friends/${DEMO.user.uid}.json?${KEY}&limit=0`)],
      ['bad URL encoding', 400, send(sb.url, 'GET', `${API_PREFIX}/users/%E0%A4%A.json`)],
      ['missing api_key', 401, send(sb.url, 'GET', `${API_PREFIX}/friends/${DEMO.user.uid}.json`)],
      [
        'the agi challenge',
        401,
        send(sb.url, 'POST', `${PRODUCTS}?${KEY}&parent_id=1001&sku=gems`, {
          headers: FORM,
          body: 'method=put&decrement=true&qty=1',
        }),
      ],
      ['unknown path', 404, send(sb.url, 'GET', `${API_PREFIX}/nothing/here.json`)],
      ['unknown path, bare prefix', 404, send(sb.url, 'GET', API_PREFIX)],
      ['wrong verb', 405, send(sb.url, 'DELETE', `${USER}?${KEY}`)],
      [
        'body too large',
        413,
        send(sb.url, 'POST', `${PRODUCTS}?${KEY}`, { headers: FORM, body: `data=${'x'.repeat(1024 * 1024 + 1)}` }),
      ],
      [
        'not a form',
        415,
        send(sb.url, 'POST', `${PRODUCTS}?${KEY}&parent_id=1001&sku=gems&qty=1`, {
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }),
      ],
    ];
    for (const [what, status, pending] of cases) {
      const r = await pending;
      expect(r.status, `${what}: ${r.text.slice(0, 200)}`).toBe(status);
      expectCors(r.headers, what);
    }
  });

  it('429 of the rate limit, with Retry-After exposed', async ({ newSb }) => {
    const limited = await newSb({ rateLimitPerSecond: 1 });
    try {
      await send(limited.url, 'GET', `${USER}?${KEY}`);
      const r = await send(limited.url, 'GET', `${USER}?${KEY}`);
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toMatch(/^\d+$/);
      expectCors(r.headers, '429');
    } finally {
      await limited.close();
    }
  });

  it('injected faults: an HTML 502, an envelope error, a truncated body, the rate-limit fault', async ({ newSb }) => {
    for (const [spec, status] of [
      ['html-502=1', 502],
      ['envelope-error=1', 200],
      ['truncated=1', 200],
      ['empty=1', 200],
      ['rate-limit=1', 429],
    ] as const) {
      const faulted = await newSb({ faults: { spec: parseFaultSpec(spec), seed: 1 } });
      try {
        const r = await send(faulted.url, 'GET', `${USER}?${KEY}`);
        expect(r.status, spec).toBe(status);
        expectCors(r.headers, spec);
      } finally {
        await faulted.close();
      }
    }
  });

  it('an OPTIONS preflight is 204 with the allowed methods and headers, and counts for nothing', async ({ newSb }) => {
    for (const target of [
      `${PRODUCTS}?${KEY}`,
      USER,
      `${API_PREFIX}/nothing/here.json`,
      `${API_PREFIX}/users/%E0%A4%A.json`,
    ]) {
      const r = await send(sb.url, 'OPTIONS', target, {
        headers: {
          origin: 'http://game.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type',
        },
      });
      expect(r.status, target).toBe(204);
      expect(r.text).toBe('');
      expectCors(r.headers, target);
      expect(r.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE');
      expect(r.headers.get('access-control-allow-headers')).toBe('Content-Type, Accept');
      expect(r.headers.get('access-control-max-age')).toBe('600');
    }
    // A preflight is no call: it does not use up the rate limit.
    const limited = await newSb({ rateLimitPerSecond: 1 });
    try {
      for (let i = 0; i < 3; i++) expect((await send(limited.url, 'OPTIONS', USER)).status).toBe(204);
      expect((await send(limited.url, 'GET', `${USER}?${KEY}`)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the site, the dashboard, /docs and /_sandbox get none of it', () => {
  it('no CORS header on their replies, nor on an OPTIONS there', async () => {
    const targets: Array<[string, string, { headers?: Record<string, string>; body?: string }]> = [
      ['GET', '/', {}],
      ['GET', '/docs', {}],
      ['GET', '/openapi.json', {}],
      ['GET', `/play/${DEMO.game.id}`, {}],
      ['GET', `/service/user-auth-token-generator/${DEMO.game.id}`, {}],
      ['POST', `/login?username=${DEMO.user.username}`, {}],
      ['GET', '/_sandbox/requests', {}],
      ['GET', '/_sandbox/faults', {}],
      ['OPTIONS', '/login', { headers: { origin: 'http://game.example', 'access-control-request-method': 'POST' } }],
      [
        'OPTIONS',
        '/_sandbox/requests',
        { headers: { origin: 'http://game.example', 'access-control-request-method': 'GET' } },
      ],
      // A path that only begins like the API's.
      ['GET', `${API_PREFIX}x/users.json`, {}],
    ];
    for (const [method, target, init] of targets) {
      const r = await send(sb.url, method, target, init);
      expectNoCors(r.headers, `${method} ${target} (${r.status})`);
    }
  });

  it('a request addressed to another host still gets no CORS header from /_sandbox', async () => {
    const port = new URL(sb.url).port;
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port: Number(port),
          path: '/_sandbox/requests',
          headers: { host: `evil.example:${port}` },
        },
        (res) => {
          res.resume();
          resolve(res.headers);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('in a real browser (headless chromium), from a page of another origin', () => {
  let unavailable: string | null = null;
  let gameSite: Server;
  let gameUrl: string;

  beforeAll(async () => {
    unavailable = ensureChromium();
    if (unavailable) console.warn(`cors.test.ts: skipping the browser test: ${unavailable}`);
    // The game's own site: another port is another origin.
    gameSite = createServer((_request, response) => {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><title>a game</title><h1>a game</h1>');
    });
    await new Promise<void>((resolve) => gameSite.listen(0, '127.0.0.1', resolve));
    gameUrl = `http://127.0.0.1:${(gameSite.address() as AddressInfo).port}/`;
  }, 10 * 60_000);

  afterAll(async () => {
    await new Promise((resolve) => gameSite?.close(resolve));
  });

  it('a cors-mode GET reads the user, and a form-encoded POST reads its 401 challenge', async ({ skip }) => {
    skip(unavailable !== null, unavailable ?? '');
    const page = await (await sharedChromium()).newPage();
    try {
      await page.goto(gameUrl);
      const results = await page.evaluate(
        async ({ base, user, products, key }) => {
          const read = async (response: Response) => ({
            status: response.status,
            body: (await response.json()) as { code: number; message: string; payload: unknown },
          });
          const got = await read(
            await fetch(`${base}${user}?api_key=${key}`, { mode: 'cors', headers: { accept: 'application/json' } }),
          );
          const challenged = await read(
            await fetch(`${base}${products}?api_key=${key}&parent_id=1001&sku=gems`, {
              mode: 'cors',
              method: 'POST',
              headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
              body: 'method=put&decrement=true&qty=1',
            }),
          );
          return { got, challenged };
        },
        { base: sb.url, user: USER, products: PRODUCTS, key: DEMO.game.apiKey },
      );
      expect(new URL(page.url()).origin).not.toBe(new URL(sb.url).origin);
      expect(results.got).toMatchObject({
        status: 200,
        body: { code: 200, payload: { uid: DEMO.user.uid, username: DEMO.user.username } },
      });
      expect(results.challenged.status).toBe(401);
      expect(results.challenged.body.message).toBe('signature required');
      expect(results.challenged.body.payload).toMatchObject({
        session: expect.stringMatching(/^[0-9a-f]{32}$/),
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    } finally {
      await page.close();
    }
  }, 150_000);
});

describe('which targets are the API', () => {
  it('a target as sent is the API exactly when its path is (the first check reads the target, not its split)', () => {
    const targets = [
      API_PREFIX,
      `${API_PREFIX}?x=1`,
      `${API_PREFIX}#frag`,
      `${API_PREFIX}/`,
      `${USER}?${KEY}`,
      `${API_PREFIX}x`,
      `${API_PREFIX}x/users`,
      '/services/rest/v2/users',
      '/services/rest',
      '/',
      '/_sandbox/requests?x=/services/rest/v1/',
      `/?${API_PREFIX}/`,
      `http://localhost:8787${USER}`,
      'http://localhost:8787/docs',
      `HTTP://h${API_PREFIX}?q`,
      '*',
      '',
    ];
    const api = targets.filter((target) => isApiTarget(target));
    expect(api).toEqual(targets.filter((target) => isApiPath(splitTarget(target).path)));
    expect(api).toEqual([
      API_PREFIX,
      `${API_PREFIX}?x=1`,
      `${API_PREFIX}#frag`,
      `${API_PREFIX}/`,
      `${USER}?${KEY}`,
      `http://localhost:8787${USER}`,
      `HTTP://h${API_PREFIX}?q`,
    ]);
  });
});
