/**
 * Issue 40, 7 over HTTP: an hmac-sha256-v1 signature is good for one request on every sandbox
 * of one database (two servers, each with its own connection, as two processes have), moving
 * the clock back revives none, identical changes with distinct nonces both count, a client
 * without nonces gets one request per distinct parameters per second, and a change refused by
 * its handler has still used its signature.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { buildApp } from '../../src/sandbox/app.js';
import { openDatabase, type SandboxDatabase } from '../../src/sandbox/database.js';
import { KEEP_SECONDS } from '../../src/sandbox/http/used-signatures.js';
import { api, call, freshNonce, sign, signedApi, type Params, type TestSandbox } from './helpers/sandbox.js';

const bob = uidForUsername('bob');
const PRODUCTS = `/products/user/${bob}.json`;
const FULL = `${API_PREFIX}${PRODUCTS}`;
const give = (sku: string): Params => [
  ['parent_id', '1001'],
  ['sku', sku],
  ['qty', '1'],
  ['increment', 'true'],
];

let sb: TestSandbox;
/** A second sandbox on the same database file: its own connection and its own memory, as another process. */
let other: { url: string; app: FastifyInstance; db: SandboxDatabase };
beforeAll(async ({ sb: fileSb }) => {
  sb = fileSb;
  const db = openDatabase(sb.db.path);
  const app = buildApp({ db, nowMs: () => sb.clock.ms });
  await app.listen({ port: 0, host: '127.0.0.1' });
  other = { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, app, db };
});
afterAll(async () => {
  await other?.app.close();
  other?.db.close();
});

const held = async (sku: string): Promise<number> =>
  (
    await api<Array<{ purchase: { data: number } }>>(sb.url, 'GET', PRODUCTS, [
      ['parent_id', '1001'],
      ['sku', sku],
    ])
  ).body.payload?.[0]?.purchase.data ?? 0;
const now = (): number => Math.floor(sb.clock.ms / 1000);
/** A signed give as a client would capture it: the same parameters sent again are a replay. */
const captured = (sku: string, options: { nonce?: string | false; timestamp?: number } = {}): Params => {
  const nonce: Params = options.nonce === false ? [] : [['nonce', options.nonce ?? freshNonce()]];
  return sign(
    'PUT',
    FULL,
    [['api_key', DEMO.game.apiKey], ...give(sku), ...nonce],
    DEMO.game.signingSecret,
    options.timestamp ?? now(),
  );
};

