/**
 * --faults over real HTTP (issue 11): each kind at probability 1 answers as the platform (or a
 * proxy in front of it) does on a bad day; a faulted mutation changes nothing, except `slow`,
 * which applies it and answers late; the same seed faults the same requests; /_sandbox/faults
 * counts them. State is read back through a second, fault-free app on the same database.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it, type NewSb } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX, type UserAchievement } from '../../src/domain/types.js';
import { buildApp } from '../../src/sandbox/app.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { reasonOf } from '../../src/sandbox/http/request-notes.js';
import { api, call, exactRequest, signedApi, type Params, type Reply, type TestSandbox } from './helpers/sandbox.js';

const USER = uidForUsername('player_0042');
const PATH = `/achievements/user/${USER}.json`;
const LEVEL_10: Params = [
  ['type', 'Game'],
  ['pid', '1001'],
  ['developer_id', 'DAILY_STREAK_7'],
];

let newFaultedSb: NewSb;
beforeAll(({ newSb }) => {
  newFaultedSb = newSb;
});
const open: Array<{ close(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});
afterAll(async () => {
  await Promise.all(open.splice(0).map((x) => x.close()));
});

async function faulted(spec: string, seed = 1): Promise<TestSandbox> {
  const sb = await newFaultedSb({ faults: { spec: parseFaultSpec(spec), seed } });
  open.push(sb);
  return sb;
}

/** The same database through an app without faults: what a client would read once the bad day is over. */
async function plainView(sb: TestSandbox): Promise<string> {
  const app: FastifyInstance = buildApp({ db: sb.db, nowMs: () => sb.clock.ms });
  await app.listen({ port: 0, host: '127.0.0.1' });
  open.unshift({ close: () => app.close() });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

async function streak(base: string): Promise<number> {
  const r = await api<UserAchievement[]>(base, 'GET', PATH, LEVEL_10);
  expect(r.status, r.text).toBe(200);
  // A quest never started is not listed (the platform's pages): its value is its start, 0.
  return r.body.payload![0]?.current_value ?? 0;
}

/** A sandbox under the fault `spec`, the streak before, and the streak a client reads once the bad day is over. */
async function underFault(
  spec: string,
): Promise<{ sb: TestSandbox; before: number; streakNow: () => Promise<number> }> {
  const sb = await faulted(spec);
  const plain = await plainView(sb);
  return { sb, before: await streak(plain), streakNow: () => streak(plain) };
}

const increment = (sb: TestSandbox) => signedApi(sb, 'PUT', PATH, [...LEVEL_10, ['increment', '1']]);

/** An increment under the fault `spec`: `check` sees its reply, and the streak is as it was before. */
async function expectNotApplied(
  spec: string,
  check: (r: Reply, sb: TestSandbox) => void | Promise<void>,
): Promise<void> {
  const { sb, before, streakNow } = await underFault(spec);
  await check(await increment(sb), sb);
  expect(await streakNow()).toBe(before);
}

async function summary(
  base: string,
): Promise<{ spec: string | null; seed: number | null; requests: number; counts: Record<string, number> }> {
  const r = await fetch(`${base}/_sandbox/faults`);
  expect(r.status).toBe(200);
  return (await r.json()) as never;
}

describe('each kind at probability 1', () => {
  it('envelope-error: HTTP 200 with an error code in the envelope; the increment is not applied', async () => {
    await expectNotApplied('envelope-error=1', async (r, sb) => {
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ version: 1, code: 500, message: 'internal error', payload: null });
      const xml = await api(sb.url, 'GET', `/users/${DEMO.user.uid}.xml`);
      expect(xml.status).toBe(200);
      expect(xml.text).toContain('<code>500</code>');
    });
  });

  it('html-502: the HTML page a proxy sends; nothing applied', async () => {
    await expectNotApplied('html-502=1', (r) => {
      expect(r.status).toBe(502);
      expect(r.headers.get('content-type')).toMatch(/^text\/html/);
      expect(r.text).toContain('<title>502 Bad Gateway</title>');
    });
  });

  it('truncated: HTTP 200 and JSON cut short (Content-Length agrees); nothing applied', async () => {
    await expectNotApplied('truncated=1', (r) => {
      expect(r.status).toBe(200);
      expect(r.text).toBe('{"version":1,"code":200,"message":"OK","payload":{"uid":"');
      expect(() => JSON.parse(r.text) as unknown).toThrow();
      expect(Number(r.headers.get('content-length'))).toBe(Buffer.byteLength(r.text));
    });
  });

  it('empty: HTTP 200 with an empty body; nothing applied', async () => {
    await expectNotApplied('empty=1', (r) => {
      expect(r.status).toBe(200);
      expect(r.text).toBe('');
    });
  });

  it('rate-limit: 429 with Retry-After, in the envelope like the real limit; nothing applied', async () => {
    await expectNotApplied('rate-limit=1', (r) => {
      expect(r.status).toBe(429);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body).toEqual({ version: 1, code: 429, message: 'rate limited: retry after 1 s', payload: null });
    });
  });

  it('reset: the connection is reset, no reply at all; nothing applied', async () => {
    const { sb, before, streakNow } = await underFault('reset=1');
    const { hostname, port } = new URL(sb.url);
    const error = await new Promise<NodeJS.ErrnoException>((resolve, reject) => {
      const req = httpRequest(
        {
          host: hostname,
          port: Number(port),
          path: `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`,
        },
        () => reject(new Error('expected no reply')),
      );
      req.on('error', resolve);
      req.end();
    });
    expect(error.code).toBe('ECONNRESET');
    await expect(increment(sb)).rejects.toThrow();
    expect(await streakNow()).toBe(before);
    // In the request log too (issue 23), as 444 (no reply) with its fault.
    const logged = (await (await fetch(`${sb.url}/_sandbox/requests`)).json()) as {
      requests: Array<{ path: string; status: number; reason: string | null }>;
    };
    const resets = logged.requests.filter((r) => r.path.startsWith(API_PREFIX));
    expect(resets.length).toBeGreaterThanOrEqual(2);
    for (const r of resets) expect(r).toMatchObject({ status: 444, reason: 'fault: reset' });
  });

  it('slow: the request is applied, and the reply comes late', async () => {
    const { sb, before, streakNow } = await underFault('slow=1:400ms');
    const started = performance.now();
    const r = await increment(sb);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    expect(r.status).toBe(200);
    expect(r.body.payload).toMatchObject({ current_value: before + 1 });
    expect(await streakNow()).toBe(before + 1);
    // A refused request is late too, and still refused.
    const bad = await api(sb.url, 'GET', `/users/${'0'.repeat(32)}.json`);
    expect(bad.status).toBe(404);
  });

  it('challenge-again: a valid agi-signed request gets one more challenge instead, and changes nothing', async () => {
    const { sb, before, streakNow } = await underFault('challenge-again=1');
    const query: Params = [['api_key', DEMO.game.apiKey], ...LEVEL_10, ['increment', '1']];
    const path = `${API_PREFIX}${PATH}`;
    // The unsigned request is challenged as always (not a fault: it was not signed).
    const first = await call<{ session: string; key: string }>(sb.url, 'PUT', path, query);
    expect(first.status).toBe(401);
    expect(first.body.message).toBe('signature required');
    const challenge = first.body.payload!;
    const signed: Params = [
      ...query,
      ['session', challenge.session],
      ['sig', agiSignature({ ...challenge, path, query })],
    ];
    const second = await call<{ session: string; key: string }>(sb.url, 'PUT', path, signed);
    expect(second.status).toBe(401);
    expect(second.body.message).toMatch(/^stale session/);
    expect(second.body.payload).toMatchObject({
      session: expect.stringMatching(/^[0-9a-f]{32}$/),
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    expect(second.body.payload!.session).not.toBe(challenge.session);
    expect(await streakNow()).toBe(before);
    // hmac-signed and unsigned requests are not agi-signed: the fault does not apply to them.
    expect((await increment(sb)).status).toBe(200);
    expect(await streakNow()).toBe(before + 1);
    expect((await summary(sb.url)).counts).toEqual({ 'challenge-again': 1 });
  });
});

