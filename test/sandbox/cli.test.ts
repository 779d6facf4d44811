/** `udcli sandbox ...` commands: options, start/stop/status (foreground and --detach), reset, info, seed. */
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/commands/sandbox/index.js';
import { parseExecOptions } from '../../src/cli/commands/sandbox/exec-options.js';
import { parseLatency, parseRateLimit } from '../../src/cli/commands/sandbox/options.js';
import { parseStartOptions } from '../../src/cli/commands/sandbox/start-options.js';
import { isAlive } from '../../src/cli/commands/sandbox/pidfile.js';
import { openDatabase } from '../../src/sandbox/database.js';
import { pidFilePath } from '../../src/sandbox/paths.js';
import { startSandbox } from '../../src/sandbox/server.js';
import { DEMO } from '../../src/domain/demo.js';
import { UdcliError, UsageError } from '../../src/errors.js';
import { testFactory, type TestFactory } from './helpers/factory.js';
import { tempDir } from './helpers/sandbox.js';
import { settled } from '../until.js';

const REGISTER_TS = fileURLToPath(new URL('./helpers/register-ts.mjs', import.meta.url));
const CLI_ENTRY = fileURLToPath(new URL('./helpers/cli-entry.ts', import.meta.url));
const CHILD_CLI = { command: process.execPath, args: ['--import', REGISTER_TS, CLI_ENTRY] };

let root: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  root = tempDir('udcli-cli-');
  env = { UDCLI_DATA_DIR: join(root, 'data') };
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Runs `udcli sandbox ARGS` through commander with a test factory. */
async function run(args: string[], factory: TestFactory = testFactory(env)): Promise<TestFactory> {
  const program = new Command('udcli').exitOverride();
  register(program, factory);
  await program.parseAsync(['sandbox', ...args], { from: 'user' });
  return factory;
}

