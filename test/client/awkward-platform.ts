/**
 * An "awkward platform": a node:http server on port 0 that answers with the shapes a real
 * platform sends (error codes under HTTP 200, HTML from a proxy, truncated JSON, strings for
 * numbers, resets, silence) and verifies hmac-sha256-v1 signatures with the shared spec code.
 * Scenarios starting `agi` speak the platform's challenge protocol (SERVICE.md: Signatures / agi):
 * an unsigned request gets a 401 {session, key}; a signed one is checked against a one-use session.
 * The scenario is the last path element (without .json), e.g. /services/rest/v1/users/html-502.json.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { canonicalString, hmacSha256Hex, signaturesEqual } from '../../src/domain/signing.js';

export interface SeenRequest {
  method: string;
  path: string;
  params: Array<[string, string]>;
  headers: IncomingMessage['headers'];
}

export interface AwkwardPlatform {
  url: string;
  requests: SeenRequest[];
  /** Requests seen for a scenario (any method). */
  hits(scenario: string): number;
  close(): Promise<void>;
}

export const PLATFORM_SECRET = 'awkward-platform-secret';
/** An error message whose line breaks would write a line of its own on stderr (scenario `forged-lines`). */
export const FORGED_TOKEN = 'e'.repeat(32);
export const FORGED_MESSAGE = 'bad request\nudcli: all changes were applied\r\nsecond forged line';
export const FRIEND_COUNT = 1203;
export const SESSION = 'sid=s3ss10n';

const product = (sku: string, type: string, extra: Record<string, unknown> = {}) =>
  `{"id":"1","sku":"${sku}","name":"${sku}","description":"a\\/b","image":"https:\\/\\/cdn.example\\/product.user\\/uat-test_unlockable\\/x.png","type":"${type}","state":"active","created_on":1700000000,"updated_on":"1690000000"${Object.entries(
    extra,
  )
    .map(([k, v]) => `,"${k}":${JSON.stringify(v)}`)
    .join('')}}`;
/** products list as a real platform may send it: `\/`, created_on as a number, purchase.data of every kind. */
export const ESCAPED_PRODUCTS_BODY =
  '{"version":1,"code":200,"message":"OK","payload":[' +
  [
    `{"purchase":{"success":false,"data":false,"message":"not held"},"product":${product('uat-test_unlockable', 'unlockable')}}`,
    `{"purchase":{"success":true,"data":"active","message":"OK"},"product":${product('sword', 'unlockable')}}`,
    `{"purchase":{"success":true,"data":17,"message":"OK"},"product":${product('2wa-cookies:20', 'consumable', { data: { consumable_qty: 20 } })}}`,
    `{"purchase":{"success":true,"data":{"qty":"3"},"message":"OK"},"product":${product('gems:5', 'consumable')}}`,
  ].join(',') +
  ']}';

export const EXTRA_FIELDS_USER = {
  uid: '0123456789abcdef0123456789abcdef',
  username: 'awkward',
  avatar: 'https://img.example/a.png?size=64',
  created_on: 1700000000,
  plays_game: '1',
  badges: [{ id: '7', label: 'early' }],
  nested: { anything: null },
};

