/**
 * Many sandboxes on one machine (issue 53, 4 and 5): detached sandboxes of the built binary side
 * by side, each found, listed and stopped by its port or name, every hint naming the one it is
 * about; and the quick start's sandbox serving a game folder under the folder it started in.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { closedPort, runInProcess } from './harness.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'udcli-many-')));
const env = { UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') };
const other = { UDCLI_CONFIG_DIR: join(root, 'config2'), UDCLI_DATA_DIR: join(root, 'data2') };

afterAll(async () => {
  await runInProcess(['sandbox', 'stop', '--all'], env);
  await runInProcess(['sandbox', 'stop', '--all'], other);
  rmSync(root, { recursive: true, force: true });
});

const urlOf = (stdout: string): string => stdout.trim();
const portOf = (url: string): number => Number(new URL(url).port);

describe('three detached sandboxes side by side', () => {
  it('start beside each other, status lists them, stop --port stops that one only, every hint names its sandbox', async () => {
    const first = await runInProcess(['sandbox', 'start', '--detach', '--port', '0'], env);
    expect(first.code, first.stderr).toBe(0);
    const second = await runInProcess(['sandbox', 'start', '--detach', '--port', '0'], env);
    expect(second.code, second.stderr).toBe(0);
    const third = await runInProcess(['sandbox', 'start', '--detach', '--port', '0', '--name', 'qa'], env);
    expect(third.code, third.stderr).toBe(0);
    const [a, b, c] = [first, second, third].map((r) => urlOf(r.stdout));
    expect(new Set([a, b, c]).size).toBe(3);
    const dir = env.UDCLI_DATA_DIR;
    expect(first.stderr).toContain(`stop it with: UDCLI_DATA_DIR=${dir} udcli sandbox stop --port ${portOf(a!)}\n`);
    expect(second.stderr).toContain(`stop it with: UDCLI_DATA_DIR=${dir} udcli sandbox stop --port ${portOf(b!)}\n`);
    expect(third.stderr).toContain(`stop it with: UDCLI_DATA_DIR=${dir} udcli sandbox stop --name qa\n`);

    // Each has a database of its own.
    const status = await runInProcess(['sandbox', 'status', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    const listed = (JSON.parse(status.stdout) as { sandboxes: Array<{ name: string; url: string; db: string }> })
      .sandboxes;
    expect(listed.map((s) => s.url).sort()).toEqual([a, b, c].sort());
    expect(new Set(listed.map((s) => s.db)).size).toBe(3);
    const text = await runInProcess(['sandbox', 'status'], env);
    expect(text.stdout).toMatch(/^3 sandboxes are running:\n/);
    expect(text.stdout).toContain(`udcli sandbox status --name qa`);

    // A command that finds "the" sandbox says which of the three it chose.
    const info = await runInProcess(['user', DEMO.user.username], env);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stderr).toContain(`udcli: 3 sandboxes are running; using default at ${a}`);
    for (const args of [
      ['sandbox', 'info'],
      ['sandbox', 'clock', 'now'],
    ]) {
      const r = await runInProcess(args, env);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr, args.join(' ')).toContain(`udcli: 3 sandboxes are running; using default at ${a}`);
    }

    // Stop without a choice: refused, each named with its own command.
    const ambiguous = await runInProcess(['sandbox', 'stop'], env);
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toContain(`udcli sandbox stop --port ${portOf(b!)}`);
    expect(ambiguous.stderr).toContain('udcli sandbox stop --name qa');

    // Same port twice: refused, naming the running one.
    const twice = await runInProcess(['sandbox', 'start', '--detach', '--port', String(portOf(b!))], env);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(`the sandbox at ${b}`);
    expect(twice.stderr).toContain(`udcli sandbox stop --port ${portOf(b!)}`);

    const stopped = await runInProcess(['sandbox', 'stop', '--port', String(portOf(b!))], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(stopped.stderr).toContain(`stopped the sandbox at ${b}`);
    const after = JSON.parse((await runInProcess(['sandbox', 'status', '--json'], env)).stdout) as {
      sandboxes: Array<{ url: string }>;
    };
    expect(after.sandboxes.map((s) => s.url).sort()).toEqual([a, c].sort());
    expect((await runInProcess(['sandbox', 'status', '--port', String(portOf(b!))], env)).code).toBe(1);

    // Another data dir: its own sandbox, and its stop stops only that one.
    const elsewhere = await runInProcess(['sandbox', 'start', '--detach', '--port', '0'], other);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.stderr).toContain(`UDCLI_DATA_DIR=${other.UDCLI_DATA_DIR} udcli sandbox stop --port`);
    const stopOther = await runInProcess(['sandbox', 'stop'], other);
    expect(stopOther.stderr).toContain(`stopped the sandbox at ${urlOf(elsewhere.stdout)}`);
    const logs = await runInProcess(['sandbox', 'logs', '--name', 'qa', '-n', 'all'], env);
    expect(logs.code, logs.stderr).toBe(0);
    expect(logs.stdout).toContain(c);
    expect((await runInProcess(['sandbox', 'stop', '--all'], env)).code).toBe(0);
  }, 120_000);
});

describe('the quick start sandbox and sandbox play --game-dir', () => {
  it('serves a game folder under the folder it started in', async () => {
    const port = await closedPort();
    const e = {
      UDCLI_CONFIG_DIR: join(root, 'qc'),
      UDCLI_DATA_DIR: join(root, 'qd'),
      UDCLI_SANDBOX_PORT: String(port),
    };
    const game = join(process.cwd(), 'test', '.tmp-many-game');
    mkdirSync(game, { recursive: true });
    writeFileSync(join(game, 'index.html'), '<!doctype html><title>mine</title>');
    try {
      const first = await runInProcess(['user', DEMO.user.username], e);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toContain('started one in the background');
      const play = await runInProcess(['sandbox', 'play', '--game-dir', game, '--no-open'], e);
      expect(play.code, play.stderr).toBe(0);
      expect(play.stdout).toContain(`http://127.0.0.1:${port}/play/`);
      expect(play.stderr).toContain(`now serves game`);
      // Outside that folder: refused, with the one command that serves it.
      const outside = mkdtempSync(join(tmpdir(), 'udcli-many-game-'));
      const refused = await runInProcess(['sandbox', 'play', '--game-dir', outside, '--no-open'], e);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/udcli sandbox start --detach --name play-\S+ --port 0 --game-dir /);
      rmSync(outside, { recursive: true, force: true });
    } finally {
      await runInProcess(['sandbox', 'stop', '--all'], e);
      rmSync(game, { recursive: true, force: true });
    }
  }, 120_000);
});
