/**
 * The sandbox's life cycle as emulator users know it (issue 23), main in-process against sandboxes
 * the built binary starts detached: a data
 * file loaded onto a demo database is refused, then replaced with --reset; info, status, the play
 * page, the built-in profile and doctor follow what the sandbox holds; a live reset between two
 * test cases with a client connected; the clock back to real time; a failing exec prints the
 * request log's tail and --log keeps all of it. Needs `npm run build`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Database } from '../sqlite.js';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { closedPort, runCli, runInProcess } from './harness.js';
import { demoDatabaseAt } from '../sandbox/helpers/demo-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-lifecycle-'));
const dataDir = join(scratch, 'data');
const racers = join(scratch, 'racers.yaml');
const RACERS_KEY = '8080abcdef0123456789abcdef012345';
const RACERS_SECRET = 'racers-signing-secret-0123456789';
let env: NodeJS.ProcessEnv = {};
let url = '';

const cli = (args: string[], extra: NodeJS.ProcessEnv = {}) => runInProcess(args, { ...env, ...extra });
/** `sandbox start --detach ...` as a user types it: the built binary, whose sandbox outlives it. */
const detach = (args: string[]) => runCli(['sandbox', 'start', '--detach', ...args], env, { timeoutMs: 40_000 });

beforeAll(async () => {
  env = {
    UDCLI_DATA_DIR: dataDir,
    UDCLI_CONFIG_DIR: join(scratch, 'config'),
    UDCLI_SANDBOX_PORT: String(await closedPort()),
  };
  writeFileSync(
    racers,
    `games:
  - id: "8080"
    name: Racers
    keys:
      - api_key: ${RACERS_KEY}
        signing_secret: ${RACERS_SECRET}
users:
  - username: speedy
    plays: ["8080"]
  - username: drift
    plays: ["8080"]
`,
  );
  // The default database, with the demo data in it as a sandbox started on it leaves it: written, not a
  // detached sandbox started and stopped for it (the tests below start theirs).
  mkdirSync(dataDir, { recursive: true });
  await demoDatabaseAt(join(dataDir, 'sandbox.db'), 'seedFrom');
}, 90_000);

afterAll(async () => {
  await cli(['sandbox', 'stop']);
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

describe('udcli sandbox start --data on a database that holds something else', () => {
  it('refuses, naming what it holds and the two ways on; nothing changes', async () => {
    // In-process: the refusal comes before anything is detached (a start it failed to refuse would still detach one).
    const r = await cli(['sandbox', 'start', '--detach', '--data', racers]);
    expect(r.code).toBe(2);
    const [line, hint] = r.stderr.trimEnd().split('\n');
    expect(line).toBe(`udcli: ${join(dataDir, 'sandbox.db')} holds the demo data, not ${racers}; nothing was loaded`);
    expect(hint).toContain(`udcli sandbox start --data ${racers} --reset`);
    expect(hint).toContain('--db FILE');
    expect((await cli(['sandbox', 'status'])).code).toBe(1);
    // The built-in profile still follows the demo data (and remembers it for the next command).
    const user = await cli(['user', DEMO.user.username, '--json']);
    expect(user.code, user.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'profile-cache.json'), 'utf8'))).toMatchObject({
      db: join(dataDir, 'sandbox.db'),
      primary: { game_id: DEMO.game.id },
    });
    // With none running, that command started the sandbox in the background (issue 34): it says so, and stops like any.
    expect(user.stderr).toContain('started one in the background');
    expect((await cli(['sandbox', 'stop'])).code).toBe(0);
  }, 60_000);

  it('--reset replaces it; info, status, the play page, the profile and doctor follow the file', async () => {
    const r = await detach(['--data', racers, '--reset']);
    expect(r.code, r.stderr).toBe(0);
    url = r.stdout.trim();

    const info = await cli(['sandbox', 'info']);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(new RegExp(`holds +${racers.replaceAll('.', '\\.')} \\(sha256 [0-9a-f]{12}…\\)`));
    expect(info.stdout).toContain('8080  Racers');
    expect(info.stdout).toMatch(/speedy +[0-9a-f]{32}/);
    expect(info.stdout).not.toContain(DEMO.game.apiKey);
    expect(info.stdout).not.toContain(RACERS_KEY);
    expect(info.stdout).not.toContain(RACERS_SECRET);
    const status = await cli(['sandbox', 'status']);
    expect(status.stdout).toContain(`holds ${racers} (sha256 `);
    expect(status.stdout).toContain('users speedy, drift');

    const play = await (await fetch(`${url}/play/8080`)).text();
    expect(play).toContain('speedy');
    expect(play).not.toContain(DEMO.user.username);

    // The built-in profile: the file's game and key, with no configuration at all.
    const user = await cli(['user', 'speedy', '--json']);
    expect(user.code, user.stderr).toBe(0);
    expect(JSON.parse(user.stdout)).toMatchObject({ username: 'speedy' });
    // What it remembered of the demo data was not used: the database changed under it.
    const cacheFile = join(dataDir, 'profile-cache.json');
    expect(JSON.parse(readFileSync(cacheFile, 'utf8'))).toMatchObject({
      primary: { game_id: '8080', api_key: RACERS_KEY },
    });
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600);
    expect((await cli(['user', 'drift', '--json'])).code).toBe(0);
    const apiKeyCheck = (stdout: string) =>
      (JSON.parse(stdout) as Array<{ check: string; status: string; detail: string }>).find(
        (c) => c.check === 'api key',
      );
    expect(apiKeyCheck((await cli(['doctor'])).stdout)).toEqual({
      check: 'api key',
      status: 'ok',
      detail: '8080…2345 accepted',
    });
    // A key the sandbox does not hold: doctor says exactly that.
    const stranger = apiKeyCheck((await cli(['doctor'], { UDCLI_API_KEY: DEMO.game.apiKey })).stdout);
    expect(stranger?.status).toBe('fail');
    expect(stranger?.detail).toMatch(
      new RegExp(
        `^${DEMO.game.apiKey.slice(0, 4)}…${DEMO.game.apiKey.slice(-4)} refused: it is not a key of this sandbox, which holds ${racers.replaceAll('.', '\\.')} \\(sha256 [0-9a-f]{12}…\\) \\(games 8080\\): use one of its keys \\(udcli sandbox info\\), or put the demo back`,
      ),
    );
  }, 90_000);

  it('a database loaded from the same file keeps its state', async () => {
    expect((await cli(['sandbox', 'stop'])).code).toBe(0);
    const db = new Database(join(dataDir, 'sandbox.db'));
    db.prepare(
      "INSERT INTO users (uid, username, gender, created_on) VALUES ('00000000000000000000000000008080', 'kept_user', 'unspecified', 0)",
    ).run();
    db.close();
    const r = await detach(['--data', racers]);
    expect(r.code, r.stderr).toBe(0);
    url = r.stdout.trim();
    expect((await cli(['user', 'kept_user', '--json'])).code).toBe(0);
  }, 60_000);
});

