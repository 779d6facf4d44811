/**
 * The CLI core: help, version, usage errors, profiles and config, doctor, the embedded-sandbox
 * fallback (main in-process), and a closed stdout (the built binary: needs `npm run build`).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '../fixtures.js';
import { COMMANDS } from '../../src/cli/commands.js';
import { DEMO } from '../../src/domain/demo.js';
import { BIN, closedPort, json, runInProcess, type CliResult, type TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const root = fileScratch('udcli-core-');
let n = 0;
/** A fresh, empty config directory and data directory. */
function dirs(): { UDCLI_CONFIG_DIR: string; UDCLI_DATA_DIR: string } {
  n++;
  return { UDCLI_CONFIG_DIR: join(root, `config-${n}`), UDCLI_DATA_DIR: join(root, `data-${n}`) };
}

describe('help, version and usage errors', () => {
  it('--version prints the version and exits 0', async () => {
    expect(await runInProcess(['--version'], dirs())).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  it('--help lists every command with its summary, and an example', async () => {
    const r = await runInProcess(['--help'], dirs());
    expect(r.code).toBe(0);
    for (const c of COMMANDS.filter((c) => !c.hidden)) expect(r.stdout).toMatch(new RegExp(`^  ${c.name} +\\S`, 'm'));
    expect(r.stdout).toContain('Examples:\n  $ udcli user demo_player');
    expect(r.stderr).toBe('');
  });

  it('an unknown command exits 2 with one line and a suggestion', async () => {
    expect(await runInProcess(['frends', DEMO.user.uid], dirs())).toEqual({
      code: 2,
      stdout: '',
      stderr: "udcli: unknown command 'frends' (did you mean friends?)\n",
    });
  });

  it('an unknown option exits 2 with one line', async () => {
    const r = await runInProcess(['profile', 'list', '--colour'], dirs());
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')).toEqual([expect.stringMatching(/^udcli: unknown option '--colour'/), '']);
  });
});

describe('profiles and config', () => {
  const API_KEY = 'B84276AA-5397-4B89-A8BA-0F16FFB7566F';
  const API_KEY_HEX = 'b84276aa53974b89a8ba0f16ffb7566f';
  const SECRET = 'live-signing-secret-do-not-print';
  const env = dirs();
  const outputs: CliResult[] = [];
  async function udcli(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> {
    const r = await runInProcess(args, { ...env, ...extra });
    outputs.push(r);
    return r;
  }

  afterAll(() => {
    // secrets never appear in full in anything printed
    for (const r of outputs) {
      for (const secret of [API_KEY, API_KEY_HEX, SECRET, DEMO.game.apiKey, DEMO.game.signingSecret]) {
        expect(r.stdout).not.toContain(secret);
        expect(r.stderr).not.toContain(secret);
      }
    }
  });

  it('round trip: add, list, use, show, remove', async () => {
    let r = await udcli([
      'profile',
      'add',
      'live',
      '--base-url',
      'https://api.example.com/',
      '--api-key',
      API_KEY,
      '--signing-secret',
      SECRET,
      '--game-id',
      '1002',
      '--production',
    ]);
    expect(r, r.stderr).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toContain('Added profile live');

    const file = join(env.UDCLI_CONFIG_DIR, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, Record<string, unknown>> };
    expect(stored.profiles.live).toEqual({
      base_url: 'https://api.example.com',
      api_key: API_KEY_HEX,
      signing_secret: SECRET,
      game_id: '1002',
      production: true,
    });

    r = await udcli(['profile', 'list', '--json']);
    expect(json(r)).toEqual([
      {
        name: 'sandbox',
        active: true,
        builtin: true,
        base_url: 'http://127.0.0.1:8787',
        game_id: '1001',
        production: false,
      },
      {
        name: 'live',
        active: false,
        builtin: false,
        base_url: 'https://api.example.com',
        game_id: '1002',
        production: true,
      },
    ]);

    r = await udcli(['profile', 'use', 'live']);
    expect(r.code).toBe(0);
    r = await udcli(['profile', 'list', '-o', 'table']);
    expect(r.stdout).toMatch(/^\*\s+live\s+https:\/\/api\.example\.com\s+1002\s+yes$/m);
    expect(r.stdout).toMatch(/^\s+sandbox\s+http:\/\/127\.0\.0\.1:8787\s+1001$/m);

    r = await udcli(['profile', 'show', '--json'], { UDCLI_GAME_ID: '1001' });
    expect(json(r)).toMatchObject({
      name: 'live',
      active: true,
      base_url: 'https://api.example.com',
      api_key: 'b842…566f',
      signing_secret: 'live…rint',
      game_id: '1001',
      production: true,
      sources: { base_url: 'profile', api_key: 'profile', game_id: 'env UDCLI_GAME_ID', signing_scheme: 'default' },
    });
    r = await udcli(['profile', 'show', '-o', 'table', '--api-key', DEMO.game.apiKey]);
    expect(r.stdout).toMatch(/^api_key\s+0123…cdef {2}\(flag --api-key\)$/m);
    expect(r.stdout).toMatch(/^signing_secret\s+live…rint {2}\(profile\)$/m);

    r = await udcli(['profile', 'show', 'sandbox', '--json']);
    expect(json(r)).toMatchObject({
      name: 'sandbox',
      active: false,
      api_key: '0123…cdef',
      signing_secret: 'sand…0001',
    });
    expect(json<Record<string, unknown>>(r).sources).toBeUndefined();

    r = await udcli(['profile', 'remove', 'sandbox']);
    expect(r.code).toBe(2);
    r = await udcli(['profile', 'remove', 'live']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('The active profile is now sandbox');
    r = await udcli(['profile', 'show', '--json']);
    expect(json(r)).toMatchObject({ name: 'sandbox', active: true, builtin: true });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('refuses invalid values naming the key, and writes nothing', async () => {
    const e = dirs();
    let r = await runInProcess(['profile', 'add', 'x', '--base-url', 'https://x.example.com', '--type', 'App'], e);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'udcli: invalid --type "App": expected Game or Website\n' });
    r = await runInProcess(['profile', 'add', 'x', '--game-id', '1'], e);
    expect(r).toEqual({ code: 2, stdout: '', stderr: 'udcli: profile add needs --base-url URL (or --from-sandbox)\n' });
    r = await runInProcess(['config', 'set', 'base_url', 'not-a-url'], e);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^udcli: invalid base_url "not-a-url"/);
    expect(() => statSync(join(e.UDCLI_CONFIG_DIR, 'config.json'))).toThrow();
  });

  it('--from-sandbox fills in the sandbox URL and the demo credentials', async () => {
    const e = dirs();
    const r = await runInProcess(
      ['profile', 'add', 'local', '--from-sandbox', '--base-url', 'http://127.0.0.1:9000'],
      e,
    );
    expect(r.code, r.stderr).toBe(0);
    const stored = JSON.parse(readFileSync(join(e.UDCLI_CONFIG_DIR, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
    };
    expect(stored.profiles.local).toEqual({
      base_url: 'http://127.0.0.1:9000',
      site_url: 'http://127.0.0.1:9000',
      api_key: DEMO.game.apiKey,
      signing_secret: DEMO.game.signingSecret,
      signing_scheme: 'agi',
      game_id: DEMO.game.id,
      type: 'Game',
    });
  });

  it('config get, set, unset and path act on the active profile', async () => {
    let r = await udcli(['config', 'path']);
    expect(r).toEqual({ code: 0, stdout: `${join(env.UDCLI_CONFIG_DIR, 'config.json')}\n`, stderr: '' });

    r = await udcli(['config', 'get', 'game_id']);
    expect(r.stdout).toBe('1001\n');
    r = await udcli(['config', 'set', 'game_id', '1002']);
    expect(r.code).toBe(0);
    expect((await udcli(['config', 'get', 'game-id'])).stdout).toBe('1002\n');

    r = await udcli(['config', 'set', 'api_key', API_KEY]);
    expect(r.code).toBe(0);
    expect((await udcli(['config', 'get', 'api_key'])).stdout).toBe('b842…566f\n');

    r = await runInProcess(['config', 'set', 'signing_secret', '-'], env, { input: `${SECRET}\n` });
    outputs.push(r);
    expect(r.code, r.stderr).toBe(0);
    expect((await udcli(['config', 'get', 'signing_secret'])).stdout).toBe('live…rint\n');

    r = await udcli(['config', 'get', 'base_url'], { UDCLI_BASE_URL: 'http://127.0.0.1:1' });
    expect(r).toEqual({ code: 0, stdout: 'http://127.0.0.1:1\n', stderr: '(env UDCLI_BASE_URL)\n' });

    r = await udcli(['config', 'unset', 'game_id']);
    expect(r.code).toBe(0);
    expect((await udcli(['config', 'get', 'game_id'])).stdout).toBe('1001\n');
    await udcli(['config', 'unset', 'api_key']);
    await udcli(['config', 'unset', 'signing_secret']);
    const stored = JSON.parse(readFileSync(join(env.UDCLI_CONFIG_DIR, 'config.json'), 'utf8')) as {
      profiles: Record<string, unknown>;
    };
    expect(stored.profiles.sandbox).toBeUndefined();

    r = await udcli(['config', 'get', 'colour']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^udcli: unknown key "colour"; keys: base_url, /);
  });

  it('a config file that does not parse is reported, named, and left as it was', async () => {
    const e = dirs();
    await runInProcess(['config', 'set', 'game_id', '5'], e);
    const file = join(e.UDCLI_CONFIG_DIR, 'config.json');
    writeFileSync(file, '{"profiles": ');
    for (const args of [
      ['profile', 'list'],
      ['config', 'set', 'game_id', '6'],
      ['user', 'demo_player'],
    ]) {
      const r = await runInProcess(args, e);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`udcli: config file ${file} is not valid JSON`);
    }
    expect(readFileSync(file, 'utf8')).toBe('{"profiles": ');
  });
});

describe('a malformed api key is refused before anything is sent', () => {
  let server: Server;
  const seen: IncomingMessage[] = [];
  let url = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it.each([
    [
      ['user', DEMO.user.uid, '--api-key', 'not-a-key'],
      {},
      /^udcli: invalid --api-key .*: expected 32 hex digits or a UUID\n$/,
    ],
    [
      ['user', DEMO.user.uid],
      { UDCLI_API_KEY: '0123456789abcdef' },
      /^udcli: invalid UDCLI_API_KEY .*: expected 32 hex digits or a UUID\n$/,
    ],
  ])('%j %j', async (args, extra, stderr) => {
    const r = await runInProcess(args, { ...dirs(), UDCLI_BASE_URL: url, ...extra });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(stderr);
    expect(seen).toHaveLength(0);
  });
});

describe('doctor', () => {
  let env: TestEnv;
  beforeAll(async ({ newSandbox }) => {
    env = await newSandbox();
  });

  interface Check {
    check: string;
    status: string;
    detail: string;
  }

  it('passes against a running sandbox', async () => {
    const r = await env.run(['doctor']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const checks = json<Check[]>(r);
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ['config file', 'ok'],
      ['profile', 'ok'],
      ['server', 'ok'],
      ['api key', 'ok'],
      ['game', 'ok'],
      ['signing', 'ok'],
      ['clock', 'ok'],
    ]);
    expect(checks[1]!.detail).toBe(
      'sandbox: base_url from env UDCLI_BASE_URL; site_url from env UDCLI_SITE_URL; api_key from env UDCLI_API_KEY; ' +
        'signing_secret from env UDCLI_SIGNING_SECRET; signing_scheme, verb_override, type, production, require_reason from default; game_id from env UDCLI_GAME_ID',
    );
    expect(r.stdout).not.toContain(DEMO.game.apiKey);

    const table = await env.run(['doctor', '-o', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/^✓ server +http:\/\/127\.0\.0\.1:\d+ answered in \d+ ms \(HTTP 200\)$/m);
    expect(table.stdout).toMatch(/^✓ api key +0123…cdef accepted$/m);
    expect(table.stdout).toMatch(
      /^✓ game +the key acts on game 1001, the profile's game_id \(from env UDCLI_GAME_ID\)$/m,
    );
  });

  it('fails on an api key the server refuses', async () => {
    const r = await env.run(['doctor', '-o', 'table'], { env: { UDCLI_API_KEY: 'ffffffffffffffffffffffffffffffff' } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^✗ api key +ffff…ffff refused: /m);
    // The server is a sandbox: doctor says the key is not one of its keys (issue 23).
    expect(r.stdout).toMatch(/refused: it is not a key of this sandbox, which holds /);
    expect(r.stderr).toBe('udcli: doctor: 1 of 7 checks failed\n');
  });

  it('fails against a closed port', async () => {
    const port = await closedPort();
    const r = await runInProcess(['doctor', '-o', 'table'], { ...dirs(), UDCLI_BASE_URL: `http://127.0.0.1:${port}` });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(new RegExp(`^✗ server +http://127\\.0\\.0\\.1:${port}: ECONNREFUSED$`, 'm'));
    expect(r.stdout).toMatch(/^- api key +server not reachable$/m);
    expect(r.stderr).toBe('udcli: doctor: 1 of 7 checks failed\n');
  });
});

describe('doctor against a server that never answers', () => {
  it('reports the timeout and exits 1', async () => {
    const sockets: Socket[] = [];
    const silent = createTcpServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const r = await runInProcess(['doctor', '-o', 'table', '--timeout', '300'], {
        ...dirs(),
        UDCLI_BASE_URL: `http://127.0.0.1:${port}`,
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(new RegExp(`^✗ server +http://127\\.0\\.0\\.1:${port}: no reply within 300 ms$`, 'm'));
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});

describe('the sandbox of the built-in profile when none runs', () => {
  it('is started in the background on first use, serves the next commands, and shows in status until stopped', async () => {
    const port = await closedPort();
    const e = { ...dirs(), UDCLI_SANDBOX_PORT: String(port) };
    try {
      const r = await runInProcess(['user', DEMO.user.username], e);
      expect(r.code, r.stderr).toBe(0);
      expect(json<{ uid: string; username: string }>(r)).toMatchObject({
        uid: DEMO.user.uid,
        username: DEMO.user.username,
      });
      expect(json<{ avatar: string }>(r).avatar).toBe(`http://127.0.0.1:${port}/avatars/${DEMO.user.uid}.svg?size=96`);
      const db = join(e.UDCLI_DATA_DIR, 'sandbox.db');
      expect(r.stderr).toMatch(
        new RegExp(
          `^udcli: no sandbox on 127\\.0\\.0\\.1:${port}; started one in the background \\(pid (\\d+), data: ${db.replace(/[.\\/]/g, '\\$&')}\\); it serves the next commands too; stop it with: UDCLI_DATA_DIR=${e.UDCLI_DATA_DIR.replace(/[.\\/]/g, '\\$&')} udcli sandbox stop --port ${port}\n$`,
        ),
      );
      const pid = Number(/pid (\d+)/.exec(r.stderr)?.[1]);
      expect(statSync(db).isFile()).toBe(true);
      // The data directory this first command made holds the signing secrets: its owner's only (issue 40, 8).
      expect(statSync(e.UDCLI_DATA_DIR).mode & 0o777).toBe(0o700);

      // The next command finds it running: nothing started, nothing said.
      const next = await runInProcess(['user', DEMO.user.username], e);
      expect(next.code, next.stderr).toBe(0);
      expect(next.stderr).toBe('');

      const status = await runInProcess(['sandbox', 'status'], e);
      expect(status.code, status.stderr).toBe(0);
      expect(status.stdout).toMatch(
        new RegExp(`^running at http://127\\.0\\.0\\.1:${port} \\(pid ${pid}, detached, `, 'm'),
      );

      const doctor = await runInProcess(['doctor', '-o', 'table'], e);
      expect(doctor.code, doctor.stdout + doctor.stderr).toBe(0);
      expect(doctor.stdout).toMatch(/^✓ server +/m);
      expect(doctor.stdout).toMatch(/^✓ api key +0123…cdef accepted$/m);
    } finally {
      const stop = await runInProcess(['sandbox', 'stop'], e);
      expect(stop.code, stop.stderr).toBe(0);
    }
    const after = await runInProcess(['sandbox', 'status'], e);
    expect(after.stderr).toMatch(/the sandbox is not running/);
  });

  it('falls back to an embedded one for the command when it cannot start one in the background', async () => {
    const port = await closedPort();
    const e = { ...dirs(), UDCLI_SANDBOX_PORT: String(port) };
    // The detached sandbox's log cannot be opened (a directory where the file goes): no start.
    mkdirSync(join(e.UDCLI_DATA_DIR, 'sandbox.log'), { recursive: true });
    try {
      const r = await runInProcess(['user', DEMO.user.username], e);
      expect(r.code, r.stderr).toBe(0);
      expect(json<{ uid: string }>(r).uid).toBe(DEMO.user.uid);
      // Its URLs name the profile's sandbox URL, not the embedded one's throw-away port.
      expect(json<{ avatar: string }>(r).avatar).toBe(`http://127.0.0.1:${port}/avatars/${DEMO.user.uid}.svg?size=96`);
      expect(r.stderr).toBe(
        `udcli: no sandbox on 127.0.0.1:${port}; using an embedded one (data: ${join(e.UDCLI_DATA_DIR, 'sandbox.db')})\n`,
      );

      const quiet = await runInProcess(['user', DEMO.user.username, '-q'], e);
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe('');
      expect((await runInProcess(['sandbox', 'status'], e)).stderr).toMatch(/the sandbox is not running/);
    } finally {
      // Should one have started after all, it does not outlive the test.
      await runInProcess(['sandbox', 'stop'], e);
    }
  });

  it('is not used once base_url is overridden: the error hints at starting one', async () => {
    const port = await closedPort();
    const r = await runInProcess(['user', DEMO.user.username], {
      ...dirs(),
      UDCLI_BASE_URL: `http://127.0.0.1:${port}`,
      UDCLI_DATA_DIR: join(root, 'unused'),
    });
    expect(r.code).toBe(5);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^udcli: /);
    expect(lines[1]).toBe('start one with: udcli sandbox start');
    expect(() => statSync(join(root, 'unused'))).toThrow();
  });
});

describe('a reader that goes away', () => {
  let env: TestEnv;
  beforeAll(async ({ newSandbox }) => {
    env = await newSandbox();
  });

  it('`friends --all | head -1` ends quietly with exit 0', async () => {
    // The binary: a pipe its reader closes, and the exit code of the process that wrote to it.
    const child = spawn(process.execPath, [BIN, 'friends', DEMO.user.uid, '--all', '-o', 'ndjson'], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const first = await new Promise<string>((resolve) => {
      child.stdout.setEncoding('utf8').once('data', (d: string) => {
        resolve(d.split('\n')[0]!);
        child.stdout.destroy();
      });
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(JSON.parse(first)).toHaveProperty('uid');
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
