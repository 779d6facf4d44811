/** The comparison's rules, as the issue states them: kinds, paths, what drifts, --ignore and --strict. */
import { describe, expect, it } from 'vitest';
import { compareReplies, type Rules } from '../../src/sandbox/diff/compare.js';

const rules: Rules = { strict: false, ignore: [], ownOrigin: 'http://own.invalid' };
const json = (payload: unknown, extra: Record<string, unknown> = {}) => ({
  status: 200,
  mimeType: 'application/json',
  text: JSON.stringify({ version: 1, code: 200, message: 'OK', payload, ...extra }),
});
const kinds = (a: unknown, b: unknown, r: Rules = rules) =>
  compareReplies(json(a), json(b), r).map((f) => `${f.kind} ${f.at}`);

describe('compareReplies', () => {
  it('a JSON type that differs is `type`: number vs numeric string, boolean vs 0/1, null vs a value, object vs array', () => {
    expect(kinds({ a: 1, b: true, c: null, d: {} }, { a: '1', b: 1, c: 'x', d: [] })).toEqual([
      'type payload.a',
      'type payload.b',
      'type payload.c',
      'type payload.d',
    ]);
  });

  it('a field only in the recording is `missing`, only in the sandbox `extra`; a value `value`', () => {
    expect(kinds({ a: 1, gone: 2 }, { a: 3, added: 4 })).toEqual([
      'value payload.a',
      'missing payload.gone',
      'extra payload.added',
    ]);
  });

  it('[] stands for any element, one difference per path however many elements differ', () => {
    const recorded = [1, 2, 3].map((n) => ({ developer_id: `Q${n}`, percent_complete: String(n) }));
    const sandbox = [3, 1, 2].map((n) => ({ developer_id: `Q${n}`, percent_complete: n }));
    expect(kinds(recorded, sandbox)).toEqual(['type payload[].percent_complete']);
    expect(kinds([{ product: { sku: 'a', price: '1.00' } }], [{ product: { sku: 'a', price: '2.00' } }])).toEqual([
      'value payload[].product.price',
    ]);
  });

  it('when the format differs, that is the one difference of the body', () => {
    const xml = { status: 200, mimeType: 'text/xml', text: '<?xml version="1.0"?><response/>' };
    expect(compareReplies(xml, json({ a: 1 }), rules).map((f) => [f.kind, f.recorded, f.sandbox])).toEqual([
      ['format', 'xml', 'json'],
    ]);
    const empty = { status: 502, mimeType: 'text/html', text: '' };
    expect(compareReplies(empty, json(null), rules).map((f) => f.kind)).toEqual(['status', 'format']);
  });

  it('drifting values are not differences: dates of the same format, sessions, tokens, own URLs, ids; a changed date format is', () => {
    expect(
      kinds(
        {
          started_date: '2019-01-01 00:00:00',
          created_on: '1559381400',
          session: 'a',
          key: 'b',
          auth_token: 'c',
          id: 4,
          avatar: 'https://cdn/x.png',
        },
        {
          started_date: '2026-11-25 13:00:00',
          created_on: '1795612285',
          session: 'x',
          key: 'y',
          auth_token: 'z',
          id: 9,
          avatar: 'http://own.invalid/avatars/u.svg',
        },
      ),
    ).toEqual([]);
    expect(kinds({ completed_date: '2019-01-01T00:00:00Z' }, { completed_date: '2019-01-01 00:00:00' })).toEqual([
      'value payload.completed_date',
    ]);
    expect(kinds({ created_on: 1559381400 }, { created_on: '1559381400' })).toEqual(['type payload.created_on']);
    // A save's key is not a challenge's key: it is compared.
    expect(kinds({ key: 'slot1', success: 1 }, { key: 'slot2', success: 1 })).toEqual(['value payload.key']);
  });

  it('--strict compares everything; --ignore drops a path and what is below it', () => {
    expect(
      kinds(
        { session: 'a', started_date: '2019-01-01 00:00:00' },
        { session: 'b', started_date: '2020-01-01 00:00:00' },
        { ...rules, strict: true },
      ),
    ).toEqual(['value payload.session', 'value payload.started_date']);
    expect(
      kinds({ a: { b: 1, c: 2 }, d: 1 }, { a: { b: 2, c: 3 }, d: 2 }, { ...rules, ignore: ['payload.a'] }),
    ).toEqual(['value payload.d']);
    expect(kinds([{ uid: 'u', x: 1 }], [{ uid: 'u', x: 2 }], { ...rules, ignore: ['payload[].x'] })).toEqual([]);
  });
});

describe('schemaFindings: the recorded reply against the sandbox description', () => {
  const uid = 'c3323c76c063636c91d2e8cb8f4dfcaf';
  /** A recorded GET of `path` (below /services/rest/v1/) whose reply's payload is `payload`. */
  const recordedGet = (path: string, query: Array<[string, string]>, payload: unknown) => ({
    index: 0,
    host: 'p.example',
    method: 'GET',
    path: `/services/rest/v1/${path}`,
    query,
    body: [],
    reply: { ...json(payload), recorded: true },
  });

  it("names each path the recorded payload breaks, with the description's word", async () => {
    const { schemaFindings } = await import('../../src/sandbox/diff/schema-check.js');
    const found = schemaFindings(
      recordedGet(`users/${uid}.json`, [['api_key', 'k']], {
        uid,
        username: 'x',
        avatar: 'a',
        premium: 0,
        country: 'FI',
      }),
    );
    expect(found.map((f) => `${f.kind} ${f.at}`).sort()).toEqual(['schema payload.country', 'schema payload.premium']);
    expect(found.find((f) => f.at === 'payload.premium')).toMatchObject({
      recorded: 0,
      sandbox: expect.stringMatching(/boolean/),
    });
  });

  it('one cause, one difference: a field of the wrong type inside a value of several shapes is reported at that field alone', async () => {
    const { schemaFindings } = await import('../../src/sandbox/diff/schema-check.js');
    const products = (data: unknown, explained: string[] = []) =>
      schemaFindings(
        recordedGet(
          `products/user/${uid}.json`,
          [
            ['api_key', 'k'],
            ['game_id', '1001'],
          ],
          [{ product: { sku: 'gold-pack_10', type: 'consumable', data }, purchase: { success: true, data: 30 } }],
        ),
        explained,
      ).filter((f) => f.at.startsWith('payload[].product.data'));
    // The comparison reported `type` at consumable_qty: nothing more here, and no "must be array" on its parent.
    expect(products({ consumable_qty: '10' }, ['payload[].product.data.consumable_qty'])).toEqual([]);
    // Without the comparison's finding, the description's own, at the field alone.
    expect(products({ consumable_qty: '10' }).map((f) => f.at)).toEqual(['payload[].product.data.consumable_qty']);
    // Nothing inside explains a data that is neither shape: one finding, naming both shapes.
    const neither = products(10);
    expect(neither.map((f) => f.at)).toEqual(['payload[].product.data']);
    expect(neither[0]!.sandbox).toMatch(/must be array or must be object/);
  });
});
