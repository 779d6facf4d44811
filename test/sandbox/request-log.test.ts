/**
 * The request log (issue 11): one line per request (time, method, path and redacted query,
 * status, ms, reason), and `GET /_sandbox/requests` with the shape the dashboard reads:
 * ids from 1, oldest first, `since` and `limit`, the last 1000 kept. Real HTTP on port 0.
 */
import { connect } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { redactQuery } from '../../src/redact.js';
import { parseRequestLine } from '../../src/sandbox/request-line.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { settled } from '../until.js';
import { api, call, exactRequest, signedApi, type Params, type TestSandbox } from './helpers/sandbox.js';

interface Logged {
  id: number;
  time: string;
  method: string;
  path: string;
  query: string;
  body: string;
  status: number;
  ms: number;
  reason: string | null;
  handshake?: 'challenge' | 'retry';
  challengeId?: number;
}

const PLAYER = DEMO.user.uid;
/** A signed change (agi, as the SDK sends a PUT): one unit of a pack for the demo player. */
const GIVE_PATH = `${API_PREFIX}/products/user/${PLAYER}.json`;
const GIVE: Params = [
  ['parent_id', '1001'],
  ['sku', 'gold-pack_10'],
  ['method', 'put'],
  ['increment', 'true'],
  ['qty', '1'],
];

async function requests(sb: TestSandbox, query = ''): Promise<Logged[]> {
  const r = await fetch(`${sb.url}/_sandbox/requests${query}`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await r.json()) as { requests: Logged[] };
  expect(Object.keys(body)).toEqual(['requests']);
  return body.requests;
}

/** The log entry is made when the reply has gone out, which may be just after the client read it. */
const whenLogged = <T>(read: () => T | Promise<T>, ok: (value: T) => boolean): Promise<T> =>
  settled(read, ok, { timeoutMs: 5000, intervalMs: 10 });

/**
 * GETs of `paths` written at once on one connection (HTTP/1.1 pipelining), the last closing it; the
 * statuses, in order. What fills the ring: the server takes each request as it would from any
 * client, where a fetch per request spent most of the CPU in the client.
 */
