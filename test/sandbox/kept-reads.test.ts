/**
 * A read asked again (GET users/{uid}.json, the hottest request) is answered before Fastify from the
 * reply the whole pipeline made the first time (http/kept-reads.ts). Seen from outside nothing may
 * differ: the same status line, headers and bytes; the Host check; the request log; the count of
 * API requests. And a sandbox with a rate limit or faults still decides every request itself.
 * (A kept reply following every change to its user: key-cache.test.ts.)
 */
import { request as httpRequest, Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { seededRandom } from '../../src/sandbox/faults/injector.js';
import { parseFaultSpec } from '../../src/sandbox/faults/spec.js';
import { exactRequest, type TestSandbox } from './helpers/sandbox.js';

const USER_PATH = `${API_PREFIX}/users/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}`;

interface Raw {
  statusLine: string;
  /** As sent: names in their case and order, Date left out (it moves). */
  headers: string[];
  body: string;
}

/** One GET on a kept-alive connection of `agent`, as it came off the wire. */
function get(base: string, agent: Agent, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port: Number(port), path, agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]!.toLowerCase() !== 'date') pairs.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ statusLine: `HTTP/${res.httpVersion} ${res.statusCode} ${res.statusMessage}`, headers: pairs, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('a read asked again', () => {
  let sb: TestSandbox;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  beforeAll(({ sb: fileSb }) => {
    sb = fileSb;
  });
  afterAll(async () => {
    agent.destroy();
  });

  it('gets the same status line, the same headers in the same order and the same bytes', async () => {
    const first = await get(sb.url, agent, USER_PATH);
    expect(first.statusLine).toBe('HTTP/1.1 200 OK');
    expect(first.headers).toEqual([
      'access-control-allow-origin: *',
      'access-control-expose-headers: Retry-After, Allow',
      'content-type: application/json; charset=utf-8',
      'cache-control: no-store',
      `content-length: ${Buffer.byteLength(first.body)}`,
      'Connection: keep-alive',
      expect.stringMatching(/^Keep-Alive: timeout=\d+$/),
    ]);
    expect(JSON.parse(first.body)).toMatchObject({ code: 200, payload: { uid: DEMO.user.uid } });
    for (let i = 0; i < 3; i++) expect(await get(sb.url, agent, USER_PATH)).toEqual(first);
    // On a connection of its own too, and as XML.
    expect(await get(sb.url, new Agent(), USER_PATH)).toEqual({
      ...first,
      headers: first.headers.map((h) => h.replace('keep-alive', 'close')).filter((h) => !h.startsWith('Keep-Alive')),
    });
    const xmlPath = USER_PATH.replace('.json', '.xml');
    const xml = await get(sb.url, agent, xmlPath);
    expect(xml.headers).toContain('content-type: application/xml; charset=utf-8');
    expect(await get(sb.url, agent, xmlPath)).toEqual(xml);
  });

  it('is refused when it is not addressed to the sandbox, as the first time', async () => {
    const port = new URL(sb.url).port;
    await get(sb.url, agent, USER_PATH);
    const foreign = await exactRequest(sb.url, 'GET', USER_PATH, { host: `evil.example:${port}` });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBe('*');
    // Another port in the Host is another server.
    expect((await exactRequest(sb.url, 'GET', USER_PATH, { host: `127.0.0.1:1` })).status).toBe(403);
    // Another name of this machine the sandbox answers as: its own avatar URLs.
    const named = await get(sb.url, agent, USER_PATH, { host: `localhost:${port}` });
    expect(named.body).toContain(`"avatar":"http://localhost:${port}/avatars/`);
    expect((await get(sb.url, agent, USER_PATH)).body).toContain(`"avatar":"http://127.0.0.1:${port}/avatars/`);
  });

  it('is in the request log and in the count of API requests, each time', async () => {
    const faultsBefore = await (await fetch(`${sb.url}/_sandbox/faults`)).json();
    const since = (
      (await (await fetch(`${sb.url}/_sandbox/requests?limit=1`)).json()) as { requests: Array<{ id: number }> }
    ).requests[0]!.id;
    for (let i = 0; i < 5; i++) await get(sb.url, agent, USER_PATH);
    const log = (await (await fetch(`${sb.url}/_sandbox/requests?since=${since}`)).json()) as {
      requests: Array<{ method: string; path: string; query: string; status: number; ms: number; reason: null }>;
    };
    expect(log.requests).toHaveLength(5);
    for (const entry of log.requests) {
      expect(entry).toMatchObject({
        method: 'GET',
        path: `${API_PREFIX}/users/${DEMO.user.uid}.json`,
        status: 200,
        reason: null,
      });
      // The key is redacted as in every line.
      expect(entry.query).not.toContain(DEMO.game.apiKey);
      expect(entry.ms).toBeGreaterThanOrEqual(0);
    }
    const faultsAfter = (await (await fetch(`${sb.url}/_sandbox/faults`)).json()) as { requests: number };
    expect(faultsAfter.requests).toBe((faultsBefore as { requests: number }).requests + 5);
  });

  it('a HEAD, another verb or another target still goes through the whole pipeline', async () => {
    await get(sb.url, agent, USER_PATH);
    const head = await exactRequest(sb.url, 'HEAD', USER_PATH);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    const override = await exactRequest(sb.url, 'GET', `${USER_PATH}&method=put`);
    expect(override.status).toBe(405);
    // A failure is never kept: asked again, it fails again.
    const unknown = USER_PATH.replace(DEMO.user.uid, '0'.repeat(32));
    for (let i = 0; i < 2; i++) expect((await exactRequest(sb.url, 'GET', unknown)).status).toBe(404);
  });
});

