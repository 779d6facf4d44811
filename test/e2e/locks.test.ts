/**
 * Files two udcli processes may share, end to end with the built binary: a batch journal is one
 * run's (issue 13/14), and parallel config writes keep every profile (issue 14 item 3).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, fileSandbox, it } from '../fixtures.js';
import { generatedUsername } from '../../src/sandbox/seed/demo.js';
import { uidForUsername } from '../../src/domain/ids.js';
import { until } from '../until.js';
import { BIN, runCli, runInProcess } from './harness.js';
import { fileScratch } from '../scratch.js';

const env = fileSandbox();
const scratch = fileScratch('udcli-e2e-locks-');

describe('a journal is one run’s (e2e)', () => {
  it('a second run on a journal in use exits 2 naming the first run’s pid, and changes nothing', async () => {
    const list = join(scratch, 'slow.txt');
    writeFileSync(
      list,
      `${Array.from({ length: 30 }, (_, i) => uidForUsername(generatedUsername(i + 1))).join('\n')}\n`,
    );
    const journal = join(scratch, 'shared.journal');
    const args = ['achievements', 'inc', `@${list}`, 'COLLECT_1000_GEMS', '--journal', journal];
    const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env.env };
    delete base.FORCE_COLOR;
    // The first run is slow (--rate 10/s: 3 s for 30 users), so the second starts while it works.
    const first = spawn(process.execPath, [BIN, ...args, '--rate', '10/s'], {
      env: base,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let firstOut = '';
    first.stdout.setEncoding('utf8').on('data', (d: string) => (firstOut += d));
    const firstDone = new Promise<number | null>((resolve) => first.on('close', (code) => resolve(code)));
    await until(() => firstOut.includes('\n'), 'the first run to report its first user');
    const journalBefore = readFileSync(journal, 'utf8');

    const second = await runInProcess(args, env.env);
    expect(second.code, second.stderr).toBe(2);
    expect(second.stderr).toContain(`pid ${first.pid}`);
    expect(second.stderr).toContain(journal);
    expect(second.stdout).toBe('');
    expect(readFileSync(journal, 'utf8').startsWith(journalBefore)).toBe(true);
    // The refused run closed the list it had begun to read: left to the garbage collector, the
    // file handle fails the process on Node 26.
    if (process.platform === 'linux') expect(openFiles()).not.toContain(list);

    expect(await firstDone).toBe(0);
    const done = firstOut.split('\n').filter(Boolean);
    expect(done).toHaveLength(30);
    expect(existsSync(`${journal}.lock`)).toBe(false);

    // Once the first run is over, the journal is free again: a rerun skips all 30.
    const rerun = await runInProcess(args, env.env);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/30 items: 0 ok, 0 failed, 0 unknown, 30 skipped/);
  }, 60_000);

  it('a stale lock left by a dead run on this host is taken over, and the run says so', async () => {
    const list = join(scratch, 'one.txt');
    writeFileSync(list, `${uidForUsername(generatedUsername(50))}\n`);
    const journal = join(scratch, 'stale.journal');
    // A pid that is surely gone: a child that already exited.
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => dead.on('close', resolve));
    writeFileSync(
      `${journal}.lock`,
      JSON.stringify({ pid: dead.pid, host: hostname(), since: new Date().toISOString() }),
    );
    const r = await runInProcess(['achievements', 'reset', `@${list}`, 'FIRST_WIN', '--journal', journal], env.env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`took over the journal lock of pid ${dead.pid}`);
    expect(existsSync(`${journal}.lock`)).toBe(false);
  }, 30_000);
});

describe('config writes from parallel processes (e2e)', () => {
  it('ten `profile add` at once keep all ten profiles; the file stays 0600', async () => {
    const configDir = join(scratch, 'parallel-config');
    const env = { UDCLI_CONFIG_DIR: configDir, UDCLI_DATA_DIR: join(scratch, 'parallel-data') };
    // The binary: ten processes, each with its own view of the file.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        runCli(['profile', 'add', `c${i}`, '--base-url', `https://c${i}.example.com`], env),
      ),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const file = join(configDir, 'config.json');
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, unknown> };
    expect(Object.keys(stored.profiles).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `c${i}`).sort());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(configDir).filter((f) => f !== 'config.json')).toEqual([]);
  }, 60_000);

  it('a temp file left by a killed write is removed by the next write', async () => {
    const configDir = join(scratch, 'leftover-config');
    mkdirSync(configDir, { recursive: true });
    const leftover = join(configDir, 'config.json.tmp-1763800000123abc');
    writeFileSync(leftover, '{"profiles":{"half');
    const r = await runInProcess(['profile', 'add', 'x', '--base-url', 'https://x.example.com'], {
      UDCLI_CONFIG_DIR: configDir,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(leftover)).toBe(false);
  }, 30_000);
});

/** The files this process holds open (Linux). */
function openFiles(): string[] {
  return readdirSync('/proc/self/fd').map((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return '';
    }
  });
}
