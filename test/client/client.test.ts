import { describe, expect, it, vi } from 'vitest';
import { failure } from './failure.js';
import { createClient } from '../../src/client/client.js';
import { createSigner } from '../../src/client/signer.js';
import type { AchievementTarget, ClientOptions } from '../../src/client/types.js';
import { ApiError, MalformedReplyError, NetworkError, UsageError } from '../../src/errors.js';
import {
  EXTRA_FIELDS_USER,
  FRIEND_COUNT,
  PLATFORM_SECRET,
  SESSION,
  fileAwkwardPlatform,
  startAwkwardPlatform,
} from './awkward-platform.js';
import { fileClients, tracedClient, type TracedClient } from './traced-client.js';
import { closedPort } from '../e2e/harness.js';

const API_KEY = '0123456789abcdef0123456789abcdef';
const TARGET: AchievementTarget = { type: 'Game', pid: '1001', developerId: 'FIRST_WIN' };

const platform = fileAwkwardPlatform();
const clients = fileClients();

function makeClient(overrides: Partial<ClientOptions> = {}): TracedClient {
  const options = { baseUrl: platform.url, apiKey: API_KEY, signer: createSigner('hmac-sha256-v1', PLATFORM_SECRET) };
  return tracedClient({ ...options, timeoutMs: 5_000, retries: 2, ...overrides }, clients);
}

function lastRequest(scenario: string) {
  const seen = platform.requests.filter((r) => r.path.endsWith(`/${scenario}.json`) || r.path.endsWith(`/${scenario}`));
  return seen[seen.length - 1]!;
}