describe('options', () => {
  it.each([
    [['start', '--port', 'abc'], /invalid --port "abc": expected an integer from 0 to 65535/],
    [['start', '--port', '70000'], /--port/],
    [['start', '--rate-limit', 'fast'], /--rate-limit must look like 10\/s/],
    [['start', '--rate-limit', '0/s'], /--rate-limit/],
    [['start', '--seed', 'lots'], /--seed must be demo or none/],
    [['start', '--token-ttl', '0'], /--token-ttl/],
    [['start', '--host', 'bad host'], /--host/],
    [['seed', '--users', '10', '--friends', '11'], /--friends \(11\) cannot be more than --users \(10\)/],
    [['seed', '--users', 'many'], /--users/],
    [['seed', '--seed', 'has space'], /--seed/],
    [['reset', '--db', ':memory:'], /nothing to reset/],
    [['reset', '--seed', 'x'], /--seed must be demo or none/],
  ])('udcli sandbox %j is a usage error before anything happens', async (args, message) => {
    const error = await run(args).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(message);
    expect(existsSync(join(root, 'data'))).toBe(false);
  });

  it('reads --latency as a duration from 0 to 10 s (ms when no unit), refusing anything else with one message', () => {
    expect(parseLatency(undefined)).toBe(0);
    expect(parseLatency('0')).toBe(0);
    expect(parseLatency('40ms')).toBe(40);
    expect(parseLatency('40')).toBe(40);
    expect(parseLatency('1.5s')).toBe(1500);
    expect(parseLatency('10s')).toBe(10_000);
    expect(parseStartOptions({ latency: '2s' }).latencyMs).toBe(2000);
    expect(parseExecOptions({ latency: '25ms' }).latencyMs).toBe(25);
    for (const bad of ['', 'fast', '-1', '10.5s', '10001ms', '1h', '40 min', '4e3']) {
      expect(() => parseLatency(bad), bad).toThrow(
        /^invalid --latency ".*": expected a duration like 40ms or 2s, from 0 to 10s$/,
      );
    }
  });

  it('reads rate limits as N/s or N, and defaults the rest', () => {
    expect(parseRateLimit('10/s')).toBe(10);
    expect(parseRateLimit('25')).toBe(25);
    expect(parseRateLimit('5 / sec')).toBe(5);
    expect(parseStartOptions({})).toEqual({
      port: 8787,
      host: '127.0.0.1',
      db: undefined,
      seed: 'demo',
      replace: false,
      tokenTtlSeconds: undefined,
      rateLimitPerSecond: undefined,
      detach: false,
      remote: false,
      latencyMs: 0,
      insecureGameHost: false,
      allowGameDirs: [],
    });
    expect(parseStartOptions({ host: '::1' }).remote).toBe(false);
    expect(parseStartOptions({ host: '127.0.0.2' }).remote).toBe(false);
    expect(() => parseStartOptions({ host: '192.168.1.20' })).toThrow(/would let other machines reach the sandbox/);
    expect(parseStartOptions({ host: '192.168.1.20', allowRemote: true }).remote).toBe(true);
    expect(parseStartOptions({ host: '0.0.0.0' }, {}, true).remote).toBe(true);
    // --public-url names another Host to answer (issue 21): other machines, so --allow-remote too.
    expect(() => parseStartOptions({ publicUrl: 'http://sandbox.example.com:8787' })).toThrow(
      /^--public-url http:\/\/sandbox.example.com:8787 would let other machines reach the sandbox/,
    );
    expect(parseStartOptions({ publicUrl: 'https://Sandbox.Example.com/', allowRemote: true })).toMatchObject({
      publicUrl: 'https://sandbox.example.com',
      remote: true,
      host: '127.0.0.1',
    });
    for (const bad of [
      'ftp://x.example',
      'sandbox.example.com',
      'http://u:p@x.example',
      'http://x.example/path',
      'http://x.example/?q=1',
    ]) {
      expect(() => parseStartOptions({ publicUrl: bad, allowRemote: true }), bad).toThrow(/^invalid --public-url/);
    }
    expect(parseStartOptions({}, { UDCLI_SANDBOX_PORT: '9090' }).port).toBe(9090);
    expect(parseStartOptions({ port: '0' }, { UDCLI_SANDBOX_PORT: '9090' }).port).toBe(0);
    expect(() => parseStartOptions({}, { UDCLI_SANDBOX_PORT: 'x' })).toThrow(UsageError);
    expect(parseStartOptions({ db: 'rel/x.db' }).db).toBe(join(process.cwd(), 'rel/x.db'));
  });
});