describe('where faults apply', () => {
  it('only under /services/rest/v1: the site, the status and the control endpoints answer as usual', async () => {
    const sb = await faulted('html-502=1');
    const login = await fetch(`${sb.url}/login?username=demo_player`, { method: 'POST' });
    expect(login.status).toBe(200);
    expect((await fetch(`${sb.url}/_sandbox/status`)).status).toBe(200);
    expect((await fetch(`${sb.url}/_sandbox/clock`)).status).toBe(200);
    expect(await summary(sb.url)).toEqual({ spec: 'html-502=1', seed: 1, requests: 0, counts: { 'html-502': 0 } });
  });

  it('/_sandbox/faults counts requests and applied faults; without --faults it says so', async ({ newSb }) => {
    const sb = await faulted('html-502=0.5,empty=0.5');
    for (let i = 0; i < 10; i++) await api(sb.url, 'GET', `/users/${DEMO.user.uid}.json`);
    const s = await summary(sb.url);
    expect(s).toMatchObject({ spec: 'html-502=0.5,empty=0.5', seed: 1, requests: 10 });
    expect(s.counts['html-502']! + s.counts.empty!).toBe(10);

    const none = await newSb();
    open.push(none);
    await api(none.url, 'GET', `/users/${DEMO.user.uid}.json`);
    expect(await summary(none.url)).toEqual({ spec: null, seed: null, requests: 1, counts: {} });
  });

  it('/_sandbox/faults refuses a request addressed to another host', async () => {
    const sb = await faulted('reset=0.5');
    const { port } = new URL(sb.url);
    const r = await exactRequest(sb.url, 'GET', '/_sandbox/faults', { host: `evil.example:${port}` });
    expect(r.status).toBe(403);
  });
});

