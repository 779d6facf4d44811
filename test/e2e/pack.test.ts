/**
 * The package as a user gets it: `npm pack` holds only what a user needs, and the tarball
 * installed globally into a clean prefix gives a working `udcli`, its native SQLite module
 * included (better-sqlite3 13's prebuilt binary on Node 22 and later, with no compiler; 12 on
 * Node 20: docs/NODE.md). Offline, in a fresh HOME: the install's dependencies come from a
 * registry on loopback that serves this clone's node_modules. Needs `npm run build` first, like
 * every e2e test.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO } from '../../src/domain/demo.js';
import {
  cleanEnv,
  localPrebuild,
  localRegistry,
  NODE_MAJOR,
  noCompilers,
  REPO,
  run,
  type Manifest,
} from './pack-helpers.js';

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

let root: string;
let tarball: string;
let entries: string[];
let prebuilds: string | undefined;
let registry: { url: string; close(): Promise<void> };

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-pack-'));
  // dist/ is already built (`npm run build` comes before the e2e tests). `prepare` would rebuild
  // it here, rewriting the files that the other e2e tests are running at the same time.
  const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], {
    timeoutMs: 170_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  tarball = join(root, info!.filename);
  const list = await run('tar', ['-tzf', tarball], { timeoutMs: 30_000 });
  expect(list.code, list.stderr).toBe(0);
  entries = list.stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/'));
  if (NODE_MAJOR < 22) prebuilds = await localPrebuild(mkdtempSync(join(root, 'prebuilds-')));
  registry = await localRegistry(mkdtempSync(join(root, 'registry-')));
}, 180_000);

afterAll(async () => {
  await registry?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds only what a user needs: dist, bin (CommonJS by bin/package.json), completions, the Node 20 driver package, README.md, LICENSE, package.json', () => {
    const allowed = (path: string) =>
      /^package\/dist\//.test(path) ||
      /^package\/completions\//.test(path) ||
      [
        'package/bin/udcli.js',
        'package/bin/package.json',
        'package/bin/cache-dir.js',
        'package/README.md',
        'package/LICENSE',
        'package/package.json',
        // The Node 20 driver package (docs/NODE.md): npm links it inside the installed udcli.
        'package/drivers/sqlite-node20/package.json',
        'package/drivers/sqlite-node20/index.js',
        'package/drivers/sqlite-node20/install.js',
      ].includes(path);
    expect(entries.filter((path) => !allowed(path))).toEqual([]);
    for (const needed of [
      'package/bin/udcli.js',
      'package/bin/package.json',
      'package/bin/cache-dir.js',
      'package/dist/udcli.cjs',
      'package/package.json',
      'package/LICENSE',
      'package/README.md',
    ]) {
      expect(entries, `${needed} is missing from the tarball`).toContain(needed);
    }
    // Nothing of the sources, the tests or the tooling, not even compiled into dist/.
    expect(
      entries.filter((path) => /\/(src|test|bench|\.ci|node_modules)\/|tsconfig|vitest|eslint|\.test\.js/.test(path)),
    ).toEqual([]);
    // dist/ is the built files (the CLI and the parts it loads when used, `udcli/sandbox` and its types:
    // scripts/build.js) and their source maps, plus
    // the root help rendered at build time (bin/udcli.js prints it without loading the CLI) and the demo data's
    // database image `udcli/sandbox` starts from; not the per-module build the benches import (scripts/build.js).
    expect(entries.filter((path) => path.startsWith('package/dist/')).sort()).toEqual([
      'package/dist/changes.cjs',
      'package/dist/changes.cjs.map',
      'package/dist/demo-sandbox.db',
      'package/dist/dynamic-import.cjs',
      'package/dist/dynamic-import.cjs.map',
      'package/dist/root-help.json',
      'package/dist/sandbox-api.cjs',
      'package/dist/sandbox-api.cjs.map',
      'package/dist/sandbox-api.d.cts',
      'package/dist/sandbox-api.d.mts',
      'package/dist/sandbox-api.mjs',
      'package/dist/sandbox.cjs',
      'package/dist/sandbox.cjs.map',
      'package/dist/tools.cjs',
      'package/dist/tools.cjs.map',
      'package/dist/udcli.cjs',
      'package/dist/udcli.cjs.map',
    ]);
  });

  it('installs globally into a clean prefix, offline in a fresh HOME, and runs: --version, sandbox info, and a sandbox with SQLite', async () => {
    const prefix = join(root, 'prefix');
    const home = mkdtempSync(join(root, 'home-'));
    const compilers = noCompilers(root);
    const env = cleanEnv({
      HOME: home,
      npm_config_userconfig: join(home, '.npmrc'),
      npm_config_cache: join(home, '.npm'),
      // Set in the environment, so the install scripts' own npm (Node 20's driver) asks it too.
      npm_config_registry: registry.url,
      ...(prebuilds === undefined
        ? { PATH: `${compilers.bin}:${process.env.PATH ?? ''}` }
        : { npm_config_better_sqlite3_local_prebuilds: prebuilds }),
    });
    const install = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, tarball, '--foreground-scripts=false', '--no-audit', '--no-fund'],
      {
        cwd: root,
        env,
        timeoutMs: 330_000,
      },
    );
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    // On Node 22 and later better-sqlite3 13's binary comes in its package: nothing compiled.
    if (prebuilds === undefined) expect(compilers.calls()).toBe('');
    const driver = join(
      prefix,
      'lib',
      'node_modules',
      'udcli',
      ...(NODE_MAJOR >= 22 ? ['node_modules'] : ['drivers', 'sqlite-node20', 'node_modules']),
      'better-sqlite3',
    );
    expect((JSON.parse(readFileSync(join(driver, 'package.json'), 'utf8')) as Manifest).version).toMatch(
      NODE_MAJOR >= 22 ? /^13\./ : /^12\./,
    );

    const udcli = join(prefix, 'bin', 'udcli');
    const userEnv = cleanEnv({ UDCLI_CONFIG_DIR: join(root, 'config'), UDCLI_DATA_DIR: join(root, 'data') });
    const version = await run(udcli, ['--version'], { cwd: root, env: userEnv, timeoutMs: 20_000 });
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(VERSION);

    const info = await run(udcli, ['sandbox', 'info', '--json'], { cwd: root, env: userEnv, timeoutMs: 20_000 });
    expect(info.code, info.stderr).toBe(0);
    expect(JSON.parse(info.stdout)).toMatchObject({
      running: false,
      games: expect.arrayContaining([expect.objectContaining({ id: DEMO.game.id })]),
    });

    // The native SQLite module works in the installed copy: a real sandbox, queried by udcli.
    const exec = await run(udcli, ['sandbox', 'exec', '--', udcli, 'user', DEMO.user.username, '--json'], {
      cwd: root,
      env: userEnv,
      timeoutMs: 30_000,
    });
    expect(exec.code, exec.stderr).toBe(0);
    expect(JSON.parse(exec.stdout)).toMatchObject({ uid: DEMO.user.uid });
  }, 360_000);
});
