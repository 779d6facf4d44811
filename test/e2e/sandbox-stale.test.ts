/**
 * A sandbox killed with `kill -9` leaves its pid file behind (issue 15, bug 9): the next
 * `sandbox start --detach` must see that the recorded process is gone (on Linux a killed child
 * nobody reaps stays a zombie, which `kill(pid, 0)` still reports as alive) and take over.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runInProcess } from './harness.js';
import { until } from '../until.js';

const root = mkdtempSync(join(tmpdir(), 'udcli-e2e-stale-'));
const env: NodeJS.ProcessEnv = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
const pidFile = join(root, 'data', 'sandbox.pid');
const started: number[] = [];

afterAll(async () => {
  await runInProcess(['sandbox', 'stop'], env);
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(root, { recursive: true, force: true });
});

/** Dead: no such process, or a zombie nobody has reaped yet (the state after the pid in /proc/PID/stat). */
function gone(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  }
}

const recordedPid = (): number => (JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid;

describe('sandbox start --detach after kill -9', () => {
  it('takes over the stale pid file, saying so', async () => {
    // The binary: a detached sandbox whose parent has exited, so nobody but init can reap it once killed.
    const first = await runCli(
      ['sandbox', 'start', '--detach', '--port', '0', '--db', join(root, 'a.db'), '--seed', 'none'],
      env,
      { timeoutMs: 30_000 },
    );
    expect(first.code, first.stderr).toBe(0);
    const pid = recordedPid();
    started.push(pid);
    process.kill(pid, 'SIGKILL');
    await until(() => gone(pid), `pid ${pid} to die`);

    const status = await runInProcess(['sandbox', 'status'], env);
    expect(status.code).toBe(1);
    expect(status.stderr).toMatch(/not running/);

    const second = await runInProcess(
      ['sandbox', 'start', '--detach', '--port', '0', '--db', join(root, 'b.db'), '--seed', 'none'],
      env,
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toContain(`pid ${pid}`);
    expect(second.stderr).toMatch(/no longer running/);
    const now = recordedPid();
    started.push(now);
    expect(now).not.toBe(pid);
    expect((await runInProcess(['sandbox', 'status'], env)).code).toBe(0);
  }, 90_000);
});
