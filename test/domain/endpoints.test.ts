/**
 * The endpoint table (src/domain/endpoints.ts) is what both sides run on: every row is served by
 * the sandbox under its verb and path, its parameter checks read exactly the parameters the row
 * declares (no more: a parameter the description does not name; no fewer: one it names but
 * ignores), every request the client makes is a row's (verb, path, declared parameters, signing,
 * repeatability), and the path shape is built and read back by the same functions.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import {
  ENDPOINTS,
  endpointAt,
  matchPath,
  pathMatches,
  servicePath,
  splitFile,
  splitServicePath,
  templateRoute,
  type EndpointRow,
} from '../../src/domain/endpoints.js';
import type { FromSchema } from '../../src/domain/schema-type.js';
import type { AchievementDefinition, AuthenticatedUser } from '../../src/domain/types.js';
import type { PAYLOADS } from '../../src/domain/payloads.js';
import { createEndpoints, type RequestCore } from '../../src/client/endpoints.js';
import type { RequestSpec } from '../../src/client/types.js';
import { Query } from '../../src/sandbox/http/query.js';
import { API_ROUTES } from '../../src/sandbox/routes/index.js';

const ROWS = Object.entries(ENDPOINTS) as Array<[string, EndpointRow]>;

/** An element each row's path takes (its declared form). */
function elementFor(row: EndpointRow): string {
  if (row.element.name === 'parent_id') return DEMO.game.id;
  if (row.element.name === 'user') return 'user';
  return DEMO.user.uid;
}

/** A Query that notes every name a parameter check asks it for. */
class RecordingQuery extends Query {
  readonly asked = new Set<string>();
  override has(name: string): boolean {
    this.asked.add(name);
    return super.has(name);
  }
  override get(name: string): string | undefined {
    this.asked.add(name);
    return super.get(name);
  }
}

/** A value of the declared form, so that the check goes on to the next parameter. */
function sample(name: string): string {
  const values: Record<string, string> = {
    user_id: DEMO.user.uid,
    auth_token: 'a'.repeat(32),
    username: 'true',
    type: 'Game',
    pid: DEMO.game.id,
    parent_id: DEMO.game.id,
    game_id: DEMO.game.id,
    developer_id: 'LEVEL_10',
    dev_id: 'LEVEL_10',
    order: 'name',
    sort: 'asc',
    filter: 'name',
    match: 'x',
    progress: '0.5',
    reset: '1',
    increment: 'true',
    decrement: 'true',
    key: 'slot',
    data: '{}',
    sku: 'gems',
  };
  return values[name] ?? '1';
}

