/**
 * The package as a user gets it, from one `npm pack` (after `npm run build`, like every e2e test) and a registry on
 * loopback serving this clone's node_modules (pack-helpers.ts), so every install is offline:
 * - `npm pack` holds only what a user needs, and the tarball installed globally into a clean prefix, in a fresh HOME,
 *   gives a working `udcli`, its native SQLite module included (better-sqlite3 13's prebuilt binary on Node 22 and
 *   later, with no compiler; 12 on Node 20: docs/NODE.md).
 * - docs/TESTING.md's recipes as a studio runs them: the tarball installed into a scratch project, examples/ copied
 *   in, and each recipe run by its own runner: node:test, vitest, jest. Also the shipped types compiled against a
 *   consumer file, and `udcli/sandbox` imported and required from the project.
 * One file, so the pack, the registry and (Node 20) the local prebuild are made once for both installs.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
  type Run,
} from './pack-helpers.js';

const VERSION = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version;
/**
 * Both installs start from a folder whose package.json opts out of Scarf's analytics, as a studio may: its install
 * step (swagger-ui-dist depends on it) reads the package.json of the folder npm was started in, and without these
 * settings runs `npm ls` over the whole installed tree to find who depends on it, a second of CPU for nothing
 * tested here (and, where there is a network, reports the install to scarf.sh).
 */
const SCARF_OFF = { enabled: false, skipTraversal: true };

let root: string;
let filename: string;
let tarball: string;
let entries: string[];
let prebuilds: string | undefined;
let registry: { url: string; close(): Promise<void> };
/** npm's cache, empty for the first install; the second one takes the packages from it. */
let npmCache: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-pack-'));
  // dist/ is already built (`npm run build` comes before the e2e tests). `prepare` would rebuild
  // it here, rewriting the files that the other e2e tests are running at the same time.
  const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], {
    timeoutMs: 170_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  filename = info!.filename;
  tarball = join(root, filename);
  const list = await run('tar', ['-tzf', tarball], { timeoutMs: 30_000 });
  expect(list.code, list.stderr).toBe(0);
  entries = list.stdout.split('\n').filter((line) => line !== '' && !line.endsWith('/'));
  if (NODE_MAJOR < 22) prebuilds = await localPrebuild(mkdtempSync(join(root, 'prebuilds-')));
  registry = await localRegistry(mkdtempSync(join(root, 'registry-')));
  npmCache = join(root, 'npm-cache');
}, 180_000);

