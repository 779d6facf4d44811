/**
 * A sandbox killed with `kill -9` leaves its pid file behind (issue 15, bug 9): the next
 * `sandbox start --detach` must see that the recorded process is gone (on Linux a killed child
 * nobody reaps stays a zombie, which `kill(pid, 0)` still reports as alive) and take over.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './harness.js';

const root = mkdtempSync(join(tmpdir(), 'udcli-e2e-stale-'));
const env: NodeJS.ProcessEnv = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
const pidFile = join(root, 'data', 'sandbox.pid');
const started: number[] = [];

afterAll(async () => {
  await runCli(['sandbox', 'stop'], env);
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const recordedPid = (): number => (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid;

describe('sandbox start --detach after kill -9', () => {
  it('takes over the stale pid file, saying so', async () => {
    const first = await runCli(['sandbox', 'start', '--detach', '--port', '0', '--db', join(root, 'a.db'), '--seed', 'none'], env, { timeoutMs: 30_000 });
    expect(first.code, first.stderr).toBe(0);
    const pid = recordedPid();
    started.push(pid);
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const status = await runCli(['sandbox', 'status'], env);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/not running/);

    const second = await runCli(['sandbox', 'start', '--detach', '--port', '0', '--db', join(root, 'b.db'), '--seed', 'none'], env, { timeoutMs: 30_000 });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`pid ${pid}`);
    expect(second.stderr).toMatch(/no longer running/);
    const now = recordedPid();
    started.push(now);
    expect(now).not.toBe(pid);
    expect((await runCli(['sandbox', 'status'], env)).code).toBe(0);
  }, 90_000);
});
