/**
 * The signature explainer (issue 11): a refused signature's message says what the sandbox
 * computed and from what — under agi the sorted values and the string it joined, under hmac the
 * canonical string — and which parameters it saw; never the signing secret, never a whole api_key
 * or signature. The explanation tells the truth: the signature recomputed from it (with the
 * secret put back) is the one the sandbox expected. Real HTTP on port 0.
 */
import { createHash, randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { AGI_STATIC_SECRET, agiSignature } from '../../src/domain/agi-signing.js';
import { DEMO } from '../../src/domain/demo.js';
import { hmacSha256Hex } from '../../src/domain/signing.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { redact } from '../../src/redact.js';
import { until } from '../until.js';
import { call, sign, type Params, type TestSandbox } from './helpers/sandbox.js';

const KEY = DEMO.game.apiKey;
const PLAYER = DEMO.user.uid;
const PRODUCTS = `${API_PREFIX}/products/user/${PLAYER}.json`;
const GIVE: Params = [
  ['api_key', KEY],
  ['parent_id', '1001'],
  ['sku', 'gold-pack_10'],
  ['increment', 'true'],
  ['qty', '2'],
];

let sb: TestSandbox;
let output = '';
beforeAll(async ({ newSb }) => {
  sb = await newSb({ requestLines: (text) => (output += text) });
});

function expectNoSecrets(text: string, alsoHidden: string[] = []): void {
  for (const secret of [KEY, DEMO.game.signingSecret, ...alsoHidden]) expect(text).not.toContain(secret);
}

describe('hmac-sha256-v1: a refused signature shows the canonical string', () => {
  it('the message keeps "bad signature" first, then the canonical string and the parameters, secrets redacted', async () => {
    const now = Math.floor(sb.clock.ms / 1000);
    const wrong = sign('PUT', PRODUCTS, GIVE, 'not-the-secret', now);
    const sent = wrong.find(([n]) => n === 'signature')![1];
    const r = await call(sb.url, 'PUT', PRODUCTS, wrong);
    expect(r.status).toBe(403);
    const { message } = r.body;
    expect(message).toMatch(/^bad signature \(hmac-sha256-v1: /);
    expect(message).toContain(
      `canonical string PUT\\n${PRODUCTS}\\napi_key=${redact(KEY)}&increment=true&parent_id=1001&qty=2&sku=gold-pack_10&timestamp=${now};`,
    );
    expect(message).toContain(
      `parameters seen api_key=${redact(KEY)}, parent_id=1001, sku=gold-pack_10, increment=true, qty=2, timestamp=${now}, signature=${redact(sent)})`,
    );
    expect(message).not.toContain('\n');
    expectNoSecrets(message, [sent]);
  });

  it('tells the truth: HMAC of the explained string (api_key and secret put back) is accepted as the signature', async () => {
    const now = Math.floor(sb.clock.ms / 1000);
    const query: Params = [...GIVE.slice(0, 4), ['qty', '3'], ['timestamp', String(now)]];
    const r = await call(sb.url, 'PUT', PRODUCTS, [...query, ['signature', 'ab'.repeat(32)]]);
    expect(r.status).toBe(403);
    const explained = /canonical string (\S+);/.exec(r.body.message)![1]!;
    const canonical = explained.replaceAll('\\n', '\n').replace(redact(KEY), KEY);
    const signature = hmacSha256Hex(DEMO.game.signingSecret, canonical);
    const retry = await call(sb.url, 'PUT', PRODUCTS, [...query, ['signature', signature]]);
    expect(retry.status, retry.body.message).toBe(200);
  });

  it('with the method override, the canonical string starts with the effective method', async () => {
    const now = Math.floor(sb.clock.ms / 1000);
    const r = await call(sb.url, 'POST', PRODUCTS, [
      ...GIVE,
      ['method', 'put'],
      ['timestamp', String(now)],
      ['signature', '00'],
    ]);
    expect(r.status).toBe(403);
    expect(r.body.message).toContain(`canonical string PUT\\n${PRODUCTS}\\napi_key=`);
    expect(r.body.message).toContain('&method=put&');
  });

  it('the log line says it in a few words', async () => {
    // The log hands its lines over in batches, a few milliseconds after the requests.
    const refusals = await until(() => {
      const found = output.split('\n').filter((line) => / 403 [\d.]+ms bad signature \(hmac-sha256-v1\)$/.test(line));
      return found.length >= 2 && found;
    }, 'the refused signatures logged');
    expect(refusals.length).toBeGreaterThanOrEqual(2);
    expectNoSecrets(output);
  });

  it('a request with long values gets a bounded message', async () => {
    const long: Params = Array.from({ length: 7 }, (_, i) => [`x${i}`, 'v'.repeat(1000)]);
    const r = await call(sb.url, 'PUT', PRODUCTS, [
      ...GIVE,
      ...long,
      ['timestamp', String(Math.floor(sb.clock.ms / 1000))],
      ['signature', '00'],
    ]);
    expect(r.status).toBe(403);
    expect(r.body.message.length).toBeLessThan(4200);
    expect(r.body.message).toMatch(/… \(cut\)\)$/);
  });
});

describe('agi: a refused signature shows the sorted values and the joined string', () => {
  type Challenge = { session: string; key: string };

  async function challenge(query: Params, body?: string): Promise<Challenge> {
    const init = body === undefined ? {} : { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body };
    const first = await call<Challenge>(sb.url, 'POST', PRODUCTS, query, init);
    expect(first.status).toBe(401);
    return first.body.payload!;
  }

  const QUERY: Params = [...GIVE, ['method', 'put']];

  it('names each value and where it came from; the static secret as it is (it is public), the api_key redacted, the session and key in full', async () => {
    const { session, key } = await challenge(QUERY);
    const wrongSig = randomBytes(16).toString('hex');
    const r = await call<Challenge>(sb.url, 'POST', PRODUCTS, [...QUERY, ['session', session], ['sig', wrongSig]]);
    expect(r.status).toBe(401);
    expect(r.body.payload).toEqual({
      session: expect.stringMatching(/^[0-9a-f]{32}$/),
      key: expect.stringMatching(/^[0-9a-f]{32}$/),
    });
    const { message } = r.body;
    expect(message).toMatch(/^bad signature \(agi: sorted values /);
    for (const part of [
      `api_key=${redact(KEY)}`,
      `(path)=${PLAYER}.json`,
      'qty=2',
      'parent_id=1001',
      `(session)=${session}`,
      `(key)=${key}`,
      `(static secret)=${AGI_STATIC_SECRET}`,
      'sku=gold-pack_10',
      'method=put',
      'increment=true',
    ]) {
      expect(message).toContain(part);
    }
    expect(message).toContain(
      `query seen api_key=${redact(KEY)}, parent_id=1001, sku=gold-pack_10, increment=true, qty=2, method=put, session=${session}, sig=${redact(wrongSig)}; form body seen none)`,
    );
    expectNoSecrets(message, [wrongSig]);
    // The refused retry is a failure, shown as the retry of its challenge (logged a few milliseconds later).
    const retried = / 401 [\d.]+ms \(after signature challenge\) bad signature \(agi\)\n/;
    await until(() => retried.test(output), 'the refused retry logged');
    expect(output).toMatch(retried);
  });

  it('tells the truth: the MD5 of the joined string (api_key put back) is the sig the sandbox expected', async () => {
    const body = 'note=two+words';
    const { session, key } = await challenge(QUERY, body);
    const r = await call(sb.url, 'POST', PRODUCTS, [...QUERY, ['session', session], ['sig', '0'.repeat(32)]], {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });
    expect(r.status).toBe(401);
    expect(r.body.message).toContain('(body)note="two words"');
    expect(r.body.message).toContain('form body seen note="two words")');
    const shown = /joined and lower-cased ("(?:[^"\\]|\\.)*"|\S+);/.exec(r.body.message)![1]!;
    const joined = (shown.startsWith('"') ? (JSON.parse(shown) as string) : shown).replace(
      redact(KEY).toLowerCase(),
      KEY.toLowerCase(),
    );
    const expected = agiSignature({ session, key, path: PRODUCTS, query: QUERY, body: [['note', 'two words']] });
    expect(createHash('md5').update(joined, 'utf8').digest('hex')).toBe(expected);
  });
});