afterAll(async () => {
  await registry?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
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
    const cwd = mkdtempSync(join(root, 'cwd-'));
    writeFileSync(
      join(cwd, 'package.json'),
      JSON.stringify({ name: 'anywhere', private: true, scarfSettings: SCARF_OFF }),
    );
    const env = cleanEnv({
      HOME: home,
      npm_config_userconfig: join(home, '.npmrc'),
      npm_config_cache: npmCache,
      // Set in the environment, so the install scripts' own npm (Node 20's driver) asks it too.
      npm_config_registry: registry.url,
      ...(prebuilds === undefined
        ? { PATH: `${compilers.bin}:${process.env.PATH ?? ''}` }
        : { npm_config_better_sqlite3_local_prebuilds: prebuilds }),
    });
    const install = await run(
      'npm',
      ['install', '-g', '--prefix', prefix, tarball, '--foreground-scripts=false', '--no-audit', '--no-fund'],
      { cwd, env, timeoutMs: 330_000 },
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

describe('the recipes of docs/TESTING.md, from the installed tarball', () => {
  let project: string;
  const bin = (pkg: string, file: string): string => join(REPO, 'node_modules', pkg, file);
  const inProject = (command: string, args: string[]): Promise<Run> =>
    run(command, args, { cwd: project, env: cleanEnv({ HOME: root }), timeoutMs: 120_000 });
  const passed = (r: Run): void => expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);

  beforeAll(async () => {
    project = join(root, 'game-server');
    mkdirSync(project);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'game-server',
        private: true,
        type: 'module',
        dependencies: { udcli: `file:../${filename}` },
        scarfSettings: SCARF_OFF,
      }),
    );
    cpSync(join(REPO, 'examples'), join(project, 'examples'), { recursive: true });
    const install = await run('npm', ['install', '--foreground-scripts=false', '--no-audit', '--no-fund'], {
      cwd: project,
      env: cleanEnv({
        HOME: root,
        npm_config_userconfig: join(root, '.npmrc'),
        // The global install's cache: what it fetched is taken from there without asking the registry again
        // (prefer-offline, in the environment so that the install step's own npm does so too); what it did not
        // fetch (this test run alone) comes from the registry as before.
        npm_config_cache: npmCache,
        npm_config_prefer_offline: 'true',
        npm_config_registry: registry.url,
        ...(prebuilds === undefined ? {} : { npm_config_better_sqlite3_local_prebuilds: prebuilds }),
      }),
      timeoutMs: 330_000,
    });
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
    // The runners themselves are this clone's (a studio has its own): vitest is imported by its test file, so the
    // project finds it; jest and tsc run from here and resolve the test's imports from the project.
    symlinkSync(join(REPO, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
  }, 400_000);

  it('node:test', async () => {
    passed(await inProject(process.execPath, ['--test', 'examples/node-test.test.mjs']));
  });

  it('vitest', async () => {
    passed(await inProject(process.execPath, [bin('vitest', 'vitest.mjs'), 'run', 'examples/vitest.test.mjs']));
  });

  it('vitest with one sandbox for the run (globalSetup) and a worker’s own game per file', async () => {
    const r = await inProject(process.execPath, [
      bin('vitest', 'vitest.mjs'),
      'run',
      '--config',
      'examples/shared/vitest.config.mjs',
    ]);
    passed(r);
    expect(r.stdout).toMatch(/Tests\s+4 passed/);
  });

  it('jest', async () => {
    const r = await inProject(process.execPath, [
      bin('jest', 'bin/jest.js'),
      '--rootDir',
      '.',
      'examples/jest.test.cjs',
    ]);
    passed(r);
    expect(r.stderr).toMatch(/Tests:\s+2 passed/);
  });

  it('the shipped types: a TypeScript test file importing udcli/sandbox compiles (tsc --noEmit), a wrong use does not', async () => {
    // TypeScript 7's native compiler (the repo's typecheck): the same checks as 5.9's, in a fraction of its CPU.
    const tsc = bin('typescript-7', 'bin/tsc');
    // A studio's strict settings, with no @types/node: only what the shipped file declares is used.
    const compile = (file: string) => {
      const config = join(project, `tsconfig.${file.replace(/\W/g, '-')}.json`);
      const compilerOptions = { noEmit: true, strict: true, module: 'nodenext', target: 'es2022', types: [] };
      writeFileSync(
        config,
        JSON.stringify({
          compilerOptions: { ...compilerOptions, lib: ['es2022', 'esnext.disposable'] },
          files: [file],
        }),
      );
      return inProject(process.execPath, [tsc, '-p', config]);
    };
    passed(await compile('examples/consumer.ts'));
    writeFileSync(
      join(project, 'examples', 'wrong.ts'),
      "import { startSandbox } from 'udcli/sandbox';\nexport const s = startSandbox({ port: 'any' });\n",
    );
    const wrong = await compile('examples/wrong.ts');
    expect(wrong.code).not.toBe(0);
    expect(wrong.stdout).toMatch(/wrong\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  it('import and require of udcli/sandbox give two sandboxes in one process; udcli/package.json stays reachable', async () => {
    const script = `
        import { createRequire } from 'node:module';
        import { startSandbox } from 'udcli/sandbox';
        const require = createRequire(import.meta.url);
        const [a, b] = await Promise.all([startSandbox(), require('udcli/sandbox').startSandbox({ seed: 'none' })]);
        const answer = await fetch(a.url + '/services/rest/v1/users/' + a.users[0].uid + '.json?api_key=' + a.apiKey);
        console.log(JSON.stringify({
          ports: a.port !== b.port, status: answer.status, users: [a.users.length > 0, b.users.length],
          version: require('udcli/package.json').version,
        }));
        await Promise.all([a.stop(), b.stop()]);
      `;
    const r = await inProject(process.execPath, ['--input-type=module', '-e', script]);
    passed(r);
    expect(JSON.parse(r.stdout)).toEqual({ ports: true, status: 200, users: [true, 0], version: VERSION });
  });
});
