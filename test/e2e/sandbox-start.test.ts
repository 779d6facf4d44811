/**
 * `udcli sandbox start` refusing what would go wrong later (issue 14): a database it cannot
 * write, a host that would expose the sandbox beyond this machine; and the modes of its files.
 * The built binary, as a user runs it.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, runCli, runInProcess, type CliResult } from './harness.js';
import { run } from './pack-helpers.js';
import { until } from '../until.js';
import { fileScratch } from '../scratch.js';

const scratch = fileScratch('udcli-e2e-start-');
chmodSync(scratch, 0o755);

const NOBODY = 65534;
const isRoot = process.getuid?.() === 0;

/** Runs the binary, as `nobody` when these tests run as root (root may write any file). */
async function runAs(args: string[], env: NodeJS.ProcessEnv, asNobody: boolean): Promise<CliResult> {
  const r = await run(process.execPath, [BIN, ...args], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
    timeoutMs: 20_000,
    ...(asNobody ? { as: { uid: NOBODY, gid: NOBODY } } : {}),
  });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Starts a foreground sandbox, waits for its URL on stdout, then stops it with SIGTERM. */
async function startAndStop(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult & { url: string }> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'start', ...args], {
    env: { PATH: process.env.PATH, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await until(() => stdout.includes('\n') || child.exitCode !== null, 'the sandbox to print its URL', {
    timeoutMs: 15_000,
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const url = stdout.trim();
  if (child.exitCode === null) child.kill('SIGTERM');
  const code = await closed;
  return { code: code ?? -1, stdout, stderr, url };
}

describe('sandbox start (e2e)', () => {
  it('a database it cannot write: exit 1 with one clear line naming it, before listening', async (ctx) => {
    // Root writes any file, so as root the run is made as `nobody`, who must be able to run this node.
    const probe = isRoot ? spawnSync(process.execPath, ['-e', '0'], { uid: NOBODY, gid: NOBODY }) : undefined;
    ctx.skip(
      probe !== undefined && probe.status !== 0,
      `user nobody cannot run ${process.execPath} (${probe?.error?.message ?? `exit ${probe?.status}`})`,
    );
    const dir = join(scratch, 'ro');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    const dbPath = join(dir, 'sandbox.db');
    const seeded = await runInProcess(['sandbox', 'seed', '--db', dbPath, '--users', '10', '--friends', '2'], {
      UDCLI_DATA_DIR: join(scratch, 'ro-data'),
    });
    expect(seeded.code, seeded.stderr).toBe(0);
    chmodSync(dbPath, 0o444);
    const r = await runAs(
      ['sandbox', 'start', '--port', '0', '--db', dbPath],
      { UDCLI_DATA_DIR: join(dir, 'data') },
      isRoot,
    );
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(
      `the sandbox database ${dbPath} cannot be written (attempt to write a readonly database)`,
    );
  }, 30_000);

  it('--host 0.0.0.0 without --allow-remote: exit 2, naming what would be reachable; nothing listens', async () => {
    const env = { UDCLI_DATA_DIR: join(scratch, 'remote-data') };
    const r = await runInProcess(['sandbox', 'start', '--host', '0.0.0.0', '--port', '0', '--db', ':memory:'], env);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /--host 0\.0\.0\.0 would let other machines reach the sandbox: password-less login, the token generator and unsigned grants/,
    );
    expect(r.stderr).toMatch(/--allow-remote/);
    const ipv6 = await runInProcess(['sandbox', 'start', '--host', '::', '--port', '0', '--db', ':memory:'], env);
    expect(ipv6.code).toBe(2);
  }, 30_000);

  it('--host 0.0.0.0 --allow-remote (or --yes): starts, with the warning on stderr; loopback hosts need nothing', async () => {
    const env = { UDCLI_DATA_DIR: join(scratch, 'remote-ok-data') };
    for (const flags of [['--allow-remote'], ['--yes']]) {
      const r = await startAndStop(['--host', '0.0.0.0', '--port', '0', '--db', ':memory:', ...flags], env);
      expect(r.url, r.stderr).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect(r.stderr).toMatch(
        /^warning: --host 0\.0\.0\.0 lets other machines reach the sandbox: password-less login, the token generator and unsigned grants/m,
      );
    }
    for (const host of ['127.0.0.1', 'localhost', '::1']) {
      const r = await startAndStop(['--host', host, '--port', '0', '--db', ':memory:'], env);
      expect(r.url, r.stderr).toMatch(/^http:\/\//);
      expect(r.stderr).not.toMatch(/warning/);
    }
  }, 60_000);

  it('a detached sandbox writes sandbox.log 0600, beside a database that is 0600 too', async () => {
    const env = { UDCLI_DATA_DIR: join(scratch, 'detached-data') };
    // The binary: the command that detaches exits, its sandbox runs on (a one-shot start).
    const started = await runCli(['sandbox', 'start', '--detach', '--port', '0'], env);
    expect(started.code, started.stderr).toBe(0);
    try {
      for (const file of ['sandbox.log', 'sandbox.db', 'sandbox.db-wal', 'sandbox.db-shm']) {
        expect((statSync(join(env.UDCLI_DATA_DIR, file)).mode & 0o777).toString(8), file).toBe('600');
      }
    } finally {
      const stopped = await runInProcess(['sandbox', 'stop'], env);
      expect(stopped.code, stopped.stderr).toBe(0);
    }
  }, 60_000);
});
