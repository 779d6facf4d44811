/**
 * docs/TESTING.md's recipes as a studio runs them: the packed tarball (`npm pack`, after `npm run build`) installed
 * offline into a scratch project (its dependencies from a registry on loopback serving this clone's node_modules,
 * pack-helpers.ts), examples/ copied in, and each recipe run by its own runner: node:test, vitest, jest. Also the
 * shipped types compiled against a consumer file, and `udcli/sandbox` imported and required from the project.
 * One pack and one install for the file.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, localPrebuild, localRegistry, NODE_MAJOR, REPO, run, type Run } from './pack-helpers.js';

let root: string;
let project: string;

const bin = (pkg: string, file: string): string => join(REPO, 'node_modules', pkg, file);
const inProject = (command: string, args: string[]): Promise<Run> =>
  run(command, args, { cwd: project, env: cleanEnv({ HOME: root }), timeoutMs: 120_000 });
const passed = (r: Run): void => expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'udcli-recipes-'));
  const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], {
    timeoutMs: 170_000,
  });
  expect(pack.code, pack.stderr).toBe(0);
  const [info] = JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as Array<{ filename: string }>;
  project = join(root, 'game-server');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'game-server',
      private: true,
      type: 'module',
      dependencies: { udcli: `file:../${info!.filename}` },
    }),
  );
  cpSync(join(REPO, 'examples'), join(project, 'examples'), { recursive: true });
  const registry = await localRegistry(mkdtempSync(join(root, 'registry-')));
  try {
    const prebuilds = NODE_MAJOR < 22 ? await localPrebuild(mkdtempSync(join(root, 'prebuilds-'))) : undefined;
    const install = await run('npm', ['install', '--foreground-scripts=false', '--no-audit', '--no-fund'], {
      cwd: project,
      env: cleanEnv({
        HOME: root,
        npm_config_userconfig: join(root, '.npmrc'),
        npm_config_cache: join(root, '.npm'),
        npm_config_registry: registry.url,
        ...(prebuilds === undefined ? {} : { npm_config_better_sqlite3_local_prebuilds: prebuilds }),
      }),
      timeoutMs: 330_000,
    });
    expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
  } finally {
    await registry.close();
  }
  // The runners themselves are this clone's (a studio has its own): vitest is imported by its test file, so the
  // project finds it; jest and tsc run from here and resolve the test's imports from the project.
  symlinkSync(join(REPO, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
}, 400_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

describe('the recipes of docs/TESTING.md, from the installed tarball', () => {
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
    const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(JSON.parse(r.stdout)).toEqual({ ports: true, status: 200, users: [true, 0], version });
  });
});