describe('live reset', () => {
  it('between two test cases, with a client connected: the next request sees the state it was started with', async () => {
    const agent = new Agent({ connections: 1 });
    const get = (path: string) =>
      fetch(`${url}${API_PREFIX}${path}`, {
        // @ts-expect-error undici's dispatcher option is not in the DOM types
        dispatcher: agent,
      });
    expect((await get(`/users/kept_user.json?username=1&api_key=${RACERS_KEY}`)).status).toBe(200);
    // Test case 1 leaves a save behind.
    expect((await cli(['saves', 'set', 'speedy', 'slot1', '{"lap":3}'])).code).toBe(0);
    expect((await cli(['saves', 'list', 'speedy', '--json'])).stdout).toContain('slot1');
    // Between the cases: one call, from the test suite itself.
    const reset = await fetch(`${url}/_sandbox/reset`, {
      method: 'POST',
      // @ts-expect-error undici's dispatcher option is not in the DOM types
      dispatcher: agent,
    });
    expect(reset.status).toBe(200);
    expect(await reset.json()).toMatchObject({
      reset: true,
      origin: { kind: 'data', file: racers },
      games: ['8080'],
      users: 2,
    });
    // Test case 2, on the same client: the file's state, nothing of case 1.
    expect((await get(`/users/kept_user.json?username=1&api_key=${RACERS_KEY}`)).status).toBe(404);
    expect((await get(`/users/speedy.json?username=1&api_key=${RACERS_KEY}`)).status).toBe(200);
    expect((await cli(['saves', 'list', 'speedy', '--json'])).stdout).not.toContain('slot1');
    await agent.close();

    // The CLI resets the running sandbox too (to the demo, then back to the file).
    const demo = await cli(['sandbox', 'reset', '--seed', 'demo']);
    expect(demo.code, demo.stderr).toBe(0);
    expect(demo.stderr).toBe(`reset the sandbox at ${url}: it holds the demo data (2 games, 1500 users)\n`);
    expect((await cli(['user', DEMO.user.username, '--json'])).code).toBe(0);
    const back = await cli(['sandbox', 'reset', '--data', racers]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stderr).toContain(`it holds ${racers} (sha256 `);
    expect((await cli(['user', 'speedy', '--json'])).code).toBe(0);
  }, 120_000);

  it('the clock: advance, then clock set now and clock reset put it back on the real time', async () => {
    expect((await cli(['sandbox', 'clock', 'advance', '1d'])).stdout).toMatch(/\(offset \+86400 s\)/);
    expect((await cli(['sandbox', 'clock', 'set', 'now'])).stdout).toMatch(/\(offset \+0 s\)/);
    await cli(['sandbox', 'clock', 'advance', '2h']);
    const reset = await cli(['sandbox', 'clock', 'reset', '--json']);
    expect(reset.code, reset.stderr).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ offset_seconds: 0, moved_seconds: -7200 });
  }, 60_000);
});

describe('udcli sandbox exec', () => {
  it('a failing command is followed by the last request lines on stderr, and --log keeps them all', async () => {
    const log = join(scratch, 'requests.log');
    const script = `const b = process.env.UDCLI_BASE_URL; for (let i = 0; i < 25; i++) await fetch(b + '/services/rest/v1/users/nobody' + i + '.json?username=1&api_key=' + process.env.UDCLI_API_KEY); process.exit(3);`;
    const r = await cli(['sandbox', 'exec', '--log', log, '--', process.execPath, '--input-type=module', '-e', script]);
    expect(r.code).toBe(3);
    const lines = r.stderr.trimEnd().split('\n');
    const header = lines.findIndex((l) => l.startsWith('udcli: the command failed'));
    expect(lines[header]).toBe(
      `udcli: the command failed (exit 3); the sandbox's last 20 request lines; all of them in ${log}:`,
    );
    const tail = lines.slice(header + 1);
    expect(tail).toHaveLength(20);
    expect(tail[19]).toMatch(
      / GET \/services\/rest\/v1\/users\/nobody24\.json\?username=1&api_key=0123…cdef 404 [\d.]+ms not found/,
    );
    const kept = readFileSync(log, 'utf8').trimEnd().split('\n');
    expect(kept).toHaveLength(25);
    expect(kept.slice(-20)).toEqual(tail);
    expect(readFileSync(log, 'utf8')).not.toContain(DEMO.game.apiKey);
  }, 60_000);
});
