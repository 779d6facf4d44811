/**
 * The virtual clock over real HTTP (issue 11): /_sandbox/clock shows and moves the sandbox's
 * time, and every expiry follows it without waiting: tokens, site sessions, agi challenges and
 * the hmac timestamp window. Refused for a foreign Host.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX, type TokenRecord } from '../../src/domain/types.js';
import { api, call, exactRequest, signedApi, type Params, type TestSandbox } from './helpers/sandbox.js';

const START = Date.UTC(2030, 0, 1, 12, 0, 0);
let sb: TestSandbox;

/**
 * One sandbox for the tests of a describe that move only the clock: each starts at START with no
 * offset (the real clock put back, then the route's own reset), as a fresh one would.
 */
function oneSandboxAtStart(): void {
  let shared: TestSandbox;
  beforeAll(async ({ newSb }) => {
    shared = await newSb({ startMs: START });
  });
  beforeEach(async () => {
    sb = shared;
    sb.clock.ms = START;
    expect((await clock('POST', 'reset=1')).body).toMatchObject({ offset_seconds: 0 });
  });
}

interface ClockReply {
  now: string;
  unix: number;
  offset_seconds: number;
  moved_seconds?: number;
  note?: string;
}

async function clock(
  method: 'GET' | 'POST' = 'GET',
  query = '',
  body?: string,
): Promise<{ status: number; body: ClockReply & { message?: string } }> {
  const r = await fetch(`${sb.url}/_sandbox/clock${query ? `?${query}` : ''}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
  });
  return { status: r.status, body: (await r.json()) as ClockReply };
}

/** demo_player's LEVEL_10 progress, signed with the hmac timestamp given. */
const levelProgress = (progress: string, timestamp: number) =>
  signedApi(
    sb,
    'PUT',
    `/achievements/user/${DEMO.user.uid}.json`,
    [
      ['type', 'Game'],
      ['pid', '1001'],
      ['developer_id', 'LEVEL_10'],
      ['progress', progress],
    ],
    { timestamp },
  );

async function token(): Promise<TokenRecord> {
  const login = await fetch(`${sb.url}/login?username=demo_player`, { method: 'POST' });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const r = await fetch(`${sb.url}/service/user-auth-token-generator/${DEMO.game.id}`, { headers: { cookie } });
  expect(r.status).toBe(200);
  return (await r.json()) as TokenRecord;
}

const authenticate = (t: TokenRecord) =>
  api(sb.url, 'GET', '/authenticate/user.json', [
    ['user_id', t.uid],
    ['auth_token', t.token],
  ]);

describe('/_sandbox/clock', () => {
  oneSandboxAtStart();
  it('shows the time, and advance moves it forward (s, m, h, d or plain seconds; query or form body)', async () => {
    expect(await clock()).toEqual({
      status: 200,
      body: { now: '2030-01-01T12:00:00.000Z', unix: START / 1000, offset_seconds: 0 },
    });
    expect((await clock('POST', 'advance=901s')).body).toEqual({
      now: '2030-01-01T12:15:01.000Z',
      unix: START / 1000 + 901,
      offset_seconds: 901,
      moved_seconds: 901,
    });
    expect((await clock('POST', '', 'advance=1h')).body).toMatchObject({ offset_seconds: 4501, moved_seconds: 3600 });
    expect((await clock('POST', 'advance=99')).body).toMatchObject({ offset_seconds: 4600 });
    // The real clock goes on under the offset.
    sb.clock.advance(10);
    expect((await clock()).body).toMatchObject({ now: '2030-01-01T13:16:50.000Z', offset_seconds: 4600 });
  });

  it('set puts it at a date-time, backwards too, and says so', async () => {
    expect((await clock('POST', `set=${encodeURIComponent('2031-06-01T00:00:00Z')}`)).body).toMatchObject({
      now: '2031-06-01T00:00:00.000Z',
    });
    const back = await clock('POST', '', 'set=2029-12-31T12:00:00Z');
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ now: '2029-12-31T12:00:00.000Z', offset_seconds: -86_400 });
    expect(back.body.moved_seconds).toBeLessThan(0);
    expect(back.body.note).toMatch(/^the clock went back \d+ s/);
  });

  it('reset (or set=now) puts it back on the real clock (issue 23)', async () => {
    await clock('POST', 'advance=1d');
    expect((await clock('POST', '', 'reset=1')).body).toMatchObject({
      now: new Date(START).toISOString(),
      offset_seconds: 0,
      moved_seconds: -86_400,
    });
    await clock('POST', 'advance=60s');
    expect((await clock('POST', 'set=now')).body).toMatchObject({
      now: new Date(START).toISOString(),
      offset_seconds: 0,
    });
    expect((await clock('POST', 'reset=1&advance=1s')).status).toBe(400);
  });

  it.for<[string, RegExp]>([
    ['advance=5x', /invalid duration "5x"/],
    ['set=notadate', /invalid date-time "notadate"/],
    ['advance=1s&set=2030-01-01', /give advance .* or set/],
    ['', /give advance .* or set/],
  ])('refuses %j with a 400 that names it, and leaves the clock alone', async ([query, message]) => {
    const r = await clock('POST', query);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ status: false, code: 400, message: expect.stringMatching(message) });
    expect((await clock()).body.offset_seconds).toBe(0);
  });

  it('refuses a request addressed to another host (and does not move)', async () => {
    const { port } = new URL(sb.url);
    for (const method of ['GET', 'POST']) {
      const r = await exactRequest(sb.url, method, '/_sandbox/clock?advance=901s', { host: `rebound.example:${port}` });
      expect(r.status).toBe(403);
    }
    expect((await clock()).body.offset_seconds).toBe(0);
  });

  it("refuses a change posted from another site's page (its Origin), and takes one from its own", async () => {
    const post = (origin: string) =>
      fetch(`${sb.url}/_sandbox/clock`, {
        method: 'POST',
        body: 'advance=60s',
        headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      });
    for (const origin of ['https://evil.example', 'null']) {
      const r = await post(origin);
      expect(r.status).toBe(403);
      expect(((await r.json()) as { message: string }).message).toMatch(/another site/);
    }
    expect((await clock()).body.offset_seconds).toBe(0);
    expect((await post(sb.url)).status).toBe(200);
    expect((await clock()).body.offset_seconds).toBe(60);
  });
});

describe('expiry follows the virtual clock', () => {
  // Tokens, sessions, challenges and used signatures are kept by the sandbox: one of its own for each.
  afterEach(async () => {
    await sb.close();
  });
  it('a token expires after advance 901s (900 s lifetime), without waiting', async ({ newSb }) => {
    sb = await newSb();
    const t = await token();
    expect((await authenticate(t)).body.payload).toMatchObject({ uid: DEMO.user.uid });
    await clock('POST', 'advance=899s');
    expect((await authenticate(t)).body.payload).toMatchObject({ uid: DEMO.user.uid });
    await clock('POST', 'advance=2s');
    expect((await authenticate(t)).body).toMatchObject({ code: 200, message: 'token expired', payload: null });
  });

  it('a token issued at the virtual time carries it: created_on and expires_on', async ({ newSb }) => {
    sb = await newSb({ startMs: START });
    await clock('POST', 'advance=1d');
    const t = await token();
    expect(t.created_on).toBe(START / 1000 + 86_400);
    expect(t.expires_on).toBe(START / 1000 + 86_400 + 900);
  });

  it('an agi challenge expires after advance 301s', async ({ newSb }) => {
    sb = await newSb();
    const path = `${API_PREFIX}/achievements/user/${DEMO.user.uid}.json`;
    const query: Params = [
      ['api_key', DEMO.secondGame.apiKey],
      ['type', 'Game'],
      ['pid', DEMO.secondGame.id],
      ['developer_id', 'NOPE'],
      ['reset', '1'],
    ];
    const first = await call<{ session: string; key: string }>(sb.url, 'PUT', path, query);
    expect(first.status).toBe(401);
    const challenge = first.body.payload!;
    await clock('POST', 'advance=301s');
    const signed: Params = [
      ...query,
      ['session', challenge.session],
      ['sig', agiSignature({ ...challenge, path, query })],
    ];
    const r = await call(sb.url, 'PUT', path, signed);
    expect(r.status).toBe(401);
    expect(r.body.message).toMatch(/^stale session/);
  });

  it('the hmac timestamp window is measured against the virtual clock', async ({ newSb }) => {
    sb = await newSb();
    const put = (timestamp: number) => levelProgress('0.5', timestamp);
    const signedAt = Math.floor(sb.clock.ms / 1000);
    expect((await put(signedAt)).status).toBe(200);
    await clock('POST', 'advance=301s');
    // Signed at the same second again: the clock, not the used signature, refuses it first.
    const r = await put(signedAt);
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('stale timestamp: 301 s from the server clock (window 300 s)');
  });

  it('a site session ends after a day of virtual time', async ({ newSb }) => {
    sb = await newSb();
    const login = await fetch(`${sb.url}/login?username=demo_player`, { method: 'POST' });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const generate = () =>
      fetch(`${sb.url}/service/user-auth-token-generator/${DEMO.game.id}`, { headers: { cookie } });
    expect((await generate()).status).toBe(200);
    await clock('POST', 'advance=86401s');
    expect((await generate()).status).toBe(401);
  });
});

describe('the clock keeps to years 1970-9999 (issue 21)', () => {
  oneSandboxAtStart();
  const LAST = '9999-12-31T23:59:59.999Z';

  it.for<[string, string[], RegExp]>([
    [
      'set=9999-12-31T23:59:59Z then advance=3650d',
      ['set=9999-12-31T23%3A59%3A59Z', 'advance=3650d'],
      /cannot go after 9999-12-31T23:59:59Z/,
    ],
    [
      'set=9999-12-31T23:59:59-01:00',
      ['set=9999-12-31T23%3A59%3A59-01%3A00'],
      /after 9999-12-31T23:59:59Z: the sandbox's clock runs from 1970/,
    ],
    [
      'set=1969-12-31T23:59:59Z',
      ['set=1969-12-31T23%3A59%3A59Z'],
      /before 1970-01-01T00:00:00Z: the sandbox's clock runs from 1970/,
    ],
  ])('%s: the move out of range is a 400 naming the bound, and the clock stays', async ([, moves, message]) => {
    for (const move of moves.slice(0, -1)) expect((await clock('POST', move)).status).toBe(200);
    const before = (await clock()).body;
    const r = await clock('POST', moves.at(-1)!);
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(message);
    expect((await clock()).body).toEqual(before);
  });

  it('many advances stop at the bound with a 400, never a bare 500', async () => {
    // From the year 9000: a hundred advances of ten years reach the bound (from 2030, 800 did).
    sb.clock.ms = Date.UTC(9000, 0, 1);
    const statuses: number[] = [];
    for (let i = 0; i < 900; i++) {
      const r = await clock('POST', 'advance=3650d');
      statuses.push(r.status);
      if (r.status !== 200) {
        expect(r.body).toMatchObject({
          status: false,
          code: 400,
          message: expect.stringMatching(/cannot go after 9999-12-31T23:59:59Z/),
        });
        break;
      }
    }
    expect(statuses.at(-1)).toBe(400);
    expect(statuses.length).toBeGreaterThan(90);
    expect(statuses.length).toBeLessThan(900);
    const now = (await clock()).body;
    expect(now.now.startsWith('99')).toBe(true);
    expect(now.now).toMatch(/^\d{4}-/);
  });

  it('set to the last moment, the clock stops there while the real one goes on; writes then are kept and read back', async () => {
    expect((await clock('POST', 'set=9999-12-31T23%3A59%3A59.999Z')).body.now).toBe(LAST);
    sb.clock.advance(3600);
    expect((await clock()).body.now).toBe(LAST);
    const lastSecond = Math.floor(Date.parse(LAST) / 1000);
    const progress = await levelProgress('1', lastSecond);
    expect(progress.status).toBe(200);
    const t = await token();
    expect(t.created_on).toBe(lastSecond);
    // Back to an ordinary date: the user's list still reads (the stored date is a date).
    await clock('POST', 'set=2030-01-01T00%3A00%3A00Z');
    const list = await api<Array<{ developer_id: string; completed_date: string | null }>>(
      sb.url,
      'GET',
      `/achievements/user/${DEMO.user.uid}.json`,
    );
    expect(list.status).toBe(200);
    expect(list.body.payload!.find((a) => a.developer_id === 'LEVEL_10')?.completed_date).toBe('9999-12-31 23:59:59');
  });
});
