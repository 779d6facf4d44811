/**
 * The data-loss scenario as a user met it, with the built binary: a detached sandbox holds the
 * demo data and the developer's own game, with alice's xp-boost changed; then `udcli sandbox
 * start --data case.yaml --reset` is typed in another shell. It refuses (exit 2), names the
 * running sandbox and the ways on, and the running sandbox's database is byte-for-byte as it was.
 * Needs `npm run build`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, runCli, runInProcess } from './harness.js';

const scratch = mkdtempSync(join(tmpdir(), 'udcli-e2e-keeps-'));
let env: NodeJS.ProcessEnv = {};

const cli = (args: string[]) => runInProcess(args, env);

function databaseBytes(): string {
  const db = join(scratch, 'data', 'sandbox.db');
  const hash = createHash('sha256');
  for (const file of [db, `${db}-wal`]) hash.update(existsSync(file) ? readFileSync(file) : Buffer.alloc(0));
  return hash.digest('hex');
}

beforeAll(async () => {
  env = {
    UDCLI_DATA_DIR: join(scratch, 'data'),
    UDCLI_CONFIG_DIR: join(scratch, 'config'),
    UDCLI_SANDBOX_PORT: String(await closedPort()),
  };
  const started = await runCli(['sandbox', 'start', '--detach'], env, { timeoutMs: 40_000 });
  expect(started.code, started.stderr).toBe(0);
  writeFileSync(
    join(scratch, 'orbit.yaml'),
    'games:\n  - id: "4711"\n    name: Orbit Miner\n    keys:\n      - api_key: 5f0e3b7c9a1d4e2f8b6c0a9d7e5f3b1c\nusers:\n  - username: gr_ann\n    plays: ["4711"]\n',
  );
  expect((await cli(['sandbox', 'load', join(scratch, 'orbit.yaml')])).code).toBe(0);
  const given = await cli(['products', 'give', 'alice', 'xp-boost', '--qty', '7', '--game', '1001', '--yes']);
  expect(given.code, given.stderr).toBe(0);
  expect((await cli(['sandbox', 'init', join(scratch, 'case.yaml')])).code).toBe(0);
}, 90_000);

afterAll(async () => {
  await cli(['sandbox', 'stop']);
  rmSync(scratch, { recursive: true, force: true });
});

describe('a detached sandbox keeps its data', () => {
  it('sandbox start --data case.yaml --reset in another shell: exit 2, the sandbox named, its database byte-for-byte as it was', async () => {
    const status = JSON.parse((await cli(['sandbox', 'status', '--json'])).stdout) as { pid: number; url: string };
    const exportBefore = (await cli(['sandbox', 'export', '--format', 'json'])).stdout;
    const bytesBefore = databaseBytes();
    expect(exportBefore).toContain('Orbit Miner');

    const r = await runCli(['sandbox', 'start', '--data', join(scratch, 'case.yaml'), '--reset'], env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `the sandbox at ${status.url} (pid ${status.pid}, database ${join(scratch, 'data', 'sandbox.db')}`,
    );
    expect(r.stderr).toContain('udcli sandbox load FILE');
    expect(r.stderr).toContain('udcli sandbox stop');

    expect(databaseBytes()).toBe(bytesBefore);
    expect((await cli(['sandbox', 'export', '--format', 'json'])).stdout).toBe(exportBefore);
    const held = await cli(['products', 'list', 'alice', '--game', '1001', '-o', 'csv']);
    expect(held.stdout).toContain('\nxp-boost,XP Boost,consumable,9,');
  }, 60_000);
});
