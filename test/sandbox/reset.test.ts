/**
 * The live reset over real HTTP (issue 23): POST /_sandbox/reset puts a running sandbox's
 * database back in one transaction, on the serving connection, so a client connected across it
 * sees the new state on its next request; bad input is one 400 and changes nothing.
 */
import { Agent } from 'undici';
import { afterEach, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { yamlParsesRunning } from '../../src/sandbox/data/yaml-worker.js';
import { recordAddition, recordedOrigin, recordOrigin } from '../../src/sandbox/origin.js';
import { api, type TestSandbox } from './helpers/sandbox.js';

let sb: TestSandbox;
afterEach(async () => {
  await sb?.close();
});

const RACERS = `games:
  - id: "8080"
    name: Racers
    keys:
      - api_key: 8080abcdef0123456789abcdef012345
        signing_secret: s3cret-racers
users:
  - username: speedy
    plays: ["8080"]
`;

async function reset(body = ''): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${sb.url}/_sandbox/reset`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

const userCount = () => sb.db.sqlite.prepare<[], { n: number }>('SELECT count(*) AS n FROM users').get()!.n;

describe('POST /_sandbox/reset', () => {
  it('puts back the recorded origin between two test cases, a keep-alive client connected across it', async ({
    newSb,
  }) => {
    sb = await newSb();
    const agent = new Agent({ connections: 1, pipelining: 1 });
    const progress = (): Promise<Response> =>
      fetch(
        `${sb.url}${API_PREFIX}/achievements/user/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&parent_id=${DEMO.game.id}`,
        {
          // @ts-expect-error undici's dispatcher option is not in the DOM types
          dispatcher: agent,
        },
      );
    // Test case 1 changes the state: a user more.
    sb.db.sqlite
      .prepare(
        "INSERT INTO users (uid, username, gender, created_on) VALUES ('0123456789abcdef0123456789abcdef', 'case_one', 'unspecified', 0)",
      )
      .run();
    expect(userCount()).toBe(1501);
    expect((await progress()).status).toBe(200);
    const r = await reset();
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ reset: true, origin: { kind: 'demo', text: 'the demo data' }, users: 1500 });
    expect(userCount()).toBe(1500);
    // Test case 2, on the same connection.
    expect((await progress()).status).toBe(200);
    expect((await api(sb.url, 'GET', '/users/case_one.json', [['username', '1']])).status).toBe(404);
    await agent.close();
  });

  it('replaces the demo with a data file sent as text and records it; a bare reset returns to what it was started with', async ({
    newSb,
  }) => {
    sb = await newSb();
    const r = await reset(new URLSearchParams({ file: '/tmp/racers.yaml', data: RACERS }).toString());
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ origin: { kind: 'data', file: '/tmp/racers.yaml' }, games: ['8080'], users: 1 });
    expect(recordedOrigin(sb.db)).toMatchObject({ kind: 'data', file: '/tmp/racers.yaml', games: ['8080'] });
    expect(sb.db.repos.games.find(DEMO.game.id)).toBeUndefined();
    expect((await reset('seed=none')).body).toMatchObject({ origin: { kind: 'none' }, games: [], users: 0 });
    expect((await reset()).body).toMatchObject({ origin: { kind: 'demo' }, users: 1500 });
    expect(recordedOrigin(sb.db)).toEqual({ kind: 'demo' });
  });

  it('refuses bad input with one 400 and changes nothing', async ({ newSb }) => {
    sb = await newSb();
    for (const body of [
      'seed=everything',
      'seed=demo&data=x',
      `file=bad.yaml&data=${encodeURIComponent('games: 5')}`,
      'format=xml&data=a',
    ]) {
      const r = await reset(body);
      expect(r.status, body).toBe(400);
      expect(r.body).toMatchObject({ status: false, code: 400 });
    }
    expect(userCount()).toBe(1500);
    expect(recordedOrigin(sb.db)).toBeUndefined();
  });

  it('a nesting bomb (20,000 and 100,000 `[`) is one 400 naming the limit; the server keeps serving', async ({
    newSb,
  }) => {
    sb = await newSb();
    for (const n of [20_000, 100_000]) {
      for (const [file, text] of [
        ['bomb.yaml', `users: ${'['.repeat(n)}`],
        ['bomb.json', `{"users": ${'['.repeat(n)}`],
      ] as const) {
        const r = await reset(new URLSearchParams({ file, data: text }).toString());
        expect(r.status, `${file} ${n}`).toBe(400);
        expect(r.body.message).toBe(
          `invalid parameter: data: ${file}: nested deeper than 32 levels (the limit of a data file) (line 1)`,
        );
      }
      const bare = await reset(new URLSearchParams({ data: '['.repeat(n) }).toString());
      expect(bare.body.message).toBe(
        'invalid parameter: data: the data file: nested deeper than 32 levels (the limit of a data file) (line 1)',
      );
    }
    expect((await api(sb.url, 'GET', `/users/${DEMO.user.uid}.json`, [['api_key', DEMO.game.apiKey]])).status).toBe(
      200,
    );
    expect(userCount()).toBe(1500);
  });

  it('a large YAML body is parsed off the thread of the server, which answers while it parses', async ({ newSb }) => {
    sb = await newSb();
    // Most of the 1 MiB a body may be: the yaml package takes most of a second for it, which the server's thread must
    // not spend.
    const users = Array.from(
      { length: 11_000 },
      (_, i) => `  - username: player_${i}\n    premium: true\n    gender: unspecified\n`,
    );
    const text = `users:\n${users.join('')}`;
    expect(text.length).toBeGreaterThan(700_000);
    const resetting = reset(new URLSearchParams({ file: 'big.yaml', data: text }).toString());
    // The server runs in this process: that this poll turns while the file is parsed shows its thread is free.
    await expect.poll(yamlParsesRunning, { timeout: 20_000, interval: 5 }).toBe(1);
    const read = await api(sb.url, 'GET', `/users/${DEMO.user.uid}.json`, [['api_key', DEMO.game.apiKey]]);
    expect(read.status).toBe(200);
    const r = await resetting;
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ users: 11_000 });
    expect(yamlParsesRunning()).toBe(0);
  });

  it('answers only requests addressed to the sandbox itself', async ({ newSb }) => {
    sb = await newSb();
    const r = await sb.app.inject({ method: 'POST', url: '/_sandbox/reset', headers: { host: 'evil.example:80' } });
    expect(r.statusCode).toBe(403);
  });
});

describe('GET /_sandbox/contents', () => {
  it('says what the sandbox holds, with what was added on top, its games with keys redacted (no secret) and its users', async ({
    newSb,
  }) => {
    sb = await newSb();
    await reset(new URLSearchParams({ file: '/tmp/racers.yaml', data: RACERS }).toString());
    recordAddition(sb.db, 'seed 7 (10 users)');
    const r = await fetch(`${sb.url}/_sandbox/contents`);
    expect(r.status).toBe(200);
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      origin: {
        kind: 'data',
        file: '/tmp/racers.yaml',
        text: expect.stringMatching(/^\/tmp\/racers\.yaml \(sha256 [0-9a-f]{12}…\) \+ seed 7 \(10 users\)$/),
      },
      games: [{ id: '8080', name: 'Racers', keys: [{ api_key: '8080…2345', partner: false }] }],
      users: [{ username: 'speedy' }],
      user_count: 1,
      primary_game: '8080',
    });
    expect(JSON.stringify(body)).not.toContain('s3cret-racers');
    expect(JSON.stringify(body)).not.toContain('8080abcdef0123456789abcdef012345');
  });

  it('on the demo data: the demo game first, its named players first', async ({ newSb }) => {
    sb = await newSb();
    recordOrigin(sb.db, { kind: 'demo' });
    const body = (await (await fetch(`${sb.url}/_sandbox/contents`)).json()) as {
      origin: { text: string };
      primary_game: string;
      users: Array<{ username: string }>;
    };
    expect(body.origin.text).toBe('the demo data');
    expect(body.primary_game).toBe(DEMO.game.id);
    expect(body.users[0]!.username).toBe(DEMO.user.username);
  });
});