describe('envelope tolerance against an awkward platform', () => {
  it('an error code under HTTP 200 is an error, not a success', async () => {
    const e = await failure(makeClient().client.getUser('error-in-200'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 404, httpStatus: 200, message: 'not found: user error-in-200' });
    expect(platform.hits('error-in-200')).toBe(1);
  });

  it('an HTTP error with an envelope carries the envelope code and message, not retried', async () => {
    const e = await failure(makeClient().client.getUser('envelope-404'));
    expect(e).toMatchObject({ code: 404, httpStatus: 404, message: 'not found: user envelope-404' });
    expect(platform.hits('envelope-404')).toBe(1);
  });

  it('an HTML 502 from a proxy is a clear message (retried first, being a GET)', async () => {
    const { client, sleeps } = makeClient();
    const e = await failure(client.getUser('html-502'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toBe('HTTP 502 Bad Gateway (the reply was not a service envelope)');
    expect((e as ApiError).code).toBe(502);
    expect(platform.hits('html-502')).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('truncated JSON under HTTP 200 is a malformed reply; under 500 an HTTP error', async () => {
    const { client } = makeClient({ retries: 0 });
    const malformed = await failure(client.getUser('truncated-200'));
    expect(malformed).toBeInstanceOf(MalformedReplyError);
    expect(malformed.message).toMatch(
      /^the reply to GET http:\/\/127\.0\.0\.1:\d+\/services\/rest\/v1\/users\/truncated-200\.json was not a service envelope/,
    );
    expect(malformed.message).not.toContain(API_KEY);
    const http500 = await failure(client.getUser('truncated-500'));
    expect(http500).toMatchObject({
      code: 500,
      message: 'HTTP 500 Internal Server Error (the reply was not a service envelope)',
    });
  });

  it('an empty 404 says the reply was empty', async () => {
    const e = await failure(makeClient().client.getUser('empty-404'));
    expect(e).toMatchObject({ code: 404, httpStatus: 404, message: 'HTTP 404 Not Found (empty reply)' });
    expect(platform.hits('empty-404')).toBe(1);
  });

  it('accepts code "200" as a string and keeps numbers-as-strings and unknown fields untouched', async () => {
    const reply = await makeClient().client.getUser('strings');
    expect(reply.envelope.code).toBe(200);
    expect(reply.payload).toEqual(EXTRA_FIELDS_USER);
    expect(JSON.parse(reply.bodyText).code).toBe('200');
  });

  it('a list sent as null or as an object keyed 0, 1, ... is read as a list; a user that is null is not a user', async () => {
    const { client } = makeClient();
    expect((await client.getFriends('null-payload', {})).payload).toEqual([]);
    const indexed = await client.getFriends('indexed-list', {});
    expect(indexed.payload.map((f) => f.uid)).toEqual(['a', 'b']);
    expect(JSON.parse(indexed.bodyText).payload).toEqual({ '0': { uid: 'a' }, '1': { uid: 'b' } });
    expect(await failure(client.getUser('null-payload'))).toBeInstanceOf(MalformedReplyError);
  });
});

describe('retries', () => {
  it('GET: 503 twice then success is retried with backoff and succeeds', async () => {
    const { client, sleeps, trace } = makeClient();
    const reply = await client.getUser('flaky-503');
    expect(reply.payload.attempt).toBe(3);
    expect(sleeps).toHaveLength(2);
    expect(sleeps[0]).toBeGreaterThanOrEqual(0);
    expect(sleeps[0]).toBeLessThan(200);
    expect(sleeps[1]).toBeLessThan(400);
    expect(trace.filter((l) => l.startsWith('→ GET'))).toHaveLength(3);
    expect(trace.filter((l) => l.startsWith('↻ HTTP 503'))).toHaveLength(2);
  });

  it('increment: a 503 after sending is returned as-is, never repeated', async () => {
    const { client, sleeps } = makeClient();
    const before = platform.hits('flaky-503');
    const e = await failure(client.changeUserAchievement('flaky-503', TARGET, { increment: 1 }));
    expect(e).toMatchObject({ code: 503, httpStatus: 503 });
    expect(platform.hits('flaky-503')).toBe(before + 1);
    expect(sleeps).toEqual([]);
  });

  it('429 with Retry-After is waited out and retried, even for an increment', async () => {
    const { client, sleeps } = makeClient();
    const reply = await client.changeUserAchievement('rate-limited', TARGET, { increment: 1 });
    expect(reply.payload.attempt).toBe(2);
    expect(sleeps).toEqual([2000]);
  });

  it('429 after the retries are spent is an ApiError with retryAfter', async () => {
    // A fresh platform: its rate-limited scenario answers 429 to the first request only.
    const fresh = await startAwkwardPlatform();
    try {
      const client = createClient({
        baseUrl: fresh.url,
        apiKey: API_KEY,
        signer: createSigner('none'),
        timeoutMs: 5000,
        retries: 0,
      });
      clients.push(client);
      const e = await failure(client.getUser('rate-limited'));
      expect(e).toMatchObject({ code: 429, httpStatus: 429, retryAfter: 2, message: 'rate limited' });
      expect(fresh.hits('rate-limited')).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('a connection reset mid-reply on an increment: sent, outcome unknown, not retried', async () => {
    const { client, sleeps } = makeClient();
    const e = await failure(client.changeUserAchievement('reset', TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ failure: 'reset', sent: true });
    expect((e as NetworkError).hint).toContain('outcome is unknown');
    expect(platform.hits('reset')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a connection reset on a GET is retried, then reported', async () => {
    const { client, sleeps } = makeClient();
    const before = platform.hits('reset');
    const e = await failure(client.getUser('reset'));
    expect(e).toMatchObject({ failure: 'reset', sent: true });
    expect(platform.hits('reset')).toBe(before + 3);
    expect(sleeps).toHaveLength(2);
  });

  it('a port nothing listens on: unreachable, nothing sent, so even an increment is retried', async () => {
    const port = await closedPort();
    const { client, sleeps, trace } = makeClient({ baseUrl: `http://127.0.0.1:${port}` });
    const e = await failure(client.changeUserAchievement('0'.repeat(32), TARGET, { increment: 1 }));
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ failure: 'unreachable', sent: false });
    expect(e.message).toBe(`cannot reach http://127.0.0.1:${port} (connection refused)`);
    expect(sleeps).toHaveLength(2);
    expect(trace.filter((l) => l.startsWith('→ PUT'))).toHaveLength(3);
    expect(trace.join('\n')).toContain('connection refused');
  });

  it('a server that never answers: timeout after timeoutMs, sent, an increment not retried', async () => {
    const { client, sleeps } = makeClient({ timeoutMs: 300 });
    const started = Date.now();
    const e = await failure(client.changeUserAchievement('hang', TARGET, { increment: 1 }));
    const elapsed = Date.now() - started;
    expect(e).toBeInstanceOf(NetworkError);
    expect(e).toMatchObject({ failure: 'timeout', sent: true });
    expect(e.message).toMatch(
      /^no reply to PUT http:\/\/127\.0\.0\.1:\d+\/services\/rest\/v1\/achievements\/user\/hang\.json within 300 ms/,
    );
    // Not before timeoutMs (timers may fire a little early): a lower bound, which slowness cannot break.
    expect(elapsed).toBeGreaterThanOrEqual(280);
    expect(platform.hits('hang')).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('a request still queued for a connection when time runs out was never sent, and never is', async () => {
    // One connection, held by a request that gets no answer: the increment waits in the queue.
    const { client } = makeClient({ timeoutMs: 300, retries: 0, connections: 1 });
    const before = platform.hits('queued');
    const hung = platform.hits('hang');
    // The two deadlines run out together, as they do when both requests start in one
    // millisecond: on a loaded machine the second could start a millisecond later and be sent,
    // within its own time, on the connection the first one freed. The sockets stay real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let outcomes: Promise<[unknown, unknown]>;
    try {
      outcomes = Promise.all([
        failure(client.getUser('hang')),
        failure(client.changeUserAchievement('queued', TARGET, { increment: 1 })),
      ]);
      await vi.waitUntil(() => platform.hits('hang') > hung, { interval: 5, timeout: 10_000 });
      vi.advanceTimersByTime(300);
    } finally {
      vi.useRealTimers();
    }
    const [held, queued] = await outcomes;
    expect(held).toMatchObject({ failure: 'timeout', sent: true });
    expect(queued).toMatchObject({ failure: 'unreachable', sent: false });
    // Once the connection frees up, the abandoned increment must not go out late: a request made
    // now queues behind anything still queued on the one connection, so its answer comes after.
    const after = await client.getUser('strings');
    expect(after.payload.uid).toBeDefined();
    expect(platform.hits('queued')).toBe(before);
  });
});

describe('signing against a verifying server', () => {
  it('a signed increment verifies, with a developer id that needs encoding', async () => {
    const { client } = makeClient();
    const reply = await client.changeUserAchievement(
      'echo',
      { ...TARGET, developerId: 'SPEED RUN/100%' },
      { increment: 2 },
    );
    const payload = reply.payload as unknown as { verified: boolean; params: Array<[string, string]>; method: string };
    expect(payload.verified).toBe(true);
    expect(payload.method).toBe('PUT');
    expect(payload.params.map(([n]) => n)).toEqual([
      'api_key',
      'type',
      'pid',
      'developer_id',
      'increment',
      'timestamp',
      'nonce',
      'signature',
    ]);
    expect(payload.params).toContainEqual(['developer_id', 'SPEED RUN/100%']);
    expect(payload.params).toContainEqual(['increment', '2']);
  });

  it('a signed product adjust with a non-ASCII sku (and a +) verifies and arrives intact', async () => {
    const { client } = makeClient();
    const reply = await client.adjustProduct('echo', { parentId: '1001', sku: 'héros+épée' }, 1, 'decrement');
    const payload = reply.payload as unknown as { verified: boolean; params: Array<[string, string]> };
    expect(payload.verified).toBe(true);
    expect(payload.params).toContainEqual(['sku', 'héros+épée']);
    expect(payload.params).toContainEqual(['decrement', 'true']);
    expect(payload.params).toContainEqual(['qty', '1']);
  });

  it('a POST with a method=put override is signed as PUT and verifies', async () => {
    const { client } = makeClient();
    const reply = await client.request<{ verified: boolean; method: string }>({
      method: 'POST',
      path: '/services/rest/v1/achievements/user/echo.json',
      query: [
        ['method', 'put'],
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'FIRST_WIN'],
        ['reset', '1'],
      ],
      sign: true,
      idempotent: true,
    });
    expect(reply.payload).toMatchObject({ verified: true, method: 'POST' });
  });

  it('a wrong secret is rejected by the same server (the check is real)', async () => {
    const { client } = makeClient({ signer: createSigner('hmac-sha256-v1', 'not-the-secret') });
    const e = await failure(client.changeUserAchievement('echo', TARGET, { reset: true }));
    expect(e).toMatchObject({ code: 403, message: 'bad signature' });
  });

  it('without a signing secret, nothing is sent and the error says how to set one', async () => {
    const { client, trace } = makeClient({ signer: createSigner('hmac-sha256-v1') });
    const before = platform.requests.length;
    const e = await failure(client.adjustProduct('echo', { parentId: '1001', sku: 'x' }, 1, 'increment'));
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toBe('no signing secret configured');
    expect(platform.requests.length).toBe(before);
    expect(trace).toEqual([]);
  });
});

describe('requests as sent', () => {
  it('adds api_key first and keeps the given order; --public leaves it out; username=1 by username', async () => {
    const { client } = makeClient();
    await client.request({
      method: 'GET',
      path: '/services/rest/v1/x/echo.json',
      query: [
        ['b', '2'],
        ['a', '1'],
      ],
      idempotent: true,
    });
    expect(lastRequest('echo').params).toEqual([
      ['api_key', API_KEY],
      ['b', '2'],
      ['a', '1'],
    ]);

    await failure(client.getUser('some name', { byUsername: true, publicOnly: true }));
    const seen = lastRequest('some%20name');
    expect(seen.path).toBe('/services/rest/v1/users/some%20name.json');
    expect(seen.params).toEqual([['username', '1']]);
  });

  it('typed methods use the contract paths, parameters and verbs', async () => {
    const { client } = makeClient();
    // echo answers with an object where a list belongs: rejected, but the request is what we check.
    const notAList = await failure(
      client.listUserAchievements('echo', { type: 'Game', pid: '1001', limit: 5, order: 'name', sort: 'asc' }),
    );
    expect(notAList).toBeInstanceOf(MalformedReplyError);
    expect(lastRequest('echo')).toMatchObject({ method: 'GET', path: '/services/rest/v1/achievements/user/echo.json' });
    expect(lastRequest('echo').params).toEqual([
      ['api_key', API_KEY],
      ['type', 'Game'],
      ['pid', '1001'],
      ['limit', '5'],
      ['order', 'name'],
      ['sort', 'asc'],
    ]);

    await client.deleteUserAchievement('echo', TARGET);
    expect(lastRequest('echo')).toMatchObject({ method: 'DELETE' });
    expect(lastRequest('echo').params.map(([n]) => n)).toEqual(['api_key', 'type', 'pid', 'developer_id']);

    await client.grantProduct('echo', { parentId: '1001', sku: 'gold' }, 3);
    expect(lastRequest('echo')).toMatchObject({ method: 'POST' });
    expect(lastRequest('echo').params).toEqual([
      ['api_key', API_KEY],
      ['sku', 'gold'],
      ['parent_id', '1001'],
      ['qty', '3'],
    ]);

    await client.changeUserAchievement('echo', TARGET, { progress: 0.5 });
    expect(lastRequest('echo').params).toContainEqual(['progress', '0.5']);

    await failure(client.listAchievementDefinitions('1001', { aid: 7 }));
    expect(lastRequest('1001')).toMatchObject({
      path: '/services/rest/v1/achievements/1001.json',
      params: [
        ['api_key', API_KEY],
        ['aid', '7'],
      ],
    });

    await failure(client.authenticate('a'.repeat(32), 'b'.repeat(32)));
    expect(lastRequest('user').params).toEqual([
      ['api_key', API_KEY],
      ['user_id', 'a'.repeat(32)],
      ['auth_token', 'b'.repeat(32)],
    ]);
  });

  it('friendPages pages through every friend with offsets and stops on the short page', async () => {
    const { client } = makeClient();
    const before = platform.hits('friends');
    let count = 0;
    let last = '';
    for await (const page of client.friendPages('friends')) {
      count += page.length;
      last = page.at(-1)?.username ?? last;
    }
    expect(count).toBe(FRIEND_COUNT);
    expect(last).toBe(`friend${FRIEND_COUNT - 1}`);
    expect(platform.hits('friends') - before).toBe(3);
    const offsets = platform.requests
      .filter((r) => r.path.endsWith('/friends.json'))
      .slice(-3)
      .map((r) => r.params);
    expect(offsets).toEqual(
      [0, 500, 1000].map((o) => [
        ['api_key', API_KEY],
        ['limit', '500'],
        ['offset', String(o)],
      ]),
    );
  });

  it('friendPages stops with a malformed-reply error when the server sends the same page again', async () => {
    const { client } = makeClient();
    const pages: number[] = [];
    const e = await (async () => {
      for await (const page of client.friendPages('friends-no-offset')) pages.push(page.length);
    })().catch((err: unknown) => err);
    expect(pages).toEqual([500]);
    expect(e).toBeInstanceOf(MalformedReplyError);
    expect(String((e as Error).message)).toContain('the friends service sent the same page again at offset 500');
  });

  it('trace: one line per request and reply, every secret redacted', async () => {
    const { client, trace } = makeClient();
    await client.changeUserAchievement('echo', TARGET, { increment: 1 });
    expect(trace).toHaveLength(2);
    expect(trace[0]).toMatch(
      /^→ PUT http:\/\/127\.0\.0\.1:\d+\/services\/rest\/v1\/achievements\/user\/echo\.json\?api_key=0123…cdef&.*&signature=[0-9a-f]{4}…[0-9a-f]{4}$/,
    );
    expect(trace[1]).toMatch(/^← 200 OK \d+ ms \(\d+ bytes\)$/);
    const signature = lastRequest('echo').params.find(([n]) => n === 'signature')![1];
    expect(trace.join('\n')).not.toContain(API_KEY);
    expect(trace.join('\n')).not.toContain(signature);
  });

  it('prepare() gives the exact URL, the redacted URL and the canonical string, and sends nothing', () => {
    const { client } = makeClient({
      nowSeconds: () => 1795000000,
      signer: createSigner('hmac-sha256-v1', 'sandbox-demo-signing-secret-0001', {
        nonce: () => 'udcli-nonce_0123456789',
      }),
    });
    const before = platform.requests.length;
    const prepared = client.prepare({
      method: 'PUT',
      path: '/services/rest/v1/achievements/user/c3323c76c063636c91d2e8cb8f4dfcaf.json',
      query: [
        ['type', 'Game'],
        ['pid', '1001'],
        ['developer_id', 'FIRST_WIN'],
        ['increment', '1'],
      ],
      sign: true,
      idempotent: false,
    });
    // signing-vectors.json, vector 0, with a nonce (its signature computed with openssl: test/client/signer.test.ts)
    expect(prepared.canonical).toBe(
      'PUT\n/services/rest/v1/achievements/user/c3323c76c063636c91d2e8cb8f4dfcaf.json\napi_key=0123456789abcdef0123456789abcdef&developer_id=FIRST_WIN&increment=1&nonce=udcli-nonce_0123456789&pid=1001&timestamp=1795000000&type=Game',
    );
    expect(prepared.url).toBe(
      `${platform.url}/services/rest/v1/achievements/user/c3323c76c063636c91d2e8cb8f4dfcaf.json?api_key=${API_KEY}&type=Game&pid=1001&developer_id=FIRST_WIN&increment=1&timestamp=1795000000&nonce=udcli-nonce_0123456789&signature=e43c19286d052f80a7a0483312039d209f008e48be2cdf18552f24e1510d80f2`,
    );
    expect(prepared.redactedUrl).toContain('api_key=0123…cdef');
    expect(prepared.redactedUrl).toContain('signature=e43c…80f2');
    expect(prepared.redactedUrl).not.toContain(API_KEY);
    expect(platform.requests.length).toBe(before);
  });
});

describe('the site: login and token generator', () => {
  it('siteLogin returns the session cookies; generateToken parses the bare record', async () => {
    const { client } = makeClient();
    const cookie = await client.siteLogin('demo_player');
    expect(cookie).toBe(`${SESSION}; theme=dark`);
    expect(lastRequest('login')).toMatchObject({ method: 'POST', params: [['username', 'demo_player']] });

    const { record, bodyText } = await client.generateToken('1001', cookie);
    expect(record).toMatchObject({
      status: true,
      game_id: '1001',
      uid: EXTRA_FIELDS_USER.uid,
      token: 'f'.repeat(32),
      expires_on: 1795000900,
    });
    expect(JSON.parse(bodyText)).toEqual(record);
    expect(lastRequest('1001').params).toEqual([]);
  });

  it('request() with base "site" reads a bare JSON reply, and an error status as an ApiError', async () => {
    const { client } = makeClient();
    const path = '/service/user-auth-token-generator/1001';
    const ok = await client.request<{ token: string }>({
      method: 'GET',
      path,
      base: 'site',
      headers: { Cookie: SESSION },
      idempotent: true,
    });
    expect(ok.payload.token).toBe('f'.repeat(32));
    expect(ok.httpStatus).toBe(200);
    expect(lastRequest('1001').params).toEqual([]); // no api_key to the site
    const e = await failure(client.request({ method: 'GET', path, base: 'site', idempotent: true }));
    expect(e).toMatchObject({ code: 401, message: 'login required' });
  });

  it('generateToken without a session: 401 "not logged in to the site"', async () => {
    const e = await failure(makeClient().client.generateToken('1001', 'sid=expired'));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({ code: 401, message: 'not logged in to the site' });
  });
});