describe('nothing running', () => {
  it('status fails with a typed error and a hint', async () => {
    const error = await run(['status']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UdcliError);
    expect(error).not.toBeInstanceOf(UsageError);
    expect((error as UdcliError).message).toBe('the sandbox is not running');
    expect((error as UdcliError).hint).toMatch(/udcli sandbox start --detach/);
  });

  it('status --json still prints JSON, saying it is not running, and fails', async () => {
    const factory = testFactory(env);
    const error = await run(['status', '--json'], factory).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UdcliError);
    expect(JSON.parse(factory.stdout())).toEqual({ running: false, responding: false, pid: null, url: null });
  });

  it('stop is a no-op that says so', async () => {
    const f = await run(['stop']);
    expect(f.stderr()).toMatch(/no sandbox is running/);
  });

  it('info lists URLs, demo credentials, users, developer_ids and SKUs, as text and as JSON', async () => {
    const text = (await run(['info'])).stdout();
    for (const fact of [
      DEMO.game.apiKey,
      DEMO.game.signingSecret,
      DEMO.partner.apiKey,
      DEMO.secondGame.apiKey,
      'gems:100',
      'dragon-mount',
      'demo_player',
      DEMO.user.uid,
      'FIRST_WIN',
      'COLLECT_1000_GEMS',
      'gold-pack_10',
      'sword-of-dawn',
      'xp-boost',
      'http://127.0.0.1:8787',
    ]) {
      expect(text).toContain(fact);
    }
    expect(text).toMatch(/not running/);
    // Which signing each game accepts; a secret only where hmac-sha256-v1 is accepted.
    expect(text).toMatch(
      /1001 {2}Demo Quest \(launchable\)\n {8}api_key {9}\S+\n {8}signing {9}agi or hmac-sha256-v1\n {8}signing secret {2}\S+ \(hmac-sha256-v1\)/,
    );
    expect(text).toMatch(/1002 {2}Puzzle Lab\n {8}api_key {9}\S+\n {8}signing {9}agi\n {2}partner/);
    const json = JSON.parse((await run(['info', '--json'])).stdout()) as Record<string, unknown>;
    expect(json).toMatchObject({
      running: false,
      url: 'http://127.0.0.1:8787',
      database: join(root, 'data', 'sandbox.db'),
      games: expect.arrayContaining([
        expect.objectContaining({
          id: '1001',
          api_key: DEMO.game.apiKey,
          signing_secret: DEMO.game.signingSecret,
          launchable: true,
        }),
      ]),
      partner: expect.objectContaining({ api_key: DEMO.partner.apiKey }),
      users: expect.arrayContaining([expect.objectContaining({ username: 'demo_player', uid: DEMO.user.uid })]),
      products: expect.arrayContaining([expect.objectContaining({ sku: 'sword-of-dawn' })]),
    });
    // The global --json (consumed by the root program) works too.
    const global = await run(['info'], testFactory(env, { output: 'json' }));
    expect(JSON.parse(global.stdout())).toMatchObject({ running: false });
  });

  it('info loads neither fastify nor SQLite', async () => {
    const log = join(root, 'loaded.txt');
    const child = spawn(process.execPath, ['--import', REGISTER_TS, CLI_ENTRY, 'sandbox', 'info', '--json'], {
      env: { ...process.env, ...env, UDCLI_TEST_LOAD_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ running: false });
    const loaded = readFileSync(log, 'utf8');
    expect(loaded).toContain('/src/cli/commands/sandbox/info.ts');
    expect(loaded).not.toMatch(/fastify|better-sqlite3|\/src\/sandbox\/(server|app|database|sqlite-driver)\.ts/);
  });
});

