/**
 * The package as a user gets it: `npm pack` holds only what a user needs, and the tarball
 * installed globally into a clean prefix gives a working `udcli`, its native SQLite module
 * included. Needs `npm run build` first, like every e2e test.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** npm's own environment variables (when the tests run under `npm test`) would leak into these runs. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(npm_package_|npm_lifecycle_|npm_config_(global|prefix|dry_run)$|UDCLI_)/i.test(k)) env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd ?? REPO, env: options.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let root: string;
let tarball: string;
let entries: string[];
let prebuilds: string;

/**
 * better-sqlite3's install script takes a prebuilt binary when it finds one and compiles SQLite
 * from source when it does not (a minute of CPU, and no network here to download one). Users get
 * the prebuilt one; the install is given the same binary this repository's copy runs with, packed
 * as prebuild-install names it, so the installed copy still loads a native module of its own.
 * Should the name not match (another better-sqlite3 version picked), it compiles as before.
 */
async function localPrebuild(dir: string): Promise<string> {
  const native = join(REPO, 'node_modules', 'better-sqlite3');
  const { version } = JSON.parse(readFileSync(join(native, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const packed = await run('tar', ['-czf', join(dir, name), '-C', native, 'build/Release/better_sqlite3.node'], { timeoutMs: 30_000 });
  expect(packed.code, packed.stderr).toBe(0);
  return dir;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-pack-'));
  // dist/ is already built (`npm run build` comes before the e2e tests). `prepare` would rebuild
  // it here, rewriting the files that the other e2e tests are running at the same time.
  const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], { timeoutMs: 170_000 });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(root, info!.filename);
  const list = await run('tar', ['-tzf', tarball], { timeoutMs: 30_000 });
  expect(list.code, list.stderr).toBe(0);
  entries = list.stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/'));
  prebuilds = await localPrebuild(mkdtempSync(join(root, 'prebuilds-')));
}, 180_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds only what a user needs: dist, bin/udcli.js, completions, README.md, LICENSE, package.json', () => {
    const allowed = (path: string) =>
      /^package\/dist\//.test(path) ||
      /^package\/completions\//.test(path) ||
      ['package/bin/udcli.js', 'package/README.md', 'package/LICENSE', 'package/package.json'].includes(path);
    expect(entries.filter((path) => !allowed(path))).toEqual([]);
    for (const needed of ['package/bin/udcli.js', 'package/dist/cli/main.js', 'package/package.json', 'package/LICENSE', 'package/README.md']) {
      expect(entries, `${needed} is missing from the tarball`).toContain(needed);
    }
    // Nothing of the sources, the tests or the tooling, not even compiled into dist/.
    expect(entries.filter((path) => /\/(src|test|bench|\.ci|node_modules)\/|tsconfig|vitest|eslint|\.test\.js/.test(path))).toEqual([]);
    // dist/ is compiled code, plus the root help rendered at build time (bin/udcli.js prints it without loading the CLI).
    expect(entries.filter((path) => path.startsWith('package/dist/') && !/\.(js|js\.map)$/.test(path))).toEqual(['package/dist/cli/root-help.json']);
  });

  it('installs globally into a clean prefix and runs: --version, sandbox info, and a sandbox with SQLite', async () => {
    const prefix = join(root, 'prefix');
    const install = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, tarball, '--foreground-scripts=false', '--no-audit', '--no-fund', '--prefer-offline'],
      { cwd: root, env: cleanEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }), timeoutMs: 330_000 },
    );
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);

    const udcli = join(prefix, 'bin', 'udcli');
    const userEnv = cleanEnv({ UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') });
    const version = await run(udcli, ['--version'], { cwd: root, env: userEnv, timeoutMs: 20_000 });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);

    const info = await run(udcli, ['sandbox', 'info', '--json'], { cwd: root, env: userEnv, timeoutMs: 20_000 });
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({ running: false, games: expect.arrayContaining([expect.objectContaining({ id: DEMO.game.id })]) });

    // The native SQLite module works in the installed copy: a real sandbox, queried by udcli.
    const exec = await run(udcli, ['sandbox', 'exec', '--', udcli, 'user', DEMO.user.username, '--json'], { cwd: root, env: userEnv, timeoutMs: 30_000 });
    expect(exec.code, exec.stderr).toBe(0);
    expect(JSON.parse(exec.stdout)).toMatchObject({ uid: DEMO.user.uid });
  }, 360_000);
});
