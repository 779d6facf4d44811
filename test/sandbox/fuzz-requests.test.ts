/**
 * Property tests (fast-check, issue 31) of the request parameter parser and of the API pipeline
 * behind it: random query strings and form bodies (percent-encoding right and wrong, repeats,
 * names in both, long values, control characters) give the parameters back exactly, or one 400
 * or 415 with a one-line message, never anything else; and through the whole app (real HTTP:
 * the Host check needs a socket, which fastify's inject has not; every reply also checked
 * against the OpenAPI description by the test sandbox) no request ends in a 500, a reply
 * without its envelope, or more than one log line.
 */
import fc from 'fast-check';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { rfc3986 } from '../../src/domain/signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { ApiFailure } from '../../src/sandbox/http/failure.js';
import { QUERY_LIMITS } from '../../src/sandbox/http/query.js';
import { requestParameters, UnreadBody } from '../../src/sandbox/http/request-parameters.js';
import { until } from '../until.js';
import type { TestSandbox } from './helpers/sandbox.js';

/** Characters that break parsers: separators, escapes, controls, bidi, astral, lone surrogates. */
const nasty = fc.constantFrom(
  '&',
  '=',
  '+',
  '%',
  '%2',
  '%zz',
  '%00',
  '%E2%80%AE',
  '%ED%A0%80',
  '\u0000',
  '\n',
  '\r',
  ' ',
  '#',
  '?',
  '\u202e',
  '😀',
  '\ud800',
  'é',
  'a',
  'api_key',
  'method',
  'sig',
);
const messy = fc.array(fc.oneof(nasty, fc.string({ maxLength: 8 })), { maxLength: 40 }).map((parts) => parts.join(''));
const name = fc.oneof(
  fc.constantFrom('api_key', 'sku', 'qty', 'method', 'data', 'key', 'parent_id'),
  fc.string({ minLength: 1, maxLength: 12 }),
);
const pairs = fc.array(fc.tuple(name, fc.string({ maxLength: 40 })), { maxLength: 12 });
const encoded = (list: ReadonlyArray<readonly [string, string]>) =>
  list.map(([n, v]) => `${rfc3986(n)}=${rfc3986(v)}`).join('&');
/** Well-formed UTF-16 only: lone surrogates cannot be percent-encoded and are not what a client sends. */
const wellFormed = (s: string) => !/[\ud800-\udfff]/u.test(s.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''));

function expectOneLineRefusal(error: unknown, codes: number[]): void {
  expect(error).toBeInstanceOf(ApiFailure);
  const failure = error as ApiFailure;
  expect(codes).toContain(failure.code);
  expect(failure.message).not.toMatch(/[\r\n]/);
  expect(failure.message.length).toBeLessThan(300);
}

