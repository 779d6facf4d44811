/**
 * The recipe "a new endpoint" of docs/ARCHITECTURE.md, kept true: a read endpoint with a
 * placeholder in the middle of its path, `GET users/{uid}/stats.json`, added as its table row,
 * its query and its handler (what would be a row in src/domain/endpoints.ts, a query in
 * src/sandbox/repositories/ and a handler in src/sandbox/routes/), and nothing else. It is then
 * served by a sandbox, refused in the platform's words when a parameter breaks its declaration,
 * described by /openapi.json, called by the client and run as `udcli stats`. The row, its route
 * and its command are removed when the file ends (test files share a worker's modules).
 */
import { COMMANDS } from '../../src/cli/commands.js';
import { endpointCommands } from '../../src/cli/endpoint-commands.js';
import { DEMO } from '../../src/domain/demo.js';
import { ENDPOINTS, type EndpointRow } from '../../src/domain/endpoints.js';
import { PATH, QUERY, type ParamSpec } from '../../src/domain/parameters.js';
import { apiRoute, endpoint, ok, type ApiRoute } from '../../src/sandbox/http/endpoint.js';
import { fail } from '../../src/sandbox/http/failure.js';
import type { Repositories } from '../../src/sandbox/repositories/index.js';
import { API_ROUTES } from '../../src/sandbox/routes/index.js';
import type { TestEnv } from '../e2e/harness.js';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';

// --- 1. the row (src/domain/endpoints.ts) ----------------------------------------------------------

const CAP = {
  name: 'cap',
  in: 'query',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: 1000, default: 1000 },
  description: 'Count friends up to this many.',
} as const satisfies ParamSpec;

const getUserStats = {
  method: 'GET',
  path: 'users/{uid}/stats',
  element: PATH.uid,
  parameters: [QUERY.pidOptional, CAP],
  payload: {
    type: 'object',
    properties: {
      uid: { type: 'string' },
      username: { type: 'string' },
      plays_game: { type: 'boolean' },
      friends: { type: 'integer' },
    },
    required: ['uid', 'username', 'plays_game', 'friends'],
    additionalProperties: false,
  },
  apiKey: 'required',
  signature: 'none',
  idempotent: true,
  summary: "A user's numbers: friends, and whether they played the game",
  errors: [404],
  command: { name: 'stats', description: "Show a user's numbers: friends, and whether they played the game" },
} as const satisfies EndpointRow;

// --- 2. its query (src/sandbox/repositories/) --------------------------------------------------------

function statsOf(repos: Repositories, uid: string, gameId: string, cap: number) {
  const user = repos.users.findPlaying({ uid }, gameId);
  return user && { user, friends: repos.users.friends(uid, null, cap, 0).length };
}

// --- 3. its handler (src/sandbox/routes/): no params function, the row's declarations check ---------

const statsRoute: ApiRoute = apiRoute(
  endpoint({
    row: getUserStats,
    handle({ repos, apiKey }, p) {
      const found = statsOf(repos, p.uid, p.pid ?? apiKey.gameId, p.cap ?? 1000);
      if (!found) throw fail.notFound(`user ${p.uid}`);
      const { user, friends } = found;
      return ok({ uid: user.uid, username: user.username, plays_game: user.played === true, friends });
    },
  }),
);

// --- added, as the three files would add it; removed when the file ends -----------------------------

const table = ENDPOINTS as Record<string, EndpointRow>;
const routes = API_ROUTES as ApiRoute[];
let added: ReturnType<typeof endpointCommands> = [];

function remove(): void {
  delete table.getUserStats;
  if (routes.includes(statsRoute)) routes.splice(routes.indexOf(statsRoute), 1);
  for (const entry of added) if (COMMANDS.includes(entry)) COMMANDS.splice(COMMANDS.indexOf(entry), 1);
}

let env: TestEnv;
beforeAll(async ({ newSandbox }) => {
  table.getUserStats = getUserStats;
  routes.push(statsRoute);
  // What commands.ts's line (`...endpointCommands()`) did for the table's rows when it loaded.
  added = endpointCommands([getUserStats]);
  COMMANDS.push(...added);
  env = await newSandbox();
});
afterAll(remove);

const UID = DEMO.user.uid;
const api = (path: string) =>
  fetch(`${env.sandbox.url}/services/rest/v1/${path}`).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as { code: number; message: string; payload: unknown },
  }));
const key = `api_key=${DEMO.game.apiKey}`;
/** The requests the sandbox answered, from its own log. */
const answered = async (): Promise<number> =>
  ((await (await fetch(`${env.sandbox.url}/_sandbox/requests?limit=1000`)).json()) as { requests: unknown[] }).requests
    .length;