function pipelined(base: string, paths: string[]): Promise<number[]> {
  const { hostname, port } = new URL(base);
  const requests = paths.map(
    (path, i) =>
      `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${i === paths.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
  );
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(requests.join('')));
    let text = '';
    socket.setEncoding('latin1').on('data', (d: string) => (text += d));
    socket.on('error', reject);
    socket.on('end', () => resolve([...text.matchAll(/HTTP\/1\.1 (\d{3}) [^\r\n]*\r\n/g)].map((m) => Number(m[1]))));
  });
}

describe('request lines and GET /_sandbox/requests', () => {
  let sb: TestSandbox;
  let output = '';
  const lines = () => output.split('\n').filter((line) => line !== '');

  // A sandbox for each test: what a test reads of the log starts at id 1.
  beforeEach(async ({ newSb }) => {
    output = '';
    sb = await newSb({ requestLines: (text) => (output += text) });
  });
  // Closed at once: a batch of its lines written late would land in the next test's output.
  afterEach(() => sb.close());

  it('one line per request: time, method, path with the query (api_key and signature redacted), status, ms, reason', async () => {
    const ok = await api(sb.url, 'GET', `/users/${PLAYER}.json`, [['uid', PLAYER]]);
    expect(ok.status).toBe(200);
    const missing = await call(sb.url, 'GET', '/no/such/page', [['token', 'tok-abcdefghijklmnop']]);
    expect(missing.status).toBe(404);
    const badSig = await signedApi(
      sb,
      'PUT',
      `/products/user/${PLAYER}.json`,
      [
        ['parent_id', '1001'],
        ['sku', 'gold-pack_10'],
        ['increment', 'true'],
        ['qty', '1'],
      ],
      {
        secret: 'not-the-secret',
      },
    );
    expect(badSig.status).toBe(403);

    const got = await whenLogged(lines, (l) => l.length === 3);
    expect(got).toHaveLength(3);
    const [first, second, third] = got.map((line) => parseRequestLine(line));
    expect(got[0]).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/services\/rest\/v1\/users\/[0-9a-f]{32}\.json\?api_key=0123…cdef&uid=[0-9a-f]{32} 200 \d+(\.\d)?ms$/,
    );
    expect(first).toMatchObject({
      method: 'GET',
      path: `${API_PREFIX}/users/${PLAYER}.json`,
      query: `api_key=0123…cdef&uid=${PLAYER}`,
      status: 200,
      reason: null,
    });
    expect(second).toMatchObject({
      method: 'GET',
      path: '/no/such/page',
      query: 'token=tok-…mnop',
      status: 404,
      reason: 'not found: path /no/such/page',
    });
    expect(third).toMatchObject({ method: 'PUT', status: 403, reason: 'bad signature (hmac-sha256-v1)' });
    expect(third!.query).toMatch(/&timestamp=\d+&signature=[0-9a-f]{4}…[0-9a-f]{4}$/);
    expect(third!.query).toContain('sku=gold-pack_10');
    for (const secret of [DEMO.game.apiKey, DEMO.game.signingSecret, 'tok-abcdefghijklmnop'])
      expect(output).not.toContain(secret);
    expect(output).not.toMatch(/[0-9a-f]{64}/); // no whole hmac signature
  });

  it('a form body shows after the target as body:FIELDS, secrets redacted like the query, long values cut, and reads back', async () => {
    const data = JSON.stringify({ level: 3, notes: 'x'.repeat(5000) });
    const session = 'f'.repeat(32);
    const r = await call(
      sb.url,
      'POST',
      `${API_PREFIX}/products/user/${PLAYER}.json`,
      [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'gems'],
      ],
      {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams([
          ['method', 'put'],
          ['decrement', 'true'],
          ['qty', '1'],
          ['data', data],
          ['session', session],
          ['note', 'a b&c'],
        ]).toString(),
      },
    );
    expect(r.status).toBe(401);
    const plain = await api(sb.url, 'GET', `/users/${PLAYER}.json`);
    expect(plain.status).toBe(200);

    const got = await whenLogged(lines, (l) => l.length === 2);
    const [signedTake, read] = got.map((line) => parseRequestLine(line));
    const shownData = `${encodeURIComponent(data.slice(0, 64))}…[length=${data.length}]`;
    const body = `method=put&decrement=true&qty=1&data=${shownData}&session=ffff…ffff&note=a%20b%26c`;
    expect(got[0]).toContain(`?api_key=0123…cdef&parent_id=1001&sku=gems body:${body} 401 `);
    expect(signedTake).toMatchObject({
      method: 'POST',
      query: 'api_key=0123…cdef&parent_id=1001&sku=gems',
      body,
      status: 401,
      reason: expect.stringMatching(/^stale session/),
    });
    expect(read).toMatchObject({ method: 'GET', body: '', status: 200 });
    expect(output).not.toContain(session);
    expect(output).not.toContain('x'.repeat(100));
    const listed = await whenLogged(
      () => requests(sb),
      (l) => l.length === 2,
    );
    expect(listed[0]!.body).toBe(body);
    expect(listed[1]!.body).toBe('');
  });

  it('the agi handshake is one request: the challenge waits for its signed retry, the two lines come together and marked, the ring links them', async ({
    newSb,
  }) => {
    // Its own sandbox, whose challenge lines wait as long as the test may take: no race with the hold.
    let text = '';
    const own = await newSb({ requestLines: (t) => (text += t), challengeHoldMs: 600_000 });
    const got = () => text.split('\n').filter((line) => line !== '');
    try {
      const query: Params = [['api_key', DEMO.game.apiKey], ...GIVE];
      const first = await call<{ session: string; key: string }>(own.url, 'POST', GIVE_PATH, query);
      expect([first.status, first.body.message]).toEqual([401, 'signature required']);
      // Another request between the challenge and its retry, as a game's other traffic would be.
      expect((await api(own.url, 'GET', `/users/${PLAYER}.json`)).status).toBe(200);
      await whenLogged(got, (l) => l.length === 1);
      const challenge = first.body.payload!;
      const retry = await call(own.url, 'POST', GIVE_PATH, [
        ...query,
        ['session', challenge.session],
        ['sig', agiSignature({ ...challenge, path: GIVE_PATH, query, body: [] })],
      ]);
      expect(retry.status, retry.body.message).toBe(200);

      const three = await whenLogged(got, (l) => l.length === 3);
      const [read, challenged, signed] = three.map((line) => parseRequestLine(line)!);
      expect(read).toMatchObject({ method: 'GET', status: 200 });
      expect(read!.handshake).toBeUndefined();
      expect(challenged).toMatchObject({
        method: 'POST',
        status: 401,
        reason: 'signature required',
        handshake: 'challenge',
      });
      expect(three[1]).toMatch(/ 401 [\d.]+ms \(signature challenge, answered\) signature required$/);
      expect(signed).toMatchObject({ method: 'POST', status: 200, reason: null, handshake: 'retry' });
      expect(three[2]).toMatch(
        /&session=[0-9a-f]{4}…[0-9a-f]{4}&sig=[0-9a-f]{4}…[0-9a-f]{4} 200 [\d.]+ms \(after signature challenge\)$/,
      );
      expect(text).not.toContain(challenge.session);

      const listed = await whenLogged(
        () => requests(own),
        (l) => l.length === 3,
      );
      expect(listed.map((r) => [r.id, r.status, r.handshake, r.challengeId])).toEqual([
        [1, 401, 'challenge', undefined],
        [2, 200, undefined, undefined],
        [3, 200, 'retry', 1],
      ]);

      // A challenge still waiting for its retry when the sandbox stops is written, unmarked.
      expect((await call(own.url, 'POST', GIVE_PATH, query)).status).toBe(401);
      await whenLogged(
        () => requests(own),
        (l) => l.length === 4,
      );
      expect((await requests(own))[3]!.handshake).toBeUndefined();
    } finally {
      await own.close();
    }
    expect(got()).toHaveLength(4);
    expect(parseRequestLine(got()[3]!)).toMatchObject({ status: 401, reason: 'signature required' });
    expect(parseRequestLine(got()[3]!)!.handshake).toBeUndefined();
  });

  it('a challenge that no signed retry answers is a failure like any other: its line comes on its own, unmarked, once it has waited', async ({
    newSb,
  }) => {
    let text = '';
    const own = await newSb({ requestLines: (t) => (text += t), challengeHoldMs: 0 });
    expect((await api(own.url, 'POST', `/products/user/${PLAYER}.json`, GIVE)).status).toBe(401);
    const got = await whenLogged(
      () => text.split('\n').filter((line) => line !== ''),
      (l) => l.length === 1,
    );
    expect(got).toHaveLength(1);
    expect(parseRequestLine(got[0]!)).toEqual(
      expect.objectContaining({ method: 'POST', status: 401, reason: 'signature required' }),
    );
    expect(parseRequestLine(got[0]!)!.handshake).toBeUndefined();
  });

  it('GET /_sandbox/requests: exactly {id, time, method, path, query, body, status, ms, reason}, ids from 1, oldest first, secrets redacted', async () => {
    await api(sb.url, 'GET', `/users/${PLAYER}.json`);
    await call(sb.url, 'GET', '/play/1001');
    await call(sb.url, 'GET', '/nowhere');
    const list = await whenLogged(
      () => requests(sb),
      (l) => l.length === 3,
    );
    expect(list.map((r) => Object.keys(r))).toEqual(
      Array(3).fill(['id', 'time', 'method', 'path', 'query', 'body', 'status', 'ms', 'reason']),
    );
    expect(list.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(list.map((r) => [r.method, r.path, r.status])).toEqual([
      ['GET', `${API_PREFIX}/users/${PLAYER}.json`, 200],
      ['GET', '/play/1001', 200],
      ['GET', '/nowhere', 404],
    ]);
    expect(list[0]!.query).toBe('api_key=0123…cdef');
    expect(list[1]!.query).toBe('');
    expect(list[2]!.reason).toBe('not found: path /nowhere');
    for (const r of list) {
      expect(new Date(r.time).toISOString()).toBe(r.time);
      expect(typeof r.ms).toBe('number');
      expect(r.ms).toBeGreaterThanOrEqual(0);
    }
    expect(JSON.stringify(list)).not.toContain(DEMO.game.apiKey);
  });

  it('the polling of /_sandbox/requests and the pid probe are not logged; other requests are', async () => {
    await requests(sb);
    await requests(sb, '?since=0');
    await fetch(`${sb.url}/_sandbox/status`);
    await call(sb.url, 'GET', '/nowhere');
    const list = await whenLogged(
      () => requests(sb),
      (l) => l.length >= 1,
    );
    expect(list.map((r) => r.path)).toEqual(['/nowhere']);
    expect(list[0]!.id).toBe(1);
    expect(await whenLogged(lines, (l) => l.length >= 1)).toHaveLength(1);
  });

  it('since=ID gives the entries after it; limit=N the newest N (default 100), oldest first', async () => {
    expect(
      await pipelined(
        sb.url,
        Array.from({ length: 120 }, (_, i) => `/n${i + 1}`),
      ),
    ).toEqual(Array.from({ length: 120 }, () => 404));
    await whenLogged(
      () => requests(sb, '?limit=1'),
      (l) => l[0]?.id === 120,
    );
    const byDefault = await requests(sb);
    expect(byDefault).toHaveLength(100);
    expect(byDefault[0]!.id).toBe(21);
    expect(byDefault[99]).toMatchObject({ id: 120, path: '/n120' });
    expect((await requests(sb, '?since=115')).map((r) => r.id)).toEqual([116, 117, 118, 119, 120]);
    expect((await requests(sb, '?limit=3')).map((r) => r.id)).toEqual([118, 119, 120]);
    expect((await requests(sb, '?since=10&limit=2')).map((r) => r.id)).toEqual([119, 120]);
    expect(await requests(sb, '?since=120')).toEqual([]);
    expect(await requests(sb, '?since=5000')).toEqual([]);
    expect(await requests(sb, '?limit=1000')).toHaveLength(120);
  });

  it('a bad since or limit: 400 with a JSON message naming it', async () => {
    for (const [query, name] of [
      ['?since=-1', 'since'],
      ['?since=abc', 'since'],
      ['?limit=0', 'limit'],
      ['?limit=1001', 'limit'],
      ['?limit=2.5', 'limit'],
    ] as const) {
      const r = await fetch(`${sb.url}/_sandbox/requests${query}`);
      expect(r.status, query).toBe(400);
      expect(await r.json()).toEqual({
        status: false,
        code: 400,
        message: `invalid parameter: ${name} (expected an integer from ${name === 'since' ? '0 to 9999999999' : '1 to 1000'})`,
      });
    }
  });

  it('a request from a page on another site (foreign Host) is refused, and the refusal is logged with its reason', async () => {
    await api(sb.url, 'GET', `/users/${PLAYER}.json`);
    const { port } = new URL(sb.url);
    const refused = await exactRequest(sb.url, 'GET', '/_sandbox/requests', { host: `evil.example:${port}` });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text)).toMatchObject({ status: false, code: 403 });
    expect(refused.text).not.toContain('api_key');
    const list = await whenLogged(
      () => requests(sb),
      (l) => l.length === 2,
    );
    expect(list[1]).toMatchObject({ path: '/_sandbox/requests', status: 403 });
    expect(list[1]!.reason).toMatch(/^forbidden: the sandbox answers only requests addressed to it \(Host header/);
  });
});

describe('request lines in batches', () => {
  it('many requests at once: one line each, in the order they were logged, redacted', async ({ newSb }) => {
    let output = '';
    const sb = await newSb({ requestLines: (text) => (output += text) });
    const total = 600;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < total) {
          const n = next++;
          expect((await api(sb.url, 'GET', `/users/${PLAYER}.json`, [['n', String(n)]])).status).toBe(200);
        }
      }),
    );
    // The order the entries were logged in (ids), read before the sandbox stops.
    const logged = await whenLogged(
      () => requests(sb, '?limit=1000'),
      (l) => l.length === total,
    );
    expect(logged).toHaveLength(total);
    await sb.close();
    const lines = output.split('\n').filter((line) => line !== '');
    expect(lines).toHaveLength(total);
    const n = (query: string) => /(?:^|&)n=(\d+)/.exec(query)?.[1];
    expect(lines.map((line) => n(parseRequestLine(line)!.query))).toEqual(logged.map((r) => n(r.query)));
    expect(output).not.toContain(DEMO.game.apiKey);
    expect(output).toContain('api_key=0123…cdef');
  }, 60_000);
});

describe('the request lines when the sandbox stops', () => {
  it('lines still waiting for their batch are written when the sandbox stops', async ({ newSb }) => {
    let output = '';
    const sb = await newSb({ requestLines: (text) => (output += text) });
    // In-process (no socket: the Host check refuses it, and the refusal is logged like any request).
    expect((await sb.app.inject({ url: '/before-stop' })).statusCode).toBe(403);
    expect(output).toBe(''); // its batch is written a few milliseconds later
    await sb.close();
    expect(parseRequestLine(output.trimEnd())).toMatchObject({ path: '/before-stop', status: 403 });
  });
});

describe('the ring keeps the last 1000', () => {
  it('after 1010 requests, limit=1000 gives ids 11..1010, and since=5 still only what is kept', async ({ newSb }) => {
    // Its own: the ids it reads count from the sandbox's first request.
    const sb = await newSb();
    const statuses = await pipelined(
      sb.url,
      Array.from({ length: 1010 }, (_, i) => `/r${i + 1}`),
    );
    expect(statuses).toEqual(Array.from({ length: 1010 }, () => 404));
    const all = await whenLogged(
      () => requests(sb, '?limit=1000'),
      (l) => l.at(-1)?.id === 1010,
    );
    expect(all).toHaveLength(1000);
    expect(all[0]).toMatchObject({ id: 11, path: '/r11' });
    expect(all[999]).toMatchObject({ id: 1010, path: '/r1010' });
    const since = await requests(sb, '?since=5&limit=1000');
    expect(since[0]!.id).toBe(11);
    expect(since).toHaveLength(1000);
  }, 30_000);
});

describe('redactQuery (what the log shows of a query)', () => {
  it('redacts the values of secret parameters and of names that look secret; keeps the rest exactly as sent', () => {
    expect(redactQuery('uid=abc&api_key=0123456789abcdef0123456789abcdef&username=demo%20player+x')).toBe(
      'uid=abc&api_key=0123…cdef&username=demo%20player+x',
    );
    expect(
      redactQuery('api%5Fkey=0123456789abcdef&password=hunter2hunter2&client_secret=s3cr3t-s3cr3t&x_sig=abcdefabcdef'),
    ).toBe('api%5Fkey=0123…cdef&password=hunt…ter2&client_secret=s3cr…cr3t&x_sig=abcd…cdef');
    expect(redactQuery('session=short&sig=&design=blue&flag')).toBe('session=…&sig=&design=blue&flag');
    expect(redactQuery('')).toBe('');
  });
});
