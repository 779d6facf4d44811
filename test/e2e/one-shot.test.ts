/**
 * One-shot commands over node:http, batches over undici (issue 34), through the built binary:
 * the process itself is the subject (what it loads, that everything it prints reaches a pipe
 * before it exits, its exit code). Modules are recorded by test/cli/fixtures/record-loads.mjs.
 * Needs `npm run build`.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { DEMO_FRIEND_COUNT } from '../../src/sandbox/seed/demo-data.js';
import { BIN, closedPort, type CliResult, type TestEnv } from './harness.js';
import { fileScratch } from '../scratch.js';

const HOOK = fileURLToPath(new URL('../cli/fixtures/record-loads.mjs', import.meta.url));
const dir = fileScratch('udcli-one-shot-');
let env: TestEnv;
let n = 0;

beforeAll(({ sandbox }) => {
  env = sandbox;
}, 60_000);

/** The built binary under the load recorder, stdout and stderr on pipes; and the packages it loaded. */
function run(args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult & { packages: Set<string> }> {
  const log = join(dir, `loads-${++n}.log`);
  writeFileSync(log, '');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', HOOK, BIN, ...args], {
      env: { PATH: process.env.PATH, NO_COLOR: '1', ...env.env, ...extra, UDCLI_TEST_LOAD_LOG: log },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const packages = new Set<string>();
      for (const url of readFileSync(log, 'utf8').split('\n')) {
        const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
        if (m) packages.add(m[1]!);
      }
      resolve({ code: code ?? -1, stdout, stderr, packages });
    });
  });
}

describe('a one-shot command', () => {
  it('does not load undici, and prints its whole output to a pipe before it exits', async () => {
    // 1,200 friends as NDJSON: several times what a pipe holds, so the exit has to wait for it.
    const r = await run(['friends', DEMO.user.uid, '--all', '-o', 'ndjson']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1).map((l) => (JSON.parse(l) as { uid: string }).uid)).toHaveLength(DEMO_FRIEND_COUNT);
    expect(r.packages.has('undici')).toBe(false);
  });

  it('a signed change (agi: the challenge, then the signed POST) goes through, prints its reply and exits 0', async () => {
    const r = await run(['achievements', 'inc', DEMO.user.uid, 'LEVEL_10', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ developer_id: 'LEVEL_10' });
    expect(r.stderr).toMatch(/^Changed: LEVEL_10 /m);
    expect(r.packages.has('undici')).toBe(false);
  });

  it('exits with the documented code: 4 for a user the server does not know, 5 when nothing listens', async () => {
    const missing = await run(['user', 'f'.repeat(32)]);
    expect(missing.code).toBe(4);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/^udcli: .*not found/);
    const port = await closedPort();
    const unreachable = await run(['user', DEMO.user.uid], {
      UDCLI_BASE_URL: `http://127.0.0.1:${port}`,
      UDCLI_SITE_URL: `http://127.0.0.1:${port}`,
    });
    expect(unreachable.code).toBe(5);
    expect(unreachable.stderr).toMatch(/^udcli: cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection refused\)\n/);
  });
});

describe('a batch', () => {
  it('still runs on undici, every user reported', async () => {
    const users = join(dir, 'users.txt');
    writeFileSync(users, `${DEMO.user.uid}\nalice\nbob\n`);
    const r = await run(['achievements', 'inc', `@${users}`, 'LEVEL_10', '--concurrency', '2']);
    expect(r.code, r.stderr).toBe(0);
    const statuses = r.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { status: string }).status);
    expect(statuses).toEqual(['ok', 'ok', 'ok']);
    expect(r.packages.has('undici')).toBe(true);
  });
});