describe('the request log', () => {
  it('learns why a request ended as it did: `fault: KIND`', async ({ newSb }) => {
    const sb = await newSb();
    open.push(sb);
    // Every request is faulted: half answered with the 502 page, half late.
    const app: FastifyInstance = buildApp({
      db: sb.db,
      faults: { spec: parseFaultSpec('html-502=0.5,slow=0.5:10ms'), seed: 3 },
    });
    const reasons: Array<string | null> = [];
    app.addHook('onResponse', async (request) => {
      reasons.push(reasonOf(request));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    open.unshift({ close: () => app.close() });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api(base, 'GET', `/users/${DEMO.user.uid}.json`)).status);
    expect(reasons).toEqual(statuses.map((status) => (status === 502 ? 'fault: html-502' : 'fault: slow')));
    expect(new Set(statuses)).toEqual(new Set([200, 502]));
  });
});

describe('seeded', () => {
  /** Which of `n` sequential requests were faulted, and how (status, or "reset"). */
  async function pattern(seed: number, n = 40): Promise<string[]> {
    const sb = await faulted('html-502=0.2,reset=0.2,empty=0.2', seed);
    const seen: string[] = [];
    for (let i = 0; i < n; i++) {
      try {
        const r = await api(sb.url, 'GET', `/users/${DEMO.user.uid}.json`);
        seen.push(r.status === 200 && r.text === '' ? 'empty' : String(r.status));
      } catch {
        seen.push('reset');
      }
    }
    return seen;
  }

  it('the same seed and the same request sequence fault the same requests; another seed others', async () => {
    const first = await pattern(7);
    const again = await pattern(7);
    expect(again).toEqual(first);
    expect(new Set(first)).toEqual(new Set(['200', '502', 'reset', 'empty']));
    expect(await pattern(8)).not.toEqual(first);
  });
});
