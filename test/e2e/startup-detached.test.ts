/**
 * `sandbox start --detach` from the built file runs the bin/udcli.js beside that file again, as
 * a real background process. udcli's own paths come from one module (src/package-paths.ts); a
 * trial bundle once worked them out from a source file's depth, looked for /tmp/bin/udcli.js,
 * and the next command quietly used a sandbox of its own instead. Here the package is a copy in
 * a temporary folder (bin/, the built files, package.json; its packages linked), so a path taken
 * from this clone's layout would not be the copy's. The process is the subject. Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import { runInProcess } from './harness.js';
import { until } from '../until.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'udcli-detached-')));
const copy = join(dir, 'udcli');
// What the package ships of dist/ (the built files and the stored help), as package.json lists it.
const { files } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { files: string[] };
const BUILT = files.filter((f) => f.startsWith('dist/') && !f.endsWith('.map'));
const BIN_FILES = readdirSync(join(REPO, 'bin')).map((name) => `bin/${name}`);
for (const file of [...BIN_FILES, 'package.json', ...BUILT]) {
  mkdirSync(join(copy, file, '..'), { recursive: true });
  copyFileSync(join(REPO, file), join(copy, file));
}
symlinkSync(join(REPO, 'node_modules'), join(copy, 'node_modules'));
const COPY_BIN = join(copy, 'bin', 'udcli.js');
const env = { UDCLI_CONFIG_DIR: join(dir, 'config'), UDCLI_DATA_DIR: join(dir, 'data') };

afterAll(async () => {
  await runInProcess(['sandbox', 'stop'], env);
  rmSync(dir, { recursive: true, force: true });
});

/** The copy's bin/udcli.js, as a user runs it. */
function runCopy(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [COPY_BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 40_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The command line of a running process, as `ps` shows it. */
function commandLine(pid: number): string {
  return spawnSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).stdout.trim();
}

describe('sandbox start --detach from the built file', () => {
  it("starts the copy's own bin/udcli.js in the background, and the next command uses that sandbox", async () => {
    const started = runCopy(['sandbox', 'start', '--detach', '--port', '0']);
    expect(started.code, started.stderr).toBe(0);
    expect(started.stderr).toMatch(/^udcli sandbox running in the background at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);

    const status = await runInProcess(['sandbox', 'status', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    const state = JSON.parse(status.stdout) as { running: boolean; detached: boolean; pid: number; url: string };
    expect(state).toMatchObject({ running: true, detached: true });
    expect(started.stdout.trim()).toBe(state.url);
    expect(commandLine(state.pid)).toContain(`${COPY_BIN} sandbox start`);

    // Served by that process: no sandbox of the command's own, nor one started for it.
    const user = runCopy(['user', DEMO.user.username, '--json']);
    expect(user.code, user.stderr).toBe(0);
    expect(user.stderr).toBe('');
    expect(JSON.parse(user.stdout)).toMatchObject({ uid: DEMO.user.uid });
    // The request log is written in batches: its line may come a moment after the reply.
    await until(
      () => readFileSync(join(env.UDCLI_DATA_DIR, 'sandbox.log'), 'utf8').includes(`/users/${DEMO.user.username}.json`),
      "the request in the detached sandbox's log",
    );
  }, 60_000);
});