function envelope(
  res: ServerResponse,
  status: number,
  code: number | string,
  message: string,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const body = JSON.stringify({ version: 1, code, message, payload });
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

function raw(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export async function startAwkwardPlatform(): Promise<AwkwardPlatform> {
  const requests: SeenRequest[] = [];
  const counts = new Map<string, number>();
  const sessions = new Map<string, string>(); // session -> key, each used up by its first signed request
  const challenge = (res: ServerResponse, message: string, payload?: unknown): void => {
    const session = randomBytes(16).toString('hex');
    const key = randomBytes(16).toString('hex');
    sessions.set(session, key);
    envelope(res, 401, 401, message, payload ?? { session, key });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // What a typical server does: percent-decoding with URLSearchParams.
    const params = [...url.searchParams] as Array<[string, string]>;
    const param = (name: string): string | undefined => params.find(([n]) => n === name)?.[1];
    const scenario = url.pathname
      .split('/')
      .pop()!
      .replace(/\.json$/, '');
    counts.set(scenario, (counts.get(scenario) ?? 0) + 1);
    // Stateful scenarios (flaky, rate limited) count per method, so GET and PUT tests are independent.
    const perMethod = `${req.method} ${scenario}`;
    const n = (counts.get(perMethod) ?? 0) + 1;
    counts.set(perMethod, n);
    requests.push({ method: req.method ?? '', path: url.pathname, params, headers: req.headers });

    if (url.pathname === '/login') {
      res.writeHead(200, {
        'set-cookie': [`${SESSION}; Path=/; HttpOnly`, 'theme=dark; Path=/'],
        'content-type': 'text/html',
      });
      res.end('<html>welcome</html>');
      return;
    }
    if (url.pathname.startsWith('/service/user-auth-token-generator/')) {
      if (scenario === 'forged-lines') {
        raw(res, 500, JSON.stringify({ status: false, message: FORGED_MESSAGE }));
        return;
      }
      if (!(req.headers.cookie ?? '').split(/;\s*/).includes(SESSION)) {
        raw(res, 401, JSON.stringify({ status: false, message: 'login required' }));
        return;
      }
      const now = 1795000000;
      raw(
        res,
        200,
        JSON.stringify({
          status: true,
          game_id: scenario,
          uid: EXTRA_FIELDS_USER.uid,
          token: 'f'.repeat(32),
          created_on: now,
          expires_on: now + 900,
          duration: 0.01,
        }),
      );
      return;
    }

    // A token refused in words that hold line breaks: `FORGED_TOKEN` as the auth_token.
    if (url.pathname.endsWith('/authenticate/user.json') && param('auth_token') === FORGED_TOKEN) {
      return envelope(res, 200, 200, FORGED_MESSAGE, null);
    }

    if (scenario.startsWith('agi')) {
      const sig = param('sig');
      const session = param('session');
      const signedN = counts.get(`signed ${scenario}`) ?? 0;
      if (sig === undefined || session === undefined) {
        const unsignedN = (counts.get(`unsigned ${scenario}`) ?? 0) + 1;
        counts.set(`unsigned ${scenario}`, unsignedN);
        if (scenario === 'agi-no-key')
          return envelope(res, 401, 401, 'signature required', { session: 'only-a-session' });
        // The connection cut before any reply: under a partner key (applied), or the first time
        // (a server that challenges, so nothing was applied; the client cannot tell which).
        if (scenario === 'agi-partner-lost' || (scenario === 'agi-unsigned-cut' && unsignedN === 1)) {
          req.socket.destroy();
          return;
        }
        // A partner key: the platform applies the change without asking for a signature.
        if (scenario === 'agi-partner')
          return envelope(res, 200, 200, 'OK', {
            method: req.method,
            params,
            contentType: req.headers['content-type'] ?? null,
            verified: false,
          });
        if (scenario === 'agi-unsigned-lost' && unsignedN === 1) {
          res.writeHead(401, { 'content-type': 'application/json', 'content-length': 200 });
          res.write('{"version":1,', () => req.socket.destroy());
          return;
        }
        return challenge(res, 'signature required');
      }
      counts.set(`signed ${scenario}`, signedN + 1);
      const key = sessions.get(session);
      sessions.delete(session);
      const query = params.filter(([n]) => n !== 'sig' && n !== 'session');
      const good = key !== undefined && signaturesEqual(agiSignature({ path: url.pathname, query, session, key }), sig);
      if (scenario === 'agi-loop' || !good)
        return challenge(res, key === undefined ? 'stale session' : 'bad signature');
      if (scenario === 'agi-lost') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 200 });
        res.write('{"version":1,"code":200,', () => req.socket.destroy());
        return;
      }
      if (scenario === 'agi-stale-once' && signedN === 0) return challenge(res, 'stale session');
      return envelope(res, 200, 200, 'OK', {
        method: req.method,
        params,
        contentType: req.headers['content-type'] ?? null,
        verified: true,
      });
    }

    // Signed requests: verify exactly as the sandbox must, then answer per scenario.
    let verified = false;
    if (param('signature') !== undefined) {
      const expected = hmacSha256Hex(PLATFORM_SECRET, canonicalString(req.method ?? '', url.pathname, params));
      if (!signaturesEqual(expected, param('signature') ?? '')) {
        envelope(res, 403, 403, 'bad signature', null);
        return;
      }
      verified = true;
    }

    switch (scenario) {
      case 'error-in-200':
        return envelope(res, 200, 404, 'not found: user error-in-200', null);
      case 'error-500-in-200':
        return envelope(res, 200, 500, 'internal error', null);
      case 'envelope-404':
        return envelope(res, 404, 404, 'not found: user envelope-404', null);
      case 'html-502':
        return raw(
          res,
          502,
          '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>',
          'text/html',
        );
      case 'truncated-200':
        return raw(res, 200, '{"version":1,"code":200,"message":"OK","payload":{"uid":"01234');
      case 'truncated-500':
        return raw(res, 500, '{"version":1,"code":500,"mess');
      case 'empty-404':
        res.writeHead(404, { 'content-length': 0 });
        return res.end();
      case 'empty-200':
        return raw(res, 200, '');
      case 'strings':
        return envelope(res, 200, '200', 'OK', EXTRA_FIELDS_USER);
      case 'rate-limited':
        return n === 1
          ? envelope(res, 429, 429, 'rate limited', null, { 'retry-after': '2' })
          : envelope(res, 200, 200, 'OK', {
              state: 'Started',
              current_value: 1,
              percent_complete: 10,
              developer_id: 'X',
              attempt: n,
            });
      case 'flaky-503':
        return n <= 2
          ? envelope(res, 503, 503, 'internal error', null)
          : envelope(res, 200, 200, 'OK', { uid: 'flaky-503', username: 'flaky', avatar: '', attempt: n });
      case 'reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 200 });
        res.write('{"version":1,"code":200,', () => req.socket.destroy());
        return;
      case 'hang':
        return; // never answers
      case 'friends':
      case 'friends-no-offset': {
        const limit = Number(param('limit') ?? 500);
        // friends-no-offset: a server that ignores `offset` and sends the first page every time.
        const offset = scenario === 'friends' ? Number(param('offset') ?? 0) : 0;
        const page = Array.from({ length: Math.max(0, Math.min(limit, FRIEND_COUNT - offset)) }, (_, i) => ({
          uid: String(offset + i).padStart(32, '0'),
          username: `friend${offset + i}`,
          avatar: '',
          plays_game: 0,
        }));
        return envelope(res, 200, 200, 'OK', page);
      }
      case 'null-payload':
        return envelope(res, 200, 200, 'OK', null);
      case 'indexed-list':
        return envelope(res, 200, 200, 'OK', { '1': { uid: 'b' }, '0': { uid: 'a' } });
      case 'escaped-products':
        // The documented reply's PHP-style escaped slashes, and every purchase.data seen.
        return raw(res, 200, ESCAPED_PRODUCTS_BODY);
      case 'forged-lines':
        return envelope(res, 400, 400, FORGED_MESSAGE, null);
      case 'forged-lines-no-user':
        return envelope(res, 200, 200, FORGED_MESSAGE, null);
      case 'echo':
        return envelope(res, 200, 200, 'OK', { method: req.method, params, verified });
      default:
        return envelope(res, 404, 404, `not found: ${scenario}`, null);
    }
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    hits: (scenario) => counts.get(scenario) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The awkward platform of a whole test file: started before its first test, closed after its last. */
export function fileAwkwardPlatform(): AwkwardPlatform {
  let started: AwkwardPlatform | undefined;
  beforeAll(async () => {
    started = await startAwkwardPlatform();
  });
  afterAll(() => started?.close());
  const platform = (): AwkwardPlatform => {
    if (!started) throw new Error("the awkward platform starts before the file's first test");
    return started;
  };
  return {
    get url() {
      return platform().url;
    },
    get requests() {
      return platform().requests;
    },
    hits: (scenario) => platform().hits(scenario),
    close: () => platform().close(),
  };
}
