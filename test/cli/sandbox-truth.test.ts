/**
 * Issue 33, "every screen from the database it describes" and "the running sandbox is the one
 * you talk to", as a user meets them: a sandbox runs (started in this process by `sandbox start`
 * on a free port, so the pid file names a port that is not the built-in profile's), one's own game
 * is loaded onto its demo data, a user's progress changes, and then `sandbox info`, `status` and
 * the dashboard's data are compared with the database itself. Every command runs in-process
 * through `main`; the database is read directly, read-only, as a check independent of udcli.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database as Connection } from 'better-sqlite3';
import { Database } from '../sqlite.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { startCommand } from '../../src/cli/commands/sandbox/start.js';
import { DEMO } from '../../src/domain/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/server.js';
import { nowhere } from '../e2e/harness.js';
import { printable } from '../../src/printable.js';
import { fakeIO } from '../output/fake-io.js';
import { testFactory } from '../sandbox/helpers/factory.js';

const ORBIT_KEY = '5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c';
const ORBIT = `games:
  - id: "7777"
    name: Orbit Miner
    keys:
      - api_key: ${ORBIT_KEY}
    achievements:
      - developer_id: ORE_10
        name: Prospector
        target_value: 10
users:
  - username: gr_ann
    plays: ["7777"]
    progress: { "7777": { ORE_10: 3 } }
  - username: gr_bob
    plays: ["7777"]
  - username: gr_cid
    plays: ["7777"]
`;
const COMETS = `games:
  - id: "8888"
    name: Comets
    launchable: true
    keys:
      - api_key: 8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e8e
users:
  - username: co_dan
    plays: ["8888"]
`;

let root: string;
let env: NodeJS.ProcessEnv;
let url: string;
let dbPath: string;
let stop: () => void;
let started: Promise<void>;
let second: RunningSandbox | undefined;

async function udcli(args: string[], extra: NodeJS.ProcessEnv = {}) {
  const f = fakeIO({ env: { ...env, ...extra } });
  const code = await main(args, f.io);
  return { code, stdout: f.stdout(), stderr: f.stderr() };
}

function readDb<T>(path: string, fn: (db: Connection) => T): T {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const progressOf = (path: string, username: string, developerId: string) =>
  readDb(
    path,
    (db) =>
      db
        .prepare<[string, string], { current_value: number }>(
          'SELECT ua.current_value FROM user_achievements ua JOIN achievements a ON a.id = ua.achievement_id WHERE ua.uid = ? AND a.developer_id = ?',
        )
        .get(uidForUsername(username), developerId)?.current_value,
  );

interface Described {
  url: string;
  database: string | null;
  game_id: string;
  user_count: number;
  games: Array<{ id: string; api_key: string }>;
  users: Array<{ username: string; progress: Array<{ game_id: string; developer_id: string; current_value: number }> }>;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-sandbox-truth-'));
  // The built-in profile's own port is closed: only the pid file can lead a command to the sandbox.
  const closed = new URL((await nowhere()).UDCLI_BASE_URL!).port;
  env = {
    UDCLI_CONFIG_DIR: join(root, 'config'),
    UDCLI_DATA_DIR: join(root, 'data'),
    NO_COLOR: '1',
    UDCLI_SANDBOX_PORT: closed,
  };
  dbPath = join(root, 'data', 'sandbox.db');
  writeFileSync(join(root, 'orbit.yaml'), ORBIT);
  writeFileSync(join(root, 'comets.yaml'), COMETS);
  await new Promise<void>((ready, failed) => {
    started = startCommand(
      testFactory(env),
      { port: '0' },
      {
        waitForStop: (sandbox) => {
          url = sandbox.url;
          ready();
          return new Promise<void>((resolve) => (stop = resolve));
        },
      },
    );
    started.catch(failed);
  });
}, 60_000);

afterAll(async () => {
  stop?.();
  await started;
  await second?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('one sandbox runs, on a port the built-in profile does not name', () => {
  it('commands of the built-in profile go to it (its request log has them), not to an embedded one', async () => {
    const r = await udcli(['user', DEMO.user.username, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ uid: DEMO.user.uid, avatar: expect.stringContaining(url) as unknown });
    const log = (await (await fetch(`${url}/_sandbox/requests?limit=1000`)).json()) as {
      requests: Array<{ path: string }>;
    };
    expect(log.requests.map((q) => q.path)).toContain(`/services/rest/v1/users/${DEMO.user.username}.json`);
  });

  it('after loading one game onto the demo data, that game is the default: its quests, its key', async () => {
    const loaded = await udcli(['sandbox', 'load', join(root, 'orbit.yaml')]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain(
      `commands of the built-in sandbox profile now use game 7777, the only game loaded; for game ${DEMO.game.id} as before: --game ${DEMO.game.id} or UDCLI_GAME_ID=${DEMO.game.id}\n`,
    );
    const list = await udcli(['achievements', 'list', 'gr_ann', '-o', 'json']);
    expect(list.code, list.stderr).toBe(0);
    const rows = JSON.parse(list.stdout) as Array<{ developer_id: string; parent_id: string; current_value: number }>;
    expect(rows.map((q) => [q.parent_id, q.developer_id, q.current_value])).toEqual([['7777', 'ORE_10', 3]]);
    const inc = await udcli(['achievements', 'inc', 'gr_ann', 'ORE_10']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(progressOf(dbPath, 'gr_ann', 'ORE_10')).toBe(4);
  });

  it('which game the built-in profile uses, and why, is said by profile show, profile list, doctor and sandbox status', async () => {
    const why = 'game 7777, the only game loaded in the running sandbox';
    const show = await udcli(['profile', 'show', '-o', 'table']);
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(new RegExp(`game_id +7777 +\\(${why}\\)`));
    expect(show.stdout).toMatch(new RegExp(`api_key +5f0e…3b1c +\\(${why}\\)`));
    expect(show.stdout).not.toContain('1001 (default)');
    const list = await udcli(['profile', 'list', '-o', 'table']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(
      /^\* +sandbox +http:\/\/127\.0\.0\.1:\d+ +7777 \(the only game loaded in the running sandbox\)/m,
    );
    const listed = JSON.parse((await udcli(['profile', 'list', '-o', 'json'])).stdout) as Array<{
      name: string;
      game_id: string;
      game_why: string;
    }>;
    expect(listed.find((p) => p.name === 'sandbox')).toMatchObject({ game_id: '7777', game_why: why });
    const doctor = await udcli(['doctor', '-o', 'table']);
    expect(doctor.stdout).toContain(`from the sandbox (${why})`);
    const status = await udcli(['sandbox', 'status']);
    expect(status.stdout).toContain(`the built-in profile uses ${why}\n`);
    const statusJson = JSON.parse((await udcli(['sandbox', 'status', '--json'])).stdout) as {
      builtin_profile: unknown;
    };
    expect(statusJson.builtin_profile).toEqual({ game_id: '7777', why });
  });

  it("auth verify of a token of the demo game names both games and why the profile's is 7777", async () => {
    const token = JSON.parse(
      (await udcli(['auth', 'token', DEMO.game.id, '--as', DEMO.user.username, '--json'])).stdout,
    ) as { uid: string; token: string };
    const r = await udcli(['auth', 'verify', token.uid, token.token]);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(
      `invalid token: issued for another game (${DEMO.game.id}; this api_key is of game 7777)`,
    );
    expect(r.stderr).toContain(`this profile uses game 7777, the only game loaded in the running sandbox`);
    const again = await udcli(['auth', 'verify', token.uid, token.token], { UDCLI_GAME_ID: DEMO.game.id });
    expect(again.code, again.stderr).toBe(0);
  });

  it('sandbox info, status and the dashboard say what the database holds now, and agree', async () => {
    const db = readDb(dbPath, (d) => ({
      users: (d.prepare('SELECT count(*) AS n FROM users').get() as { n: number }).n,
      games: (d.prepare('SELECT id FROM games ORDER BY id').all() as Array<{ id: string }>).map((g) => g.id),
    }));
    expect(db.users).toBe(1503);

    const infoJson = await udcli(['sandbox', 'info', '-o', 'json']);
    expect(infoJson.code, infoJson.stderr).toBe(0);
    const info = JSON.parse(infoJson.stdout) as Described;
    const status = JSON.parse((await udcli(['sandbox', 'status', '--json'])).stdout) as {
      user_count: number;
      games: Array<{ id: string }>;
      users: Array<{ username: string }>;
    };
    const dashboard = (await (await fetch(`${url}/_sandbox/contents`)).json()) as {
      user_count: number;
      games: Array<{ id: string }>;
      users: Array<{ username: string }>;
    };

    for (const screen of [info, status, dashboard]) {
      expect(screen.user_count).toBe(db.users);
      expect([...new Set(screen.games.map((g) => g.id))].sort()).toEqual(db.games);
    }
    expect(info.users.map((u) => u.username)).toEqual(status.users.map((u) => u.username));
    expect(dashboard.users.map((u) => u.username)).toEqual(status.users.map((u) => u.username));
    expect(info).toMatchObject({ url, database: dbPath, game_id: '7777' });
    // The loaded game's key redacted; the demo's public keys in full.
    expect(info.games).toEqual(
      expect.arrayContaining([{ ...info.games.find((g) => g.id === '7777'), api_key: '5f0e…3b1c' }]),
    );
    expect(info.games.find((g) => g.id === DEMO.game.id)?.api_key).toBe(DEMO.game.apiKey);
    // Progress as it is now (4, after the inc), as the dashboard's user view has it too.
    const ann = info.users.find((u) => u.username === 'gr_ann');
    expect(ann?.progress).toEqual([
      expect.objectContaining({
        game_id: '7777',
        developer_id: 'ORE_10',
        current_value: progressOf(dbPath, 'gr_ann', 'ORE_10'),
      }),
    ]);
    const view = (await (await fetch(`${url}/_sandbox/users/${uidForUsername('gr_ann')}`)).json()) as {
      games: Array<{ id: string; achievements: Array<{ developer_id: string; current_value: number }> }>;
    };
    expect(
      view.games.find((g) => g.id === '7777')?.achievements.find((a) => a.developer_id === 'ORE_10')?.current_value,
    ).toBe(4);

    const text = await udcli(['sandbox', 'info']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`sandbox running at ${url}`);
    expect(text.stdout).toContain('users (1,503 in all');
    expect(text.stdout).toMatch(/gr_ann +[0-9a-f]{32}\n +quests {2}7777: ORE_10 4\/10 In Progress\n/);
    expect(text.stdout).toContain('udcli sandbox game set-uri 7777 <url>');
    expect(text.stdout).toContain(`${url}/play/7777`);
    expect(text.stdout).not.toContain(ORBIT_KEY);
    expect(text.stdout).not.toContain('1,500');
    const statusText = (await udcli(['sandbox', 'status'])).stdout;
    expect(statusText).toContain('7777 Orbit Miner (key 5f0e…3b1c)');
    expect(statusText).toContain('(1,503 in all)');
  });

  it.for([
    ["UDCLI_GAME_ID picks another game of the sandbox, with that game's key", [], { UDCLI_GAME_ID: DEMO.game.id }],
    [
      "a command's own --game names another game of the sandbox, with that game's key (not the loaded game's)",
      ['--game', DEMO.game.id],
      {},
    ],
  ] as const)('%s', async ([, gameFlags, gameEnv]) => {
    const r = await udcli(['achievements', 'list', DEMO.user.username, ...gameFlags, '-o', 'json'], gameEnv);
    expect(r.code, r.stderr).toBe(0);
    expect(
      (JSON.parse(r.stdout) as Array<{ developer_id: string; current_value: number }>).find(
        (q) => q.developer_id === 'LEVEL_10',
      )?.current_value,
    ).toBe(4);
  });

  it('--base-url names a second sandbox: info describes that one, its users as they are now', async () => {
    const otherDb = join(root, 'second.db');
    second = await startSandbox({ port: 0, host: '127.0.0.1', dbPath: otherDb, seed: 'demo' });
    const inc = await udcli(['--base-url', second.url, 'achievements', 'inc', DEMO.user.username, 'LEVEL_10']);
    expect(inc.code, inc.stderr).toBe(0);
    expect(progressOf(otherDb, DEMO.user.username, 'LEVEL_10')).toBe(5);
    expect(progressOf(dbPath, DEMO.user.username, 'LEVEL_10')).toBe(4);

    const json = await udcli(['--base-url', second.url, 'sandbox', 'info', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    const info = JSON.parse(json.stdout) as Described;
    expect(info).toMatchObject({ url: second.url, game_id: DEMO.game.id, user_count: 1500, database: null });
    expect(info.games.map((g) => g.id)).not.toContain('7777');
    expect(info.users.find((u) => u.username === DEMO.user.username)?.progress).toContainEqual(
      expect.objectContaining({ developer_id: 'LEVEL_10', current_value: 5 }),
    );

    const text = await udcli(['sandbox', 'info', '--base-url', second.url]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`sandbox running at ${second.url}`);
    expect(text.stdout).toContain('LEVEL_10 5/10 In Progress');
    expect(text.stdout).not.toContain('LEVEL_10 4/10');
    expect(text.stdout).toContain('set-uri 1001 <url>');

    // Nothing answers: one line, no description of another sandbox.
    const gone = await udcli(['sandbox', 'info', '--base-url', (await nowhere()).UDCLI_BASE_URL!]);
    expect(gone.code).toBe(5);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toMatch(/^udcli: no udcli sandbox answers at http:\/\/127\.0\.0\.1:\d+\n/);
  });

  it("--base-url and UDCLI_BASE_URL name a sandbox holding only one's own game: the built-in profile takes its game and key", async () => {
    const third = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: join(root, 'orbit-only.db'),
      data: join(root, 'orbit.yaml'),
    });
    try {
      const byFlag = await udcli(['--base-url', third.url, 'achievements', 'list', 'gr_ann', '-o', 'json']);
      expect(byFlag.code, byFlag.stderr).toBe(0);
      expect(
        (JSON.parse(byFlag.stdout) as Array<{ parent_id: string; developer_id: string; current_value: number }>).map(
          (q) => [q.parent_id, q.developer_id, q.current_value],
        ),
      ).toEqual([['7777', 'ORE_10', 3]]);
      const byEnv = await udcli(['achievements', 'list', 'gr_ann', '-o', 'json'], { UDCLI_BASE_URL: third.url });
      expect(byEnv.code, byEnv.stderr).toBe(0);
      const show = await udcli(['profile', 'show', '-o', 'table'], { UDCLI_BASE_URL: third.url });
      expect(show.stdout).toContain(`(game 7777, the only game loaded in the sandbox at ${third.url})`);
    } finally {
      await third.close();
    }
  });

  it('two loaded games: the default stays, and one line on stderr says which to pick', async () => {
    const loaded = await udcli(['sandbox', 'load', join(root, 'comets.yaml')]);
    expect(loaded.code, loaded.stderr).toBe(0);
    expect(loaded.stderr).toContain('loaded games 7777, 8888: commands use 1001 unless told (UDCLI_GAME_ID=7777)\n');
    const r = await udcli(['user', DEMO.user.username, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(
      'udcli: the sandbox holds 2 loaded games (7777, 8888); using 1001: pick one with UDCLI_GAME_ID=7777 (or a profile)\n',
    );
    const picked = await udcli(['user', 'co_dan', '-o', 'json'], { UDCLI_GAME_ID: '8888' });
    expect(picked.code, picked.stderr).toBe(0);
    expect(picked.stderr).toBe('');
    expect(JSON.parse(picked.stdout)).toMatchObject({ username: 'co_dan', plays_game: '1' });
    const info = await udcli(['sandbox', 'info']);
    expect(info.stdout).toContain(
      'loaded games 7777, 8888: clients use 1001 unless told (UDCLI_GAME_ID=7777, or a profile)',
    );
  });
});

/**
 * What answers at a named URL is outside input. A stand-in for a server that says it is a sandbox
 * and then sends what no sandbox sends: the faults a real sandbox cannot produce.
 */
