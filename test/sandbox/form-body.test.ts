/**
 * Parameters in the query or a form body (contract): a field of an
 * application/x-www-form-urlencoded body is a parameter exactly as if it were in the query, on
 * every endpoint (`method`, `decrement`, `qty` included), and one of the signed values under both
 * schemes; the same name with two different values is refused and changes nothing; a POST with a
 * body of another type is 415.
 */
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { agiSignature } from '../../src/domain/agi-signing.js';
import { canonicalString, hmacSha256Hex } from '../../src/domain/signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX, type ProductEntry } from '../../src/domain/types.js';
import { api, call, queryString, type Params, type TestSandbox } from './helpers/sandbox.js';

type Challenge = { session: string; key: string };

const PATH = `${API_PREFIX}/products/user/${DEMO.user.uid}.json`;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

let sb: TestSandbox;
beforeAll(({ sb: fileSb }) => {
  sb = fileSb;
});

function post<T = unknown>(query: Params, body: Params | string, headers: Record<string, string> = FORM) {
  return call<T>(sb.url, 'POST', PATH, query, { headers, body: typeof body === 'string' ? body : queryString(body) });
}

/** Units of `gems` the demo player holds (the demo data starts at 250). */
async function gemsHeld(): Promise<number> {
  const r = await api<ProductEntry[]>(sb.url, 'GET', `/products/user/${DEMO.user.uid}.json`, [
    ['parent_id', '1001'],
    ['sku', 'gems:100'],
  ]);
  expect(r.status, r.body.message).toBe(200);
  return Number(r.body.payload![0]!.purchase.data);
}

describe('form-body fields are parameters', () => {
  it('the signed take with method, decrement and qty in the body and the rest in the query (agi signs the body values)', async () => {
    const before = await gemsHeld();
    const query: Params = [
      ['api_key', DEMO.game.apiKey],
      ['parent_id', '1001'],
      ['sku', 'gems:100'],
    ];
    const body: Params = [
      ['method', 'put'],
      ['decrement', 'true'],
      ['qty', '1'],
    ];
    const first = await post<Challenge>(query, body);
    expect(first.status, first.body.message).toBe(401);
    expect(first.body.message).toBe('signature required');
    const challenge = first.body.payload!;

    // A signature over the query alone (the body's values left out) is refused, and nothing changes.
    const withoutBody = agiSignature({ ...challenge, path: PATH, query });
    const refused = await post<Challenge>([...query, ['session', challenge.session], ['sig', withoutBody]], body);
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(/^bad signature/);
    expect(await gemsHeld()).toBe(before);

    const fresh = refused.body.payload!;
    const sig = agiSignature({ ...fresh, path: PATH, query, body });
    const r = await post<ProductEntry>([...query, ['session', fresh.session], ['sig', sig]], body);
    expect(r.status, r.body.message).toBe(200);
    expect(r.body.payload!.purchase.data).toBe(before - 1);
    expect(await gemsHeld()).toBe(before - 1);
  });

  it('a name in the query and the body with different values is 400 ambiguous, and nothing changes', async () => {
    const before = await gemsHeld();
    const r = await post(
      [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'gems:100'],
        ['qty', '5'],
      ],
      [['qty', '7']],
    );
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({
      code: 400,
      payload: null,
      message: 'ambiguous parameter: qty (query and body differ)',
    });
    expect(await gemsHeld()).toBe(before);
  });

  it('the same value in the query and the body is accepted and counts once', async () => {
    const before = await gemsHeld();
    const r = await post<ProductEntry>(
      [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'gems'],
        ['qty', '3'],
      ],
      [
        ['qty', '3'],
        ['sku', 'gems'],
      ],
    );
    expect(r.status, r.body.message).toBe(200);
    expect(await gemsHeld()).toBe(before + 3);
  });

  it('a read takes its parameters from a form body too (a POST with method=get)', async () => {
    const r = await post<ProductEntry[]>(
      [['api_key', DEMO.game.apiKey]],
      [
        ['method', 'get'],
        ['parent_id', '1001'],
        ['sku', 'sword-of-dawn'],
      ],
    );
    expect(r.status, r.body.message).toBe(200);
    expect(r.body.payload!.map((e) => e.product.sku)).toEqual(['sword-of-dawn']);
  });

  it('a body value may be longer than a query value; the query keeps its own limit', async () => {
    const long = 'x'.repeat(5000);
    const inQuery = await post(
      [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'gems'],
        ['qty', '1'],
        ['note', long],
      ],
      '',
    );
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.message).toBe('invalid parameter: note (longer than 1024 characters)');
    const inBody = await post(
      [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'gems'],
        ['qty', '1'],
      ],
      [['note', long]],
    );
    expect(inBody.status, inBody.body.message).toBe(200);
  });

  it('a POST with a JSON (or any other non-form) body is 415, and nothing changes', async () => {
    const before = await gemsHeld();
    const query: Params = [
      ['api_key', DEMO.game.apiKey],
      ['parent_id', '1001'],
      ['sku', 'gems'],
      ['qty', '1'],
    ];
    const json = await post(query, JSON.stringify({ qty: 2 }), { 'content-type': 'application/json' });
    expect(json.status).toBe(415);
    expect(json.body).toMatchObject({ code: 415, payload: null });
    expect(json.body.message).toBe(
      'unsupported content type: application/json (parameters go in the query or an application/x-www-form-urlencoded body)',
    );
    const text = await post(query, 'qty=2', { 'content-type': 'text/plain' });
    expect(text.status).toBe(415);
    expect(text.body.message).toMatch(/^unsupported content type: text\/plain /);
    expect(await gemsHeld()).toBe(before);
    // An empty body of any type reads as no body.
    const empty = await post(query, '', { 'content-type': 'application/json' });
    expect(empty.status, empty.body.message).toBe(200);
  });

  it('hmac-sha256-v1 signs the body fields with the query: a body field changed in transit is a bad signature', async () => {
    const before = await gemsHeld();
    const timestamp = String(Math.floor(sb.clock.ms / 1000));
    const query: Params = [
      ['api_key', DEMO.game.apiKey],
      ['parent_id', '1001'],
      ['sku', 'gems'],
      ['timestamp', timestamp],
    ];
    const body: Params = [
      ['method', 'put'],
      ['increment', 'true'],
      ['qty', '2'],
    ];
    const signature = hmacSha256Hex(DEMO.game.signingSecret, canonicalString('POST', PATH, [...query, ...body]));
    // The canonical string's method is the override, found in the body.
    expect(canonicalString('POST', PATH, [...query, ...body]).startsWith('PUT\n')).toBe(true);

    const tampered = await post(
      [...query, ['signature', signature]],
      [
        ['method', 'put'],
        ['increment', 'true'],
        ['qty', '200'],
      ],
    );
    expect(tampered.status).toBe(403);
    expect(tampered.body.message).toMatch(/^bad signature \(hmac-sha256-v1: .*qty=200/);
    expect(await gemsHeld()).toBe(before);

    const queryOnly = hmacSha256Hex(DEMO.game.signingSecret, canonicalString('POST', PATH, query));
    const unsignedBody = await post([...query, ['signature', queryOnly]], body);
    expect(unsignedBody.status).toBe(403);

    const r = await post<ProductEntry>([...query, ['signature', signature]], body);
    expect(r.status, r.body.message).toBe(200);
    expect(await gemsHeld()).toBe(before + 2);
  });
});