describe('the endpoint table', () => {
  it('every row is served by the sandbox under its verb and path, and the sandbox serves no other', () => {
    const served = API_ROUTES.flatMap((route) => Object.values(route.methods).map((ep) => ep.row));
    expect(new Set(served)).toEqual(new Set(ROWS.map(([, row]) => row)));
    for (const [name, row] of ROWS) {
      const route = API_ROUTES.find((r) => pathMatches(r.template, servicePath(row.path, elementFor(row))));
      expect(route?.methods[row.method]?.row, name).toBe(row);
    }
  });

  it("the sandbox's checks read exactly the parameters a row declares", () => {
    for (const [name, row] of ROWS) {
      const declared = row.parameters.map((p) => p.name);
      const ep = API_ROUTES.flatMap((r) => Object.values(r.methods)).find((e) => e.row === row)!;
      const asked = new Set<string>();
      // The declared parameters one by one, each kept unless it stands for one already given (an
      // alias, one of increment/progress/reset): the check reads on until the first it refuses.
      const kept: string[] = [];
      for (const next of [...declared, null]) {
        const given = next === null ? kept : [...kept, next];
        const query = new RecordingQuery(given.map((n) => [n, sample(n)] as const));
        let refusal = '';
        try {
          ep.prepare(query, elementFor(row));
        } catch (error) {
          refusal = String(error);
        }
        for (const n of query.asked) asked.add(n);
        if (next !== null && !/only one|exactly one/.test(refusal)) kept.push(next);
      }
      expect([...asked].sort(), name).toEqual([...new Set(declared)].sort());
    }
  });

  it("every request the client makes is a row's: verb, path, declared parameters, signing and repeatability", async () => {
    const specs: RequestSpec[] = [];
    const core: RequestCore = {
      request: (spec) => {
        specs.push(spec);
        return Promise.resolve({
          payload: [],
          envelope: { version: 1, code: 200, message: 'OK', payload: [] },
          bodyText: '',
        } as never);
      },
      call: () => Promise.resolve(null as never),
    };
    const client = createEndpoints(core);
    const uid = DEMO.user.uid;
    const target = { type: 'Game', pid: DEMO.game.id, developerId: 'LEVEL_10' } as const;
    const product = { parentId: DEMO.game.id, sku: 'gems' };
    const calls: Array<[keyof typeof ENDPOINTS, () => Promise<unknown>]> = [
      ['authenticate', () => client.authenticate(uid, 'a'.repeat(32))],
      ['getUser', () => client.getUser(uid, { byUsername: true }).catch(() => undefined)],
      ['getFriends', () => client.getFriends(uid, { limit: 10, offset: 0, page: 1 })],
      ['listAchievementDefinitions', () => client.listAchievementDefinitions(DEMO.game.id, { type: 'Game', aid: 1 })],
      [
        'listUserAchievements',
        () => client.listUserAchievements(uid, { ...target, limit: 5, order: 'name', sort: 'asc' }),
      ],
      ['changeUserAchievement', () => client.changeUserAchievement(uid, target, { increment: 1 })],
      ['deleteUserAchievement', () => client.deleteUserAchievement(uid, target)],
      ['listProducts', () => client.listProducts(uid, product)],
      ['grantProduct', () => client.grantProduct(uid, product, 1)],
      ['adjustProduct', () => client.adjustProduct(uid, product, 1, 'decrement')],
      ['getSaves', () => client.getSaves(uid, 'slot').catch(() => undefined)],
      ['saveGame', () => client.saveGame(uid, 'slot', '{}', 'a'.repeat(32))],
      ['eraseGame', () => client.eraseGame(uid, 'slot', 'a'.repeat(32))],
    ];
    expect(calls.map(([name]) => name).sort()).toEqual(Object.keys(ENDPOINTS).sort());
    for (const [name, run] of calls) {
      specs.length = 0;
      await run();
      const row: EndpointRow = ENDPOINTS[name];
      const [spec] = specs;
      expect(spec, name).toBeDefined();
      expect(spec!.method, name).toBe(row.method);
      expect(
        endpointAt(
          spec!.method,
          splitServicePath(spec!.path)!.dir,
          splitFile(splitServicePath(spec!.path)!.file)!.element,
        ),
        name,
      ).toBe(row);
      const sent = [...(spec!.query ?? []), ...(spec!.body ?? [])].map(([n]) => n);
      for (const n of sent)
        expect(
          row.parameters.map((p) => p.name),
          `${name} sends ${n}`,
        ).toContain(n);
      expect(spec!.sign === true, name).toBe(row.signature !== 'none');
    }
  });

  it("the client's send makes any row's request: verb, path, the parameters given, signing and repeatability", async () => {
    const specs: RequestSpec[] = [];
    const client = createEndpoints({
      request: (spec) => (specs.push(spec), Promise.resolve({} as never)),
      call: () => Promise.resolve(null as never),
    });
    for (const [name, row] of ROWS) {
      specs.length = 0;
      const [first] = row.parameters;
      await client.send(row, elementFor(row), first ? { [first.name]: sample(first.name) } : {});
      const spec = specs[0]!;
      expect(spec.method, name).toBe(row.method);
      expect(spec.path, name).toBe(servicePath(row.path, elementFor(row)));
      expect([...(spec.query ?? []), ...(spec.body ?? [])], name).toEqual(
        first ? [[first.name, sample(first.name)]] : [],
      );
      expect(spec.sign === true, name).toBe(row.signature !== 'none');
      expect(spec.idempotent, name).toBe(row.idempotent !== false);
    }
  });

  it('adding is not safe to repeat; setting progress or resetting is', async () => {
    const specs: RequestSpec[] = [];
    const core = {
      request: (s: RequestSpec) => (specs.push(s), Promise.resolve({} as never)),
      call: () => Promise.resolve(null as never),
    };
    const client = createEndpoints(core);
    const target = { type: 'Game', pid: DEMO.game.id, developerId: 'LEVEL_10' } as const;
    await client.changeUserAchievement(DEMO.user.uid, target, { increment: 1 });
    await client.changeUserAchievement(DEMO.user.uid, target, { progress: 0.5 });
    await client.changeUserAchievement(DEMO.user.uid, target, { reset: true });
    expect(specs.map((s) => s.idempotent)).toEqual([false, true, true]);
  });

  it('a path is built and read back by the same functions: the element encoded, the format json or xml only', () => {
    const path = servicePath(ENDPOINTS.getUser.path, 'a b/c');
    expect(path).toBe('/services/rest/v1/users/a%20b%2Fc.json');
    expect(pathMatches(ENDPOINTS.getUser.path, path)).toBe(true);
    expect(servicePath(ENDPOINTS.authenticate.path)).toBe('/services/rest/v1/authenticate/user.json');
    expect(pathMatches(ENDPOINTS.authenticate.path, '/services/rest/v1/authenticate/other.json')).toBe(false);
    expect(splitFile('x.xml')).toEqual({ element: 'x', format: 'xml' });
    expect(splitFile('x.yaml')).toBeNull();
    expect(splitFile('.json')).toBeNull();
    expect(splitServicePath('/elsewhere/users/x.json')).toBeNull();
    // A placeholder anywhere: built, and read back, the element decoded.
    const stats = servicePath('users/{uid}/stats', 'a b');
    expect(stats).toBe('/services/rest/v1/users/a%20b/stats.json');
    expect(matchPath('users/{uid}/stats', stats)).toEqual({ element: 'a b', format: 'json' });
    expect(matchPath('users/{uid}/stats', '/services/rest/v1/users/x/other.json')).toBeNull();
    expect(matchPath('users/{uid}/stats', '/services/rest/v1/users/x.json')).toBeNull();
    expect(templateRoute('users/{uid}/stats')).toEqual({
      url: '/services/rest/v1/users/:uid/:file',
      elementParam: 'uid',
      fixedName: 'stats',
    });
  });

  it('the reply types follow from the payload schemas', () => {
    expectTypeOf<AuthenticatedUser>().toEqualTypeOf<{ uid: string; username: string }>();
    expectTypeOf<FromSchema<typeof PAYLOADS.saveResult>>().toEqualTypeOf<{ key: string; success: 1 }>();
    expectTypeOf<AchievementDefinition['type']>().toEqualTypeOf<'Game' | 'Website'>();
    expectTypeOf<FromSchema<typeof PAYLOADS.authenticated>>().toEqualTypeOf<{ uid: string; username: string } | null>();
  });
});