describe('a server at --base-url that is not a sandbox of this udcli', () => {
  let server: Server;
  let contents: () => string;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/_sandbox/status') res.end(JSON.stringify({ status: 'ok', service: 'udcli-sandbox', pid: 1 }));
      else if (req.url === '/_sandbox/contents') res.end(contents());
      else res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const valid = (name: string) => ({
    origin: { kind: 'data', file: null, sha256: null, text: 'x.yaml' },
    games: [
      {
        id: '1',
        name,
        type: 'Game',
        launchable: true,
        signing: 'agi',
        play_path: '/play/1',
        keys: [],
        achievements: [],
        achievement_count: 0,
        products: [],
        product_count: 0,
      },
    ],
    users: [],
    user_count: 0,
    primary_game: '1',
    loaded_games: ['1'],
    choices: [],
  });

  it('an oversized or misshapen description is refused in one line (exit 5), nothing of it printed', async () => {
    for (const body of [
      `{"origin":{"kind":"data","text":"${'x'.repeat(5 * 1024 * 1024)}"}}`,
      JSON.stringify({ ...valid('g'), games: [{ id: 1 }] }),
      'not json',
    ]) {
      contents = () => body;
      const r = await udcli(['sandbox', 'info', '--base-url', base]);
      expect(r.code).toBe(5);
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toBe(`udcli: no udcli sandbox answers at ${base}`);
    }
  });

  it('names with control characters are escaped in text, kept whole in JSON', async () => {
    const hostile = 'Evil\u001b[2J\u202egame';
    contents = () => JSON.stringify(valid(hostile));
    const text = await udcli(['sandbox', 'info', '--base-url', base]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(printable(hostile));
    expect(text.stdout).not.toContain('\u001b');
    const json = await udcli(['sandbox', 'info', '--base-url', base, '--json']);
    expect((JSON.parse(json.stdout) as { games: Array<{ name: string }> }).games[0]!.name).toBe(hostile);
  });
});