describe('the request parameter parser (fast-check)', () => {
  it('random text as query and body: the parameters, or one 400/415 in one line', () => {
    fc.assert(
      fc.property(
        messy,
        fc.oneof(messy, fc.constant(''), fc.constant(new UnreadBody('text/plain'))),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'),
        (query, body, method) => {
          try {
            const parsed = requestParameters(query, body, method);
            expect(parsed.merged.pairs.length).toBeLessThanOrEqual(2 * QUERY_LIMITS.pairs);
          } catch (error) {
            expectOneLineRefusal(error, [400, 415]);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('pairs encoded as a client does come back exactly, in order, from the query or the body', () => {
    fc.assert(
      fc.property(pairs, (list) => {
        fc.pre(list.every(([n, v]) => wellFormed(n) && wellFormed(v)) && list.length <= QUERY_LIMITS.pairs);
        const fromQuery = requestParameters(encoded(list), undefined, 'GET');
        expect(fromQuery.query.pairs).toEqual(list);
        expect(fromQuery.body).toBeNull();
        const fromBody = requestParameters('', encoded(list), 'POST');
        if (list.length > 0) expect(fromBody.body?.pairs).toEqual(list);
        expect(fromBody.merged.pairs).toEqual(list);
      }),
      { numRuns: 300 },
    );
  });

  it('a name in the query and the body: counted once when the values agree, else one 400 naming it', () => {
    fc.assert(
      fc.property(name, fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }), (n, a, b) => {
        fc.pre(wellFormed(n) && wellFormed(a) && wellFormed(b));
        const query = encoded([[n, a]]);
        try {
          const parsed = requestParameters(query, encoded([[n, b]]), 'POST');
          expect(a).toBe(b);
          expect(parsed.merged.pairs).toEqual([[n, a]]);
        } catch (error) {
          expect(a).not.toBe(b);
          expectOneLineRefusal(error, [400]);
          expect((error as Error).message).toMatch(/^ambiguous parameter: /);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the API pipeline under random requests (fast-check, over HTTP)', () => {
  let sb: TestSandbox;
  let pool: Pool;
  const lines: string[] = [];
  beforeAll(async ({ newSb }) => {
    sb = await newSb({ requestLines: (text) => lines.push(text) });
    pool = new Pool(sb.url, { connections: 1, headersTimeout: 5000, bodyTimeout: 5000 });
  });
  afterAll(async () => {
    await pool?.close();
  });

  const PATHS = [
    `/users/${DEMO.user.uid}.json`,
    `/users/${DEMO.user.username}.json`,
    `/achievements/user/${DEMO.user.uid}.json`,
    `/achievements/${DEMO.game.id}.json`,
    `/products/user/${DEMO.user.uid}.json`,
    `/products/${DEMO.game.id}.json`,
    `/gamesave/${DEMO.user.uid}.json`,
    `/gamesave/${DEMO.user.uid}.xml`,
    '/friends/x.json',
    '/nothing.json',
  ];
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'),
    path: fc.constantFrom(...PATHS),
    query: fc.oneof(
      messy,
      pairs.map(encoded),
      pairs.map((list) => encoded([['api_key', DEMO.game.apiKey], ...list])),
    ),
    body: fc.option(fc.oneof(messy, pairs.map(encoded)), { nil: undefined }),
    contentType: fc.constantFrom(
      'application/x-www-form-urlencoded',
      'application/json',
      'text/plain',
      'application/x-www-form-urlencoded; charset=utf-8',
    ),
  });

  it('never a 500: each reply an envelope whose code is its status, one log line per request', async () => {
    await fc.assert(
      fc.asyncProperty(request, async ({ method, path, query, body, contentType }) => {
        const before = lines.length;
        // What a client can put in a request line: printable ASCII, the rest percent-encoded (a raw `%` stays, right or
        // wrong).
        const url = `${API_PREFIX}${path}?${query.replace(/[^\x21-\x7e]|#/gu, (c) => (wellFormed(c) ? encodeURIComponent(c) : '%ED%A0%80'))}`;
        const withBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
        const reply = await pool.request({
          method: method as 'GET',
          path: url,
          ...(withBody ? { body, headers: { 'content-type': contentType } } : {}),
        });
        const text = await reply.body.text();
        expect(reply.statusCode, `${method} ${url}: ${text}`).toBeLessThan(500);
        if (method !== 'HEAD' && method !== 'OPTIONS') {
          const xml = String(reply.headers['content-type']).startsWith('application/xml');
          const envelope = xml
            ? {
                code: Number(/<code>(\d+)<\/code>/.exec(text)?.[1]),
                message: /<message>(.*?)<\/message>/s.exec(text)?.[1],
              }
            : (JSON.parse(text) as { code?: number; message?: string });
          expect(envelope.code, text).toBe(reply.statusCode);
          expect(envelope.message ?? '').not.toMatch(/[\r\n]|\bat .*\.(ts|js):\d+/);
        }
        // The log hands its lines over in batches, a few milliseconds after the requests: looked for
        // every millisecond, as 200 runs waiting out a 50 ms poll each took ten seconds.
        await until(() => lines.length > before, `the log line of ${method} ${url}`, { intervalMs: 1 });
        const logged = lines.slice(before).join('');
        expect(logged.split('\n').filter(Boolean), logged).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });
});
