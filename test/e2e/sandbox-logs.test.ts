/**
 * The request log as a user sees it (issue 11): a detached sandbox writes one line per request
 * to its log file, `udcli sandbox logs` shows it (`--json`: the request lines as JSON,
 * `--follow`: what is appended, until Ctrl-C), and a foreground sandbox prints the same lines
 * on stdout after its URL. The built binary against real sandboxes; no secret in full anywhere.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { API_PREFIX } from '../../src/domain/types.js';
import { BIN, DEMO_SECRETS, runInProcess } from './harness.js';
import { until } from '../until.js';

const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-logs-'));
const env = { UDCLI_DATA_DIR: join(scratch, 'data'), UDCLI_CONFIG_DIR: join(scratch, 'config') };
let url = '';

const USER_PATH = `${API_PREFIX}/users/${DEMO.user.uid}.json`;
const SIGNATURE = 'f'.repeat(64);

function expectNoSecrets(text: string): void {
  for (const secret of [...DEMO_SECRETS, SIGNATURE]) expect(text).not.toContain(secret);
}

/** A running `udcli ...` whose output is collected as it comes. */
function spawnCli(args: string[], childEnv: NodeJS.ProcessEnv) {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...childEnv },
  });
  const out = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out.stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out.stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  void exited.then(() => clearTimeout(timer));
  return { child, out, exited };
}

beforeAll(async () => {
  const started = await runInProcess(['sandbox', 'start', '--detach', '--port', '0', '--db', ':memory:'], env);
  expect(started.code, started.stderr).toBe(0);
  url = started.stdout.trim();
  await fetch(`${url}${USER_PATH}?api_key=${DEMO.game.apiKey}&uid=${DEMO.user.uid}`);
  await fetch(`${url}/no/such/page`);
  const badSig = await fetch(
    `${url}${API_PREFIX}/products/user/${DEMO.user.uid}.json?api_key=${DEMO.game.apiKey}&parent_id=1001&sku=gold-pack_10&increment=true&qty=1&timestamp=${Math.floor(Date.now() / 1000)}&signature=${SIGNATURE}`,
    { method: 'PUT' },
  );
  expect(badSig.status).toBe(403);
  await until(
    async () => (await runInProcess(['sandbox', 'logs'], env)).stdout.includes(' 403 '),
    'the request lines in the log',
  );
}, 60_000);

afterAll(async () => {
  await runInProcess(['sandbox', 'stop'], env);
  rmSync(scratch, { recursive: true, force: true });
}, 30_000);