describe('a read asked again of a sandbox with a public URL', () => {
  it('is refused when it is not addressed to the sandbox, though its reply would be the same', async ({ newSb }) => {
    // One origin in every reply, whatever the Host: the kept reply would fit a foreign Host too.
    const sb = await newSb({ publicOrigin: 'https://sandbox.example.com' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(sb.url, agent, USER_PATH);
      expect(first.body).toContain('"avatar":"https://sandbox.example.com/avatars/');
      expect(await get(sb.url, agent, USER_PATH)).toEqual(first);
      const port = new URL(sb.url).port;
      for (const host of [`evil.example:${port}`, '127.0.0.1:1']) {
        expect((await get(sb.url, agent, USER_PATH, { host })).statusLine).toBe('HTTP/1.1 403 Forbidden');
      }
    } finally {
      agent.destroy();
    }
  });
});

describe('a sandbox that decides each request itself', () => {
  it('with a rate limit, a read asked again is counted and refused beyond the limit', async ({ newSb }) => {
    const limited = await newSb({ rateLimitPerSecond: 3, startMs: Date.UTC(2025, 0, 1, 0, 0, 0, 200) });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const statuses: string[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await get(limited.url, agent, USER_PATH)).statusLine);
      expect(statuses).toEqual([
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 200 OK',
        'HTTP/1.1 429 Too Many Requests',
      ]);
    } finally {
      agent.destroy();
      await limited.close();
    }
  });

  it('with faults, a read asked again gets its own draw', async ({ newSb }) => {
    const faulty = await newSb({ faults: { spec: parseFaultSpec('html-502=0.5'), seed: 7 } });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const draws = seededRandom(7);
      const expected = Array.from({ length: 12 }, () => (draws() < 0.5 ? 502 : 200));
      // Both kinds of answer, a 200 before a 502 (so the 502 comes after a reply that could have been kept).
      expect(expected.indexOf(502, expected.indexOf(200))).toBeGreaterThan(0);
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++)
        statuses.push(Number((await get(faulty.url, agent, USER_PATH)).statusLine.split(' ')[1]));
      expect(statuses).toEqual(expected);
    } finally {
      agent.destroy();
      await faulty.close();
    }
  });
});
