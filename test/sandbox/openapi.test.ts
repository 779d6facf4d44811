/**
 * The OpenAPI description at /openapi.json (issue 11): generated from the routes, checked by an
 * independent OpenAPI 3.1 validator, and true to what the sandbox answers: every reply of a
 * drive through every operation (valid and invalid requests), and of a seeded fuzz run built
 * from the description's own parameter schemas, validates against the description for its
 * status, and none is a 5xx. Real HTTP on port 0 over a temporary database.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { mulberry32 } from '../../src/sandbox/seed/prng.js';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { QUERY, LIMITS } from '../../src/sandbox/http/parameters.js';
import { API_ROUTES } from '../../src/sandbox/routes/index.js';
import { call, queryString, sign, type Params, type TestSandbox } from './helpers/sandbox.js';
import { replyProblem } from './helpers/described-replies.js';

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, unknown> };
};
type Operation = {
  parameters: Array<{ name: string; in: string; required: boolean; schema: Record<string, unknown> }>;
  responses: Record<string, { content?: { 'application/json': { schema: unknown } } }>;
  requestBody?: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
};

let sb: TestSandbox;
let doc: Doc;

beforeAll(async ({ sb: fileSb }) => {
  sb = fileSb;
  const r = await fetch(`${sb.url}/openapi.json`);
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await r.json()) as Doc;
});

function checkReply(method: string, path: string, status: number, text: string): void {
  expect(replyProblem(method, path, status, text)).toBeNull();
}

async function send(method: string, path: string, params: Params): Promise<{ status: number; text: string }> {
  const r = await call(sb.url, method, path, params);
  expect(r.status, `${method} ${path}?${queryString(params)}`).toBeLessThan(500);
  checkReply(method, path, r.status, r.text);
  return { status: r.status, text: r.text };
}

const signed = (method: string, path: string, params: Params): Params =>
  sign(
    method,
    path,
    [['api_key', DEMO.game.apiKey], ...params],
    DEMO.game.signingSecret,
    Math.floor(sb.clock.ms / 1000),
  );

describe('/openapi.json', () => {
  it('is OpenAPI 3.1 and passes an independent validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Parameters<Validator['validate']>[0]);
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('describes every route and verb the pipeline serves, both signing schemes, and the error envelope', () => {
    for (const route of API_ROUTES) {
      const template = `${API_PREFIX}/${route.template}.{format}`;
      expect(doc.paths[template], route.template).toBeDefined();
      for (const method of Object.keys(route.methods))
        expect(doc.paths[template]![method.toLowerCase()], `${method} ${route.template}`).toBeDefined();
    }
    expect(Object.keys(doc.components.securitySchemes)).toEqual(expect.arrayContaining(['apiKey', 'agi', 'hmac']));
    const put = doc.paths[`${API_PREFIX}/achievements/user/{uid}.{format}`]!.put!;
    expect(Object.keys(put.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '405', '429']),
    );
    // A POST with method=put reaches the same change, as the platform SDK sends it.
    expect(doc.paths[`${API_PREFIX}/achievements/user/{uid}.{format}`]!.post!.parameters.map((p) => p.name)).toContain(
      'method',
    );
  });

  it('every POST takes its parameters as a form body too; every reply has the CORS headers; every path its preflight', () => {
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(
          op.responses as Record<string, { headers?: Record<string, unknown> }>,
        )) {
          expect(Object.keys(response.headers ?? {}), `${verb} ${template} ${status}`).toEqual(
            expect.arrayContaining(['Access-Control-Allow-Origin', 'Access-Control-Expose-Headers']),
          );
        }
        if (verb !== 'post') continue;
        const form = op.requestBody?.content['application/x-www-form-urlencoded'];
        expect(form, `${verb} ${template}`).toBeDefined();
        const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
        expect(Object.keys(form!.schema.properties).sort(), `${verb} ${template}`).toEqual(queryNames.sort());
      }
      const options = item.options;
      expect(options, template).toBeDefined();
      expect(Object.keys(options!.responses)).toEqual(['204']);
      expect(Object.keys((options!.responses['204'] as { headers: object }).headers)).toEqual(
        expect.arrayContaining([
          'Access-Control-Allow-Methods',
          'Access-Control-Allow-Headers',
          'Access-Control-Max-Age',
        ]),
      );
    }
    const grant = doc.paths[`${API_PREFIX}/products/user/{uid}.{format}`]!.post!;
    expect(grant.requestBody!.content['application/x-www-form-urlencoded']!.schema.properties.qty).toMatchObject({
      type: 'integer',
      minimum: 1,
    });
  });

  it('is generated from the declarations the checks read: a changed bound moves both', async () => {
    const described = () =>
      doc.paths[`${API_PREFIX}/products/user/{uid}.{format}`]!.post!.parameters.find((p) => p.name === 'qty')!.schema;
    expect(described()).toMatchObject({ type: 'integer', minimum: 1, maximum: LIMITS.maxCount });
    const grant = (qty: string) =>
      send('POST', `${API_PREFIX}/products/user/${DEMO.user.uid}.json`, [
        ['api_key', DEMO.game.apiKey],
        ['parent_id', '1001'],
        ['sku', 'xp-boost'],
        ['qty', qty],
      ]);
    expect((await grant(String(LIMITS.maxCount + 1))).status).toBe(400);

    const offset = QUERY.offset.schema as { maximum: number };
    const was = offset.maximum;
    offset.maximum = 5;
    try {
      const friends = (value: string) =>
        call(sb.url, 'GET', `${API_PREFIX}/friends/${DEMO.user.uid}.json`, [
          ['api_key', DEMO.game.apiKey],
          ['offset', value],
        ]);
      expect((await friends('5')).status).toBe(200);
      expect((await friends('6')).body.message).toBe('invalid parameter: offset (must be at most 5)');
      // A fresh build of the document says the same.
      const { buildOpenApiDocument } = await import('../../src/sandbox/openapi/document.js');
      const fresh = buildOpenApiDocument(API_ROUTES) as unknown as Doc;
      const friendsOp = fresh.paths[`${API_PREFIX}/friends/{uid}.{format}`]!.get!;
      expect(friendsOp.parameters.find((p) => p.name === 'offset')!.schema).toMatchObject({ maximum: 5 });
    } finally {
      offset.maximum = was;
    }
  });
});

describe('every reply matches the description', () => {
  const uid = DEMO.user.uid;
  const A = `${API_PREFIX}/achievements/user/${uid}.json`;
  const P = `${API_PREFIX}/products/user/${uid}.json`;
  const key: [string, string] = ['api_key', DEMO.game.apiKey];

  it('users, friends, authenticate', async () => {
    await send('GET', `${API_PREFIX}/users/${uid}.json`, [key]);
    await send('GET', `${API_PREFIX}/users/${uid}.json`, []);
    await send('GET', `${API_PREFIX}/users/demo_player.json`, [key, ['username', 'true']]);
    await send('GET', `${API_PREFIX}/users/${'0'.repeat(32)}.json`, [key]);
    await send('GET', `${API_PREFIX}/users/not-a-uid.json`, [key]);
    await send('GET', `${API_PREFIX}/friends/${uid}.json`, [key, ['limit', '3'], ['page', '2']]);
    await send('GET', `${API_PREFIX}/friends/${uid}.json`, []);
    await send('GET', `${API_PREFIX}/friends/${uid}.json`, [key, ['limit', 'x']]);
    await send('GET', `${API_PREFIX}/authenticate/user.json`, [key, ['user_id', uid], ['auth_token', 'f'.repeat(32)]]);
    await send('DELETE', `${API_PREFIX}/users/${uid}.json`, [key]);
    // A format the service lacks is a path it lacks: 404, and every operation lists it (Schemathesis
    // sends such paths, reading {format} as any string; it found this operation missing the 404).
    expect(
      (
        await send('GET', `${API_PREFIX}/authenticate/user.AAA`, [
          key,
          ['user_id', uid],
          ['auth_token', 'f'.repeat(32)],
        ])
      ).status,
    ).toBe(404);
    expect((await send('GET', `${API_PREFIX}/users/${uid}.yaml`, [key])).status).toBe(404);
  });

  it('achievements: definitions, the list, changes signed both ways, delete, and their errors', async () => {
    await send('GET', `${API_PREFIX}/achievements/1001.json`, [key]);
    await send('GET', `${API_PREFIX}/achievements/1001.json`, [key, ['developer_id', 'FIRST_WIN']]);
    await send('GET', `${API_PREFIX}/achievements/1001.json`, [key, ['aid', '999999']]);
    await send('GET', `${API_PREFIX}/achievements/1002.json`, [key]);
    await send('GET', A, [key]);
    // A POST with method=get is the GET (Schemathesis found its list reply missing from the POST's 200).
    expect((await send('POST', A, [key, ['method', 'get']])).status).toBe(200);
    expect((await send('POST', P, [key, ['parent_id', '1001'], ['method', 'get']])).status).toBe(200);
    await send('GET', A, [key, ['filter', 'percent_complete'], ['match', '>=50'], ['order', 'name'], ['sort', 'asc']]);
    await send('GET', A, [key, ['order', 'nonsense']]);
    await send(
      'PUT',
      A,
      signed('PUT', A, [
        ['pid', '1001'],
        ['developer_id', 'LEVEL_10'],
        ['increment', '1'],
      ]),
    );
    await send(
      'PUT',
      A,
      signed('PUT', A, [
        ['pid', '1001'],
        ['developer_id', 'FIRST_WIN'],
        ['increment', '1'],
      ]),
    );
    await send(
      'PUT',
      A,
      signed('PUT', A, [
        ['pid', '1001'],
        ['developer_id', 'NOPE'],
        ['progress', '0.5'],
      ]),
    );
    await send('PUT', A, [key, ['pid', '1001'], ['developer_id', 'LEVEL_10'], ['increment', '1']]);
    await send('PUT', A, [
      key,
      ['pid', '1001'],
      ['developer_id', 'LEVEL_10'],
      ['increment', '1'],
      ['timestamp', '1'],
      ['signature', '00'],
    ]);
    await send(
      'POST',
      A,
      signed('PUT', A, [
        ['method', 'put'],
        ['pid', '1001'],
        ['developer_id', 'LEVEL_10'],
        ['reset', '1'],
      ]),
    );
    await send('GET', A, [key, ['method', 'delete'], ['pid', '1001'], ['developer_id', 'LEVEL_10']]);
    await send('DELETE', A, [key, ['pid', '1001'], ['developer_id', 'LEVEL_10']]);
    await send('DELETE', A, [key, ['pid', '1001'], ['developer_id', 'LEVEL_10']]);
    // The agi challenge: a 401 whose payload holds the session and key.
    const agi = await send('PUT', A, [
      ['api_key', '7c5ff03fdb090e9d880767439da337ba'],
      ['pid', '1002'],
      ['developer_id', 'X'],
      ['increment', '1'],
    ]);
    expect(agi.status).toBe(401);
  });

  it('products: the list, grant, change signed, and their errors', async () => {
    await send('GET', P, [key, ['parent_id', '1001']]);
    await send('GET', P, [key, ['game_id', '1001'], ['sku', 'gems']]);
    await send('POST', P, [key, ['parent_id', '1001'], ['sku', 'xp-boost'], ['qty', '2']]);
    await send('POST', P, [key, ['parent_id', '1001'], ['sku', 'sword-of-dawn'], ['qty', '1']]);
    await send(
      'PUT',
      P,
      signed('PUT', P, [
        ['parent_id', '1001'],
        ['sku', 'xp-boost'],
        ['qty', '1'],
        ['decrement', 'true'],
      ]),
    );
    await send(
      'PUT',
      P,
      signed('PUT', P, [
        ['parent_id', '1001'],
        ['sku', 'xp-boost'],
        ['qty', '999'],
        ['decrement', 'true'],
      ]),
    );
    await send(
      'PUT',
      P,
      signed('PUT', P, [
        ['parent_id', '1001'],
        ['sku', 'nope'],
        ['qty', '1'],
        ['increment', 'true'],
      ]),
    );
    await send('GET', P, [key, ['parent_id', '1002']]);
    await send('GET', P, [
      ['api_key', 'f'.repeat(32)],
      ['parent_id', '1001'],
    ]);
  });
});

describe('a seeded fuzz run from the description (a bounded stand-in for Schemathesis, which PyPI would bring)', () => {
  it('no 5xx, and every reply as described, over 1,500 generated requests', async () => {
    const next = mulberry32(1101);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
    const GOOD: Record<string, string[]> = {
      uid: [DEMO.user.uid, 'demo_player', '0'.repeat(32)],
      parent_id: ['1001', '1002', 'nope'],
      api_key: [DEMO.game.apiKey, '7c5ff03fdb090e9d880767439da337ba', 'f'.repeat(32)],
      pid: ['1001', '1002'],
      game_id: ['1001'],
      developer_id: ['FIRST_WIN', 'LEVEL_10', 'SPEED RUN/100%', 'NOPE'],
      dev_id: ['LEVEL_10'],
      sku: ['gems', 'gems:100', 'xp-boost', 'sword-of-dawn', 'héros+épée', 'nope'],
      user_id: [DEMO.user.uid],
      auth_token: ['a'.repeat(32)],
      match: ['>=50', 'First', '='],
    };
    const JUNK = [
      '',
      ' ',
      '-1',
      '1e3',
      'null',
      'true',
      '%00',
      '<script>',
      'x'.repeat(300),
      '\u00e9\u4e2d',
      '../..',
      '0x10',
      '99999999999999',
    ];
    /** A value from a parameter's schema: a documented one, a boundary, or junk. */
    const valueFor = (p: { name: string; schema: Record<string, unknown> }): string => {
      const roll = next();
      if (roll < 0.15) return pick(JUNK);
      const s = p.schema;
      if (Array.isArray(s.enum)) return String(pick(s.enum as unknown[]));
      if (s.type === 'integer') {
        const min = Number(s.minimum ?? 0);
        const max = Number(s.maximum ?? 1000);
        return String(pick([min, min + 1, 3, max, max + 1, min - 1]));
      }
      if (GOOD[p.name]) return pick(GOOD[p.name]!);
      if (typeof s.pattern === 'string' && /Tt\]\[Rr/.test(s.pattern)) return pick(['true', '1', 'false', 'TRUE']);
      if (s.default !== undefined) return String(s.default);
      return pick(['1', 'a', 'Game', 'asc', '0.5']);
    };
    const methods = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
    const operations = Object.entries(doc.paths).flatMap(([template, item]) =>
      Object.entries(item).map(([verb, op]) => ({ template, verb, op })),
    );
    // The same share for every operation, 1,500 in all (each operation gets some 70, and each of its
    // parameters 30 values or more: documented ones, junk and the boundaries alike).
    const perOperation = Math.ceil(1500 / operations.length);
    /** Every query parameter sent with a value, by operation: the run covers every one. */
    const exercised = new Set<string>();
    let sent = 0;
    for (const { template, verb, op } of operations) {
      for (let i = 0; i < perOperation; i++) {
        const element = op.parameters.find((p) => p.in === 'path' && p.name !== 'format');
        const path = template
          .replace('{format}', next() < 0.9 ? 'json' : 'xml')
          .replace(/\{[a-z_]+\}/, () => encodeURIComponent(element ? valueFor(element) : 'x'));
        const params: Params = [];
        for (const p of op.parameters.filter((x) => x.in === 'query')) {
          if (p.required ? next() < 0.9 : next() < 0.4) {
            params.push([p.name, valueFor(p)]);
            exercised.add(`${verb} ${template} ${p.name}`);
          }
        }
        const method = next() < 0.85 ? verb.toUpperCase() : pick(methods);
        // Half the changes are signed properly, so the handlers behind the signature run too.
        const r = await call(
          sb.url,
          method,
          path,
          method !== 'GET' && next() < 0.5 ? signedFor(method, path, params) : params,
        );
        sent++;
        expect(r.status, `${method} ${path}?${queryString(params)}`).toBeLessThan(500);
        if (path.endsWith('.json') || r.status === 204) checkReply(method, path, r.status, r.text);
        else expect(r.headers.get('content-type')).toMatch(/^application\/xml/);
      }
    }
    expect(sent).toBeGreaterThanOrEqual(1500);
    const described = operations.flatMap(({ template, verb, op }) =>
      op.parameters.filter((p) => p.in === 'query').map((p) => `${verb} ${template} ${p.name}`),
    );
    expect(described.filter((name) => !exercised.has(name))).toEqual([]);
  }, 60_000);
});

/** A request signed for the path it goes to (hmac, the demo game's secret). */
function signedFor(method: string, path: string, params: Params): Params {
  const withoutKey = params.filter(([n]) => n !== 'api_key' && n !== 'timestamp' && n !== 'signature');
  return sign(
    method,
    path,
    [['api_key', DEMO.game.apiKey], ...withoutKey],
    DEMO.game.signingSecret,
    Math.floor(sb.clock.ms / 1000),
  );
}