describe('udcli sandbox logs (a detached sandbox)', () => {
  it('shows the log: start-up lines, then one line per request with the reason of a failure, secrets redacted', async () => {
    const r = await runInProcess(['sandbox', 'logs', '-n', 'all'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain(`udcli sandbox listening on ${url}`);
    const requests = r.stdout.split('\n').filter((line) => /^\d{4}-\d\d-\d\dT[\d:.]+Z [A-Z]+ \//.test(line));
    expect(requests).toHaveLength(3);
    expect(requests[0]).toMatch(
      new RegExp(
        `Z GET ${USER_PATH.replaceAll('/', '\\/').replaceAll('.', '\\.')}\\?api_key=0123…cdef&uid=${DEMO.user.uid} 200 [\\d.]+ms$`,
      ),
    );
    expect(requests[1]).toMatch(/Z GET \/no\/such\/page 404 [\d.]+ms not found: path \/no\/such\/page$/);
    expect(requests[2]).toMatch(
      /Z PUT \/services\/rest\/v1\/products\/user\/[0-9a-f]{32}\.json\?api_key=0123…cdef&.*&signature=ffff…ffff 403 [\d.]+ms bad signature \(hmac-sha256-v1\)$/,
    );
    expectNoSecrets(requests.join('\n'));
  });

  it('--json: only the request lines, one JSON object each, the shape of GET /_sandbox/requests without its id', async () => {
    const r = await runInProcess(['sandbox', 'logs', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const records = r.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toHaveLength(3);
    expect(records.map((x) => Object.keys(x))).toEqual(
      Array(3).fill(['time', 'method', 'path', 'query', 'body', 'status', 'ms', 'reason']),
    );
    expect(records[0]).toMatchObject({
      method: 'GET',
      path: USER_PATH,
      query: `api_key=0123…cdef&uid=${DEMO.user.uid}`,
      status: 200,
      reason: null,
    });
    expect(records[1]).toMatchObject({ path: '/no/such/page', status: 404, reason: 'not found: path /no/such/page' });
    expect(records[2]).toMatchObject({ method: 'PUT', status: 403, reason: 'bad signature (hmac-sha256-v1)' });
    // The same requests as the sandbox itself serves them.
    const served = (await (await fetch(`${url}/_sandbox/requests`)).json()) as {
      requests: Array<Record<string, unknown>>;
    };
    expect(served.requests.map(({ id: _id, ...rest }) => rest)).toEqual(records);
    expectNoSecrets(r.stdout);
  });

  it('like tail (issue 23): the last 10 lines, -n N, and filters by status, path and time', async () => {
    const all = (await runInProcess(['sandbox', 'logs', '-n', 'all'], env)).stdout.trimEnd().split('\n');
    expect(all.length).toBeGreaterThan(10);
    const last = await runInProcess(['sandbox', 'logs'], env);
    expect(last.code, last.stderr).toBe(0);
    expect(last.stdout.trimEnd().split('\n')).toEqual(all.slice(-10));
    expect(last.stdout).not.toContain('udcli sandbox listening on');
    expect((await runInProcess(['sandbox', 'logs', '-n', '2'], env)).stdout.trimEnd().split('\n')).toEqual(
      all.slice(-2),
    );
    const failed = await runInProcess(['sandbox', 'logs', '--status', '4xx'], env);
    expect(
      failed.stdout
        .trimEnd()
        .split('\n')
        .map((line) => / (\d{3}) [\d.]+ms/.exec(line)?.[1]),
    ).toEqual(['404', '403']);
    expect(
      (await runInProcess(['sandbox', 'logs', '--status', '403', '--json'], env)).stdout.trimEnd().split('\n'),
    ).toHaveLength(1);
    const products = await runInProcess(['sandbox', 'logs', '--path', '/products/'], env);
    expect(products.stdout.trimEnd().split('\n')).toHaveLength(1);
    expect(products.stdout).toContain(' 403 ');
    expect((await runInProcess(['sandbox', 'logs', '--since', '1h', '--status', '2xx'], env)).stdout).toContain(
      USER_PATH,
    );
    expect((await runInProcess(['sandbox', 'logs', '--since', '2099-01-01T00:00:00Z'], env)).stdout).toBe('');
    const bad = await runInProcess(['sandbox', 'logs', '--status', 'teapot'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^udcli: invalid --status "teapot"/);
  });

  it('--follow: starts at the end (the last 10 lines), then each new request as it comes, until Ctrl-C (exit 0)', async () => {
    const follow = spawnCli(['sandbox', 'logs', '--follow'], env);
    await until(() => follow.out.stdout.includes(' 403 '), 'the existing lines');
    // From the end: not the start-up messages at the top of the file.
    expect(follow.out.stdout).not.toContain('udcli sandbox listening on');
    expect(follow.out.stdout).not.toContain('/followed/one');
    await fetch(`${url}/followed/one?username=demo_player`);
    await until(() => follow.out.stdout.includes('/followed/one'), 'the new request');
    expect(follow.out.stdout).toMatch(
      /Z GET \/followed\/one\?username=demo_player 404 [\d.]+ms not found: path \/followed\/one\n/,
    );
    await fetch(`${url}/followed/two`);
    await until(() => follow.out.stdout.includes('/followed/two'), 'a second new request');
    follow.child.kill('SIGINT');
    expect(await follow.exited).toBe(0);
    expect(follow.out.stderr).toBe('');
  }, 30_000);

  it('--follow --json: new requests as JSON objects', async () => {
    const follow = spawnCli(['sandbox', 'logs', '--follow', '--json'], env);
    await until(() => follow.out.stdout.includes('"status":403'), 'the existing lines');
    await fetch(`${url}/followed/json`, { method: 'DELETE' });
    await until(() => follow.out.stdout.includes('/followed/json'), 'the new request');
    follow.child.kill('SIGINT');
    expect(await follow.exited).toBe(0);
    const last = JSON.parse(
      follow.out.stdout
        .trimEnd()
        .split('\n')
        .find((line) => line.includes('/followed/json'))!,
    ) as Record<string, unknown>;
    expect(last).toMatchObject({
      method: 'DELETE',
      path: '/followed/json',
      query: '',
      status: 404,
      reason: 'not found: path /followed/json',
    });
  }, 30_000);

  it('no log file (no sandbox was ever detached): exit 1, one line naming the file', async () => {
    const r = await runInProcess(['sandbox', 'logs'], { UDCLI_DATA_DIR: join(scratch, 'empty') });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`udcli: no sandbox log at ${join(scratch, 'empty', 'sandbox.log')}`);
  });
});

describe('udcli sandbox start (foreground)', () => {
  it('prints its URL, then one line per request on stdout; messages stay on stderr', async () => {
    const fg = spawnCli(['sandbox', 'start', '--port', '0', '--db', ':memory:'], {
      UDCLI_DATA_DIR: join(scratch, 'fg'),
    });
    await until(() => fg.out.stdout.includes('\n'), 'the URL');
    const base = fg.out.stdout.split('\n')[0]!;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await fetch(`${base}${USER_PATH}?api_key=${DEMO.game.apiKey}`);
    await until(() => fg.out.stdout.split('\n').length >= 3, 'a request line');
    fg.child.kill('SIGTERM');
    expect(await fg.exited).toBe(0);
    const lines = fg.out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/Z GET \/services\/rest\/v1\/users\/[0-9a-f]{32}\.json\?api_key=0123…cdef 200 [\d.]+ms$/);
    expect(fg.out.stderr).toContain('Press Ctrl-C to stop.');
    expect(fg.out.stderr).not.toMatch(/ GET \//);
  }, 30_000);
});
