/**
 * The package as a user gets it: `npm pack` holds only what a user needs, and the tarball
 * installed globally into a clean prefix gives a working `udcli`, its native SQLite module
 * included (better-sqlite3 13's prebuilt binary on Node 22 and later, with no compiler; 12 on
 * Node 20: docs/NODE.md). Offline, in a fresh HOME: the install's dependencies come from a
 * registry on loopback that serves this clone's node_modules. Needs `npm run build` first, like
 * every e2e test.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
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

function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd ?? REPO,
      env: options.env ?? cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
let prebuilds: string | undefined;
let registry: { url: string; close(): Promise<void> };

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);
/** Where this clone's better-sqlite3 12 is (Node 20 only: drivers/sqlite-node20). */
const NODE20_DRIVER = join(REPO, 'drivers', 'sqlite-node20', 'node_modules', 'better-sqlite3');

interface Manifest {
  name: string;
  version: string;
  scripts?: Record<string, string>;
}

/**
 * A registry on loopback with the packages of this clone's node_modules (every copy the lockfile
 * places, at the version installed under this Node), each packed on request as npm packs it: a
 * global install asks it for what udcli depends on, with no network and no npm cache. A native
 * module is served without its build/ (as published), so its install script runs as a user's does.
 */
async function localRegistry(work: string): Promise<{ url: string; close(): Promise<void> }> {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { link?: boolean }>;
  };
  const folders = new Map<string, Map<string, string>>();
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location.includes('node_modules/') || entry.link) continue;
    const folder = join(REPO, location);
    // Not installed under this Node (an optional dependency npm skipped).
    if (!existsSync(join(folder, 'package.json'))) continue;
    const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
    if (!folders.has(name)) folders.set(name, new Map());
    folders.get(name)!.set(version, folder);
  }
  let base = '';
  const packed = new Map<string, Promise<Buffer>>();
  const pack = (folder: string, manifest: Manifest): Promise<Buffer> => {
    const file = join(work, `${packed.size}.tgz`);
    // Not gzipped: npm's tar reads a plain one as well (it looks for gzip's header), and
    // compressing every dependency here and unpacking it again in npm cost 2 of the test's 16 s of CPU.
    const args = ['-cf', file, '--exclude=./node_modules', '--transform', 's,^\\.,package,', '-C', folder, '.'];
    if (manifest.scripts?.install) args.splice(2, 0, '--exclude=./build');
    return run('tar', args, { timeoutMs: 60_000 }).then((r) => {
      if (r.code !== 0) throw new Error(`tar: ${r.stderr}`);
      return readFileSync(file);
    });
  };
  const server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!.slice(1));
    const tar = /^-\/(.+)\/([^/]+)\.tgz$/.exec(path);
    const name = tar ? tar[1]! : path;
    const versions = folders.get(name);
    const folder = tar ? versions?.get(tar[2]!) : undefined;
    if (!versions || (tar && !folder)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    if (tar) {
      const key = `${name}@${tar[2]}`;
      const manifest = JSON.parse(readFileSync(join(folder!, 'package.json'), 'utf8')) as Manifest;
      if (!packed.has(key)) packed.set(key, pack(folder!, manifest));
      packed.get(key)!.then(
        (body) => res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body),
        (error: Error) => res.writeHead(500).end(error.message),
      );
      return;
    }
    const all: Record<string, unknown> = {};
    for (const [version, dir] of versions) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
      all[version] = { ...manifest, dist: { tarball: `${base}/-/${encodeURIComponent(name)}/${version}.tgz` } };
    }
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ name, 'dist-tags': { latest: [...versions.keys()][0] }, versions: all }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** Compilers that fail and write down that they were called: on Node 22 and later nothing may call one. */
function noCompilers(dir: string): { bin: string; calls: () => string } {
  const bin = join(dir, 'no-compilers');
  mkdirSync(bin);
  const log = join(dir, 'compiler-calls.log');
  for (const tool of ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python3', 'python']) {
    writeFileSync(join(bin, tool), `#!/bin/sh\necho "${tool} $*" >> '${log}'\nexit 1\n`, { mode: 0o755 });
  }
  return { bin, calls: () => (existsSync(log) ? readFileSync(log, 'utf8') : '') };
}

/**
 * Node 20 only. better-sqlite3 12's install script takes a prebuilt binary when it finds one and compiles SQLite
 * from source when it does not (a minute of CPU, and no network here to download one). Users get
 * the prebuilt one; the install is given the same binary this repository's copy runs with, packed
 * as prebuild-install names it, so the installed copy still loads a native module of its own.
 * Should the name not match (another better-sqlite3 version picked), it compiles as before.
 */
async function localPrebuild(dir: string): Promise<string> {
  const native = NODE20_DRIVER;
  const { version } = JSON.parse(readFileSync(join(native, 'package.json'), 'utf8')) as { version: string };
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const packed = await run('tar', ['-czf', join(dir, name), '-C', native, 'build/Release/better_sqlite3.node'], {
    timeoutMs: 30_000,
  });
  expect(packed.code, packed.stderr).toBe(0);
  return dir;
}

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
        'package/bin/code-cache.js',
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
      'package/bin/code-cache.js',
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
    // the root help rendered at build time (bin/udcli.js prints it without loading the CLI); not the per-module build
    // the benches import (scripts/build.js).
    expect(entries.filter((path) => path.startsWith('package/dist/')).sort()).toEqual([
      'package/dist/changes.cjs',
      'package/dist/changes.cjs.map',
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