describe('logs', () => {
  it('loads neither fastify nor SQLite, nor the start command', async () => {
    const dataDir = join(root, 'logs-data');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(
      join(dataDir, 'sandbox.log'),
      'http://127.0.0.1:1\n2026-11-22T22:00:00.000Z GET /x 404 0.1ms not found: path /x\n',
    );
    const log = join(root, 'logs-loaded.txt');
    const child = spawn(process.execPath, ['--import', REGISTER_TS, CLI_ENTRY, 'sandbox', 'logs', '--json'], {
      env: { ...process.env, UDCLI_DATA_DIR: dataDir, UDCLI_TEST_LOAD_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({
      time: '2026-11-22T22:00:00.000Z',
      method: 'GET',
      path: '/x',
      query: '',
      body: '',
      status: 404,
      ms: 0.1,
      reason: 'not found: path /x',
    });
    const loaded = readFileSync(log, 'utf8');
    expect(loaded).toContain('/src/cli/commands/sandbox/logs.ts');
    expect(loaded).not.toMatch(
      /fastify|better-sqlite3|\/src\/sandbox\/(server|app|database|sqlite-driver)\.ts|commands\/sandbox\/start\.ts/,
    );
  });
});

describe('logs, read from the file', () => {
  const line = (i: number) =>
    `2026-11-22T22:00:00.000Z GET /p${i}?uid=${'u'.repeat(40)} 404 0.1ms not found: path /p${i}`;

  it('a log bigger than one read, with multi-byte characters across reads and an unended last line, prints exactly', async () => {
    const dataDir = join(root, 'logs-big');
    mkdirSync(dataDir, { recursive: true });
    const text = `${Array.from({ length: 2000 }, (_, i) => `${line(i)} é€😀`).join('\n')}\nhalf a line`;
    writeFileSync(join(dataDir, 'sandbox.log'), text);
    const factory = testFactory({ UDCLI_DATA_DIR: dataDir });
    const { logsCommand } = await import('../../src/cli/commands/sandbox/logs.js');
    await logsCommand(factory, { lines: 'all' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(factory.stdout()).toBe(`${text}\n`);
    // Like tail: the last 10 by default, -n N, the unended last line counted.
    const last = testFactory({ UDCLI_DATA_DIR: dataDir });
    await logsCommand(last, {});
    expect(last.stdout()).toBe(`${text.split('\n').slice(-10).join('\n')}\n`);
    const three = testFactory({ UDCLI_DATA_DIR: dataDir });
    await logsCommand(three, { lines: '3' });
    expect(three.stdout().split('\n')).toHaveLength(4);
  });

  it('--follow prints appended lines, and the whole file again when it is truncated or replaced', async () => {
    const dataDir = join(root, 'logs-follow');
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'sandbox.log');
    writeFileSync(file, `${line(1)}\n`);
    const factory = testFactory({ UDCLI_DATA_DIR: dataDir });
    const { logsCommand } = await import('../../src/cli/commands/sandbox/logs.js');
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = logsCommand(factory, { follow: true, json: true }, { waitForStop: () => stopped, pollMs: 10 });
    const seen = async (n: number) => {
      await settled(
        () => factory.stdout().trimEnd().split('\n').filter(Boolean).length,
        (count) => count >= n,
        { timeoutMs: 5000, intervalMs: 10 },
      );
      return factory
        .stdout()
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { path: string }).path);
    };
    expect(await seen(1)).toEqual(['/p1']);
    appendFileSync(file, `${line(2)}\nnot a request line\n${line(3).slice(0, 30)}`);
    expect(await seen(2)).toEqual(['/p1', '/p2']);
    appendFileSync(file, `${line(3).slice(30)}\n`);
    expect(await seen(3)).toEqual(['/p1', '/p2', '/p3']);
    writeFileSync(file, `${line(4)}\n`); // truncated and written again
    expect(await seen(4)).toEqual(['/p1', '/p2', '/p3', '/p4']);
    // Replaced by another file (as log rotation does), longer than what was read of the old one.
    writeFileSync(`${file}.new`, `${line(5)}\n${line(6)}\n${line(7)}\n${line(8)}\n${line(9)}\n`);
    renameSync(`${file}.new`, file);
    expect(await seen(9)).toEqual(['/p1', '/p2', '/p3', '/p4', '/p5', '/p6', '/p7', '/p8', '/p9']);
    stop();
    await running;
  });
});

describe('foreground start', () => {
  it('serves until asked to stop, records itself for status/info/reset, then closes and cleans up', async () => {
    const factory = testFactory(env);
    const dbPath = join(root, 'fg.db');
    const { startCommand } = await import('../../src/cli/commands/sandbox/start.js');
    let seen: { url: string; status: string; info: Record<string, unknown>; reset: string } | undefined;
    await startCommand(
      factory,
      { port: '0', db: dbPath, rateLimit: '100/s' },
      {
        waitForStop: async (sandbox) => {
          const user = await fetch(`${sandbox.url}/services/rest/v1/users/${DEMO.user.uid}.json`);
          expect(user.status).toBe(200);
          seen = {
            url: sandbox.url,
            status: (await run(['status'])).stdout(),
            info: JSON.parse((await run(['info', '--json'])).stdout()) as Record<string, unknown>,
            // Reset live (issue 23): the running sandbox's database is put back in place.
            reset: (await run(['reset', '--db', dbPath])).stderr(),
          };
        },
      },
    );
    expect(seen).toBeDefined();
    // The URL first, then the request log (issue 11): the requests made, written before the sandbox closed
    // (info asks the running sandbox what it serves each game from).
    const [urlLine, ...requestLines] = factory.stdout().trimEnd().split('\n');
    expect(urlLine).toBe(seen!.url);
    expect(requestLines, requestLines.join('\n')).toHaveLength(3);
    expect(requestLines[0]).toMatch(new RegExp(` GET /services/rest/v1/users/${DEMO.user.uid}\\.json 200 [\\d.]+ms$`));
    expect(requestLines[1]).toMatch(/ GET \/_sandbox\/game-sources 200 [\d.]+ms$/);
    expect(requestLines[2]).toMatch(/ POST \/_sandbox\/reset 200 [\d.]+ms$/);
    expect(factory.stderr()).toContain(DEMO.game.apiKey);
    expect(factory.stderr()).toContain(DEMO.game.signingSecret);
    expect(seen!.status).toContain(`running at ${seen!.url} (pid ${process.pid}`);
    expect(seen!.info).toMatchObject({ running: true, url: seen!.url, pid: process.pid, database: dbPath });
    expect(seen!.reset).toContain(`reset the sandbox at ${seen!.url}: it holds the demo data (2 games, 1500 users)`);
    // Closed: the port no longer answers, the pid file is gone, the data is on disk.
    await expect(fetch(`${seen!.url}/_sandbox/status`)).rejects.toThrow();
    expect(existsSync(pidFilePath(env))).toBe(false);
    const db = openDatabase(dbPath);
    expect(db.repos.users.count()).toBe(1500);
    db.close();
  });
});

describe('reset and seed', () => {
  it('reset recreates the database with the demo data', async () => {
    const dbPath = join(root, 'reset.db');
    const db = openDatabase(dbPath);
    db.sqlite.exec("INSERT INTO games (id, name, created_on) VALUES ('junk', 'Junk', 0)");
    db.close();
    const f = await run(['reset', '--db', dbPath]);
    expect(f.stderr()).toMatch(/recreated .*reset\.db with the demo data/);
    const fresh = openDatabase(dbPath);
    expect(fresh.repos.games.find('junk')).toBeUndefined();
    expect(fresh.repos.users.count()).toBe(1500);
    fresh.close();
    await run(['reset', '--db', dbPath, '--seed', 'none']);
    const empty = openDatabase(dbPath);
    expect(empty.isEmpty()).toBe(true);
    empty.close();
  });

  it('seed adds generated data (demo data first on a new database) and prints a summary', async () => {
    const dbPath = join(root, 'seed.db');
    const f = await run([
      'seed',
      '--db',
      dbPath,
      '--users',
      '300',
      '--friends',
      '250',
      '--achievements',
      '4',
      '--products',
      '2',
      '--seed',
      'abc',
    ]);
    expect(f.stdout()).toMatch(/demo data first/);
    expect(f.stdout()).toMatch(/genabc_hub .* with 250 friends/);
    const db = openDatabase(dbPath);
    expect(db.repos.users.count()).toBe(1500 + 301);
    expect(db.repos.users.findByUsername('genabc_hub')).toBeDefined();
    db.close();
    const json = JSON.parse(
      (await run(['seed', '--db', dbPath, '--users', '10', '--friends', '0', '--seed', 'x2', '--json'])).stdout(),
    ) as Record<string, unknown>;
    expect(json).toMatchObject({ demo_seeded: false, users: 10, friends: 0, hub: { username: 'genx2_hub' } });
  });
});

describe('the data directory udcli creates', () => {
  const mode = (path: string) => statSync(path).mode & 0o777;

  it('is 0700, like the config directory, whichever command creates it: reset, seed, load, start', async () => {
    const base = join(root, 'private');
    const dataDir = join(base, 'a', 'data');
    await run(['reset'], testFactory({ UDCLI_DATA_DIR: dataDir }));
    expect(existsSync(join(dataDir, 'sandbox.db'))).toBe(true);
    expect([mode(dataDir), mode(join(base, 'a'))]).toEqual([0o700, 0o700]);
    await run(['seed', '--db', join(base, 'seeded', 'x.db'), '--users', '1', '--friends', '0']);
    expect(mode(join(base, 'seeded'))).toBe(0o700);
    const file = join(root, 'tiny.yaml');
    writeFileSync(file, 'users:\n  - username: tiny\n');
    await run(['load', file, '--db', join(base, 'loaded', 'x.db')]);
    expect(mode(join(base, 'loaded'))).toBe(0o700);
    const sandbox = await startSandbox({
      port: 0,
      host: '127.0.0.1',
      dbPath: join(base, 'started', 'x.db'),
      seed: 'none',
    });
    await sandbox.close();
    expect(mode(join(base, 'started'))).toBe(0o700);
  });
});

describe('--detach', () => {
  it('starts in the background, answers, and status, info, reset and stop work against it', async () => {
    const dbPath = join(root, 'detached.db');
    const { startCommand } = await import('../../src/cli/commands/sandbox/start.js');
    const factory = testFactory(env);
    await startCommand(factory, { port: '0', db: dbPath, detach: true, tokenTtl: '60' }, { cli: CHILD_CLI });
    const url = factory.stdout().trim();
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const record = JSON.parse(readFileSync(pidFilePath(env), 'utf8')) as {
      pid: number;
      url: string;
      db: string;
      detached: boolean;
    };
    expect(record).toMatchObject({ url, db: dbPath, detached: true });
    expect(record.pid).not.toBe(process.pid);
    try {
      expect((await fetch(`${url}/services/rest/v1/users/${DEMO.user.uid}.json`)).status).toBe(200);
      expect((await run(['status'])).stdout()).toContain(`running at ${url} (pid ${record.pid}, detached`);
      const statusJson = JSON.parse((await run(['status', '--json'])).stdout()) as Record<string, unknown>;
      expect(statusJson).toMatchObject({ running: true, pid: record.pid, url });
      expect((await run(['reset', '--db', dbPath])).stderr()).toContain('reset the sandbox at');
      // Beside it on another port is allowed (issue 53); under its own name, refused.
      const again = await startCommand(
        testFactory(env),
        { port: '0', detach: true, name: 'default' },
        { cli: CHILD_CLI },
      ).catch((e: unknown) => e);
      expect(again).toBeInstanceOf(UsageError);
      expect((again as Error).message).toMatch(/already running/);
    } finally {
      const stopped = await run(['stop']);
      expect(stopped.stderr()).toContain(`stopped the sandbox at ${url} (pid ${record.pid})`);
    }
    expect(isAlive(record.pid)).toBe(false);
    expect(existsSync(pidFilePath(env))).toBe(false);
    await expect(run(['status'])).rejects.toThrow('the sandbox is not running');
    expect(readFileSync(join(root, 'data', 'sandbox.log'), 'utf8')).toContain(`udcli sandbox listening on ${url}`);
  });

  it('refuses a port another sandbox holds before a child is started, naming it', async () => {
    const { startSandbox } = await import('../../src/sandbox/server.js');
    const blocker = await startSandbox({ port: 0, dbPath: ':memory:' });
    try {
      const { startCommand } = await import('../../src/cli/commands/sandbox/start.js');
      const error = await startCommand(
        testFactory(env),
        { port: String(blocker.port), db: ':memory:', detach: true },
        { cli: CHILD_CLI },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UdcliError).message).toBe(
        `cannot start a sandbox on 127.0.0.1:${blocker.port}: another sandbox (pid ${process.pid}) answers there; nothing was changed`,
      );
      expect(existsSync(pidFilePath(env))).toBe(false);
    } finally {
      await blocker.close();
    }
  });

  it('reports a child that cannot start, with the log in the hint', async () => {
    const { startCommand } = await import('../../src/cli/commands/sandbox/start.js');
    const failing = {
      command: process.execPath,
      args: ['-e', 'console.error("the child could not listen"); process.exit(3)', '--'],
    };
    const error = await startCommand(
      testFactory(env),
      { port: '0', db: ':memory:', detach: true },
      { cli: failing },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UdcliError);
    expect((error as UdcliError).message).toMatch(/did not start: it exited during start-up \(exit code 3\)/);
    expect((error as UdcliError).hint).toMatch(/the child could not listen/);
    expect(existsSync(pidFilePath(env))).toBe(false);
  });
});