describe('a read endpoint added as its row, its query and its handler', () => {
  it('is served at its path, the placeholder in the middle, in JSON and XML', async () => {
    const r = await api(`users/${UID}/stats.json?${key}`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.payload).toEqual({
      uid: UID,
      username: DEMO.user.username,
      plays_game: expect.any(Boolean) as boolean,
      friends: expect.any(Number) as number,
    });
    const xml = await fetch(`${env.sandbox.url}/services/rest/v1/users/${UID}/stats.xml?${key}`);
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain(`<uid>${UID}</uid>`);
    expect((await api(`users/${UID}/stats.yaml?${key}`)).status).toBe(404);
    expect((await api(`users/${UID}/other.json?${key}`)).status).toBe(404);
    // The user route beside it still answers as before.
    expect((await api(`users/${UID}.json?${key}`)).body.payload).toMatchObject({ uid: UID });
  });

  it("refuses a parameter its declaration refuses, in the platform's words", async () => {
    const refused = async (path: string) => {
      const r = await api(path);
      expect(r.status, path).toBe(400);
      return r.body.message;
    };
    expect(await refused(`users/xyz/stats.json?${key}`)).toBe(
      'invalid parameter: uid (expected 32 hex digits, got "xyz")',
    );
    expect(await refused(`users/${UID}/stats.json?${key}&cap=0`)).toBe('invalid parameter: cap (must be at least 1)');
    expect(await refused(`users/${UID}/stats.json?${key}&cap=1001`)).toBe(
      'invalid parameter: cap (must be at most 1000)',
    );
    expect(await refused(`users/${UID}/stats.json?${key}&cap=many`)).toBe(
      'invalid parameter: cap (expected an integer, got "many")',
    );
    expect(await refused(`users/${UID}/stats.json?${key}&pid=a%20b`)).toBe(
      'invalid parameter: pid (not a game or website id: "a b")',
    );
    expect((await api(`users/${UID}/stats.json`)).status).toBe(401);
  });

  it('keeps a key to its own game: a pid naming another is 403, as on every endpoint that names a game', async () => {
    const other = await api(`users/${UID}/stats.json?${key}&pid=another-game`);
    expect(other.status).toBe(403);
    expect(other.body.message).toBe(`forbidden: this api_key belongs to game ${DEMO.game.id}`);
    expect((await api(`users/${UID}/stats.json?${key}&pid=${DEMO.game.id}`)).status).toBe(200);
  });

  it('is described by /openapi.json, its parameters with their bounds', async () => {
    const doc = (await (await fetch(`${env.sandbox.url}/openapi.json`)).json()) as {
      paths: Record<string, { get?: { operationId: string; parameters: Array<{ name: string; schema: object }> } }>;
    };
    const get = doc.paths['/services/rest/v1/users/{uid}/stats.{format}']?.get;
    expect(get?.operationId).toBe('getUsersStats');
    expect(get?.parameters.find((p) => p.name === 'cap')?.schema).toMatchObject({ minimum: 1, maximum: 1000 });
    expect(get?.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['uid', 'pid', 'cap', 'api_key']));
  });

  it('is a CLI command made from the row: help from its declarations, its reply printed, bad values refused unsent', async () => {
    const help = await env.run(['stats', '--help']);
    expect(help.stdout).toContain('Usage: udcli stats [options] <uid>');
    expect(help.stdout).toMatch(/--cap <value> +Count friends up to this many\./);

    const r = await env.run(['stats', UID, '--cap', '2', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ uid: UID, username: DEMO.user.username });
    expect((JSON.parse(r.stdout) as { friends: number }).friends).toBeLessThanOrEqual(2);
    const table = await env.run(['stats', UID, '-o', 'table']);
    expect(table.stdout).toMatch(/^USERNAME +\S+/m);
    expect(table.stdout).toMatch(/^PLAYS GAME +(yes|no)$/m);

    const before = await answered();
    expect(await env.run(['stats', 'xyz'])).toMatchObject({
      code: 2,
      stdout: '',
      stderr: 'udcli: invalid uid: expected 32 hex digits, got "xyz"\n',
    });
    expect(await env.run(['stats', UID, '--cap', '0'])).toMatchObject({
      code: 2,
      stderr: 'udcli: invalid --cap: must be at least 1\n',
    });
    expect(await answered()).toBe(before);
  });

  it('is gone when removed: no command, and a sandbox built then answers 404', async ({ newSandbox }) => {
    remove();
    const after = await newSandbox();
    const r = await fetch(`${after.sandbox.url}/services/rest/v1/users/${UID}/stats.json?${key}`);
    expect(r.status).toBe(404);
    expect((await after.run(['stats', UID])).code).toBe(2);
  });
});