describe('one signature, one request, on every sandbox of the database', () => {
  it('a signed give accepted by one sandbox is refused by the other: granted once', async () => {
    const before = await held('gems');
    const request = captured('gems');
    const first = await call(sb.url, 'PUT', FULL, request);
    expect(first.status, first.text).toBe(200);
    const replay = await call(other.url, 'PUT', FULL, request);
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({
      code: 401,
      message: expect.stringMatching(/^signature already used \(hmac-sha256-v1/),
      payload: null,
    });
    // And the other way round.
    const second = captured('gems');
    expect((await call(other.url, 'PUT', FULL, second)).status).toBe(200);
    expect((await call(sb.url, 'PUT', FULL, second)).status).toBe(401);
    expect(await held('gems')).toBe(before + 2);
  });

  it('identical signed changes with distinct nonces both count, in the same second, on either sandbox', async () => {
    const before = await held('xp-boost');
    const at = now();
    const replies = await Promise.all([
      call(sb.url, 'PUT', FULL, captured('xp-boost', { timestamp: at })),
      call(other.url, 'PUT', FULL, captured('xp-boost', { timestamp: at })),
      call(sb.url, 'PUT', FULL, captured('xp-boost', { timestamp: at })),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await held('xp-boost')).toBe(before + 3);
  });

  it('a client without nonces: one request per distinct parameters per second', async () => {
    const before = await held('gems');
    const at = now();
    expect((await call(sb.url, 'PUT', FULL, captured('gems', { nonce: false, timestamp: at }))).status).toBe(200);
    const again = await call(other.url, 'PUT', FULL, captured('gems', { nonce: false, timestamp: at }));
    expect(again.status).toBe(401);
    expect(again.body.message).toMatch(/^signature already used .*with a new nonce\)$/);
    // Another second is another signature.
    expect((await call(sb.url, 'PUT', FULL, captured('gems', { nonce: false, timestamp: at + 1 }))).status).toBe(200);
    expect(await held('gems')).toBe(before + 2);
  });

  it('a nonce of the wrong shape is a 400 naming it; nothing changes', async () => {
    const before = await held('gems');
    for (const nonce of ['short', 'x'.repeat(65), 'has space in it 0123', 'dot.is.not.allowed.0123']) {
      const r = await call(sb.url, 'PUT', FULL, captured('gems', { nonce }));
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^invalid parameter: nonce/);
    }
    expect(await held('gems')).toBe(before);
  });

  it('a change its handler refuses (409) has still used its signature: the replay is refused as used', async () => {
    const take: Params = [
      ['parent_id', '1001'],
      ['sku', 'never-held'],
      ['qty', '5'],
      ['decrement', 'true'],
    ];
    const request = sign(
      'PUT',
      FULL,
      [['api_key', DEMO.game.apiKey], ...take, ['nonce', freshNonce()]],
      DEMO.game.signingSecret,
      now(),
    );
    const refused = await call(sb.url, 'PUT', FULL, request);
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.body.message).not.toMatch(/signature/);
    const replay = await call(other.url, 'PUT', FULL, request);
    expect(replay.status).toBe(401);
    expect(replay.body.message).toMatch(/^signature already used/);
  });
});

describe('the clock moved back', () => {
  it('revives no used signature: not while the row is kept, nor once real time has swept it', async () => {
    const before = await held('gems');
    const signedAt = now();
    const request = captured('gems', { timestamp: signedAt });
    expect((await call(sb.url, 'PUT', FULL, request)).status).toBe(200);

    // The virtual clock forward past the window and back: refused (the row is kept by real time).
    // Each sandbox has a clock of its own (a process's): both are moved.
    const setClock = async (iso: string) => {
      for (const url of [sb.url, other.url]) {
        const r = await fetch(`${url}/_sandbox/clock`, {
          method: 'POST',
          body: `set=${encodeURIComponent(iso)}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(r.status).toBe(200);
      }
    };
    await setClock(new Date((signedAt + 3600) * 1000).toISOString());
    await setClock(new Date(signedAt * 1000).toISOString());
    expect((await call(other.url, 'PUT', FULL, request)).body.message).toMatch(/^signature already used/);
    expect((await call(sb.url, 'PUT', FULL, request)).body.message).toMatch(/^signature already used/);

    // Real time passes beyond the keeping time (the clock under the virtual one); a signed change sweeps the row.
    sb.clock.advance(KEEP_SECONDS + 2);
    expect((await signedApi(sb, 'PUT', PRODUCTS, give('xp-boost'))).status).toBe(200);
    expect(sb.db.repos.usedSignatures.count()).toBeGreaterThan(0);
    const swept = sb.db.sqlite
      .prepare('SELECT count(*) AS n FROM used_signatures WHERE timestamp = ?')
      .get(signedAt) as { n: number };
    expect(swept.n).toBe(0);
    // Then the clock set back onto the signature's second: still refused, on both sandboxes.
    await setClock(new Date(signedAt * 1000).toISOString());
    for (const url of [sb.url, other.url]) {
      const replay = await call(url, 'PUT', FULL, request);
      expect(replay.status).toBe(401);
      expect(replay.body.message).toMatch(
        /^signature already used \(hmac-sha256-v1: the signatures of this timestamp's seconds were forgotten/,
      );
    }
    expect(await held('gems')).toBe(before + 1);
    await setClock('now');
  });
});
