/**
 * Start-up cost: `udcli`, `--version` and `--help` print the answer stored at build time; `help`
 * and the rest load the built file (dist/udcli.cjs) and only the packages the command needs, and
 * of udcli's own modules only the command's. The built binary runs under a resolve hook
 * (test/cli/fixtures/record-loads.mjs) that logs every module it resolves; which of udcli's own
 * modules load is seen in the per-module build (test/cli/fixtures/modules-main.mjs), where each is
 * a file. Needs `npm run build`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN } from './harness.js';
import { fileScratch } from '../scratch.js';
import { until } from '../until.js';

const HOOK = fileURLToPath(new URL('../cli/fixtures/record-loads.mjs', import.meta.url));
const MODULES_MAIN = fileURLToPath(new URL('../cli/fixtures/modules-main.mjs', import.meta.url));
const PACKAGE = JSON.parse(readFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};
/** Packages start-up must not load, each one udcli depends on (so a name here cannot go stale). */
const HEAVY = ['undici', 'chalk', 'cli-table3', 'ora', 'fastify', 'yaml', 'better-sqlite3', 'pg'];
const dir = fileScratch('udcli-startup-');

function loadedModules(args: string[], entry = BIN): { code: number | null; stdout: string; urls: string[] } {
  const log = join(dir, `${entry === BIN ? '' : 'modules_'}${args.join('_').replace(/\W/g, '')}.log`);
  const r = spawnSync(process.execPath, ['--import', HOOK, entry, ...args], {
    // A data dir of its own: `profile list` follows a sandbox running from the default one (another session's).
    env: {
      PATH: process.env.PATH,
      UDCLI_TEST_LOAD_LOG: log,
      UDCLI_CONFIG_DIR: join(dir, 'cfg'),
      UDCLI_DATA_DIR: join(dir, 'data'),
      NO_COLOR: '1',
    },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, urls: readFileSync(log, 'utf8').trim().split('\n') };
}

function packagesOf(urls: string[]): Set<string> {
  const names = new Set<string>();
  for (const url of urls) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) names.add(m[1]!);
  }
  return names;
}

describe('start-up imports', () => {
  it('names only packages udcli depends on', () => {
    for (const name of HEAVY)
      expect({ ...PACKAGE.dependencies, ...PACKAGE.optionalDependencies }).toHaveProperty([name]);
  });

  it.each([[[]], [['--version']], [['--help']], [['-h']]])(
    '%j prints the stored answer and loads neither the CLI nor a package',
    (args) => {
      const r = loadedModules(args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe('');
      // the bin itself was resolved, so the hook did record
      expect(r.urls.some((u) => u.endsWith('/bin/udcli.js'))).toBe(true);
      expect(r.urls.some((u) => u.includes('/dist/'))).toBe(false);
      expect([...packagesOf(r.urls)]).toEqual([]);
    },
  );

  it.each([[['help']], [['help', 'profile']], [['--help', 'user']]])('%j loads commander and nothing heavy', (args) => {
    const r = loadedModules(args);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toBe('');
    // the hook saw the program's own file, so it did record
    expect(r.urls.some((u) => u.endsWith('/dist/udcli.cjs'))).toBe(true);
    const packages = packagesOf(r.urls);
    expect([...packages]).toEqual(['commander']);
    for (const heavy of HEAVY) expect(packages.has(heavy)).toBe(false);
  });

  it('help loads no command module, help <cmd> only that one', () => {
    const commandModules = (urls: string[]) => [
      ...new Set(
        urls.filter((u) => /\/dist\/cli\/commands\/[^/]+\/index\.js$/.test(u)).map((u) => u.split('/').at(-2)),
      ),
    ];
    const help = loadedModules(['help'], MODULES_MAIN);
    expect(help.code).toBe(0);
    // the per-module build ran, so an empty list below means no command module
    expect(help.urls.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
    expect(commandModules(help.urls)).toEqual([]);
    expect(commandModules(loadedModules(['help', 'profile'], MODULES_MAIN).urls)).toEqual(['profile']);
  });

  it('pg loads only for a team trail: neither a read nor a change with the local audit log loads it', () => {
    const nowhere = ['--base-url', 'http://127.0.0.1:1', '--api-key', '0123456789abcdef0123456789abcdef'];
    const user = loadedModules(['user', '01e528d59829836fd23b09085b56edab', '--json', '--retries', '0', ...nowhere]);
    // it ran to the network (exit 5: nothing listens there), so the modules of a read were loaded
    expect(user.code).toBe(5);
    expect(packagesOf(user.urls).has('pg')).toBe(false);
    // A change opens its trail (here the local file) before it sends anything.
    const give = ['products', 'give', '01e528d59829836fd23b09085b56edab', 'xp-boost', '--game', '1001', '--yes'];
    const change = loadedModules([...give, '--retries', '0', ...nowhere]);
    expect(change.code).toBe(5);
    expect(packagesOf(change.urls).has('undici') || change.urls.some((u) => u.includes('/dist/'))).toBe(true);
    expect(packagesOf(change.urls).has('pg')).toBe(false);
  });

  it('a piped command loads no table, colour or spinner library', () => {
    const r = loadedModules(['profile', 'list']);
    expect(r.code).toBe(0);
    const packages = packagesOf(r.urls);
    for (const heavy of HEAVY) expect(packages.has(heavy), [...packages].join(' ')).toBe(false);
  });
});

describe('sandbox start', () => {
  /** The packages a foreground `sandbox start` had loaded when it printed its URL (it is stopped then). */
  async function packagesAtReady(name: string, args: string[]): Promise<Set<string>> {
    const log = join(dir, `start_${name}.log`);
    const child = spawn(process.execPath, ['--import', HOOK, BIN, 'sandbox', 'start', '--port', '0', ...args], {
      env: {
        PATH: process.env.PATH,
        UDCLI_TEST_LOAD_LOG: log,
        UDCLI_CONFIG_DIR: join(dir, `cfg-${name}`),
        UDCLI_DATA_DIR: join(dir, `data-${name}`),
        NO_COLOR: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const ended = new Promise((resolve) => child.on('close', resolve));
    try {
      await until(() => out.includes('http://'), `sandbox start ${args.join(' ')} to print its URL`);
    } finally {
      child.kill('SIGTERM');
      await ended;
    }
    return packagesOf(readFileSync(log, 'utf8').trim().split('\n'));
  }

  it("loads Fastify and SQLite, but not Fastify's schema compilers (no route has a schema) nor, without a data file, the YAML reader", async () => {
    const demo = await packagesAtReady('demo', []);
    for (const needed of ['fastify', 'better-sqlite3']) expect(demo.has(needed), needed).toBe(true);
    for (const spared of ['ajv', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'yaml'])
      expect(demo.has(spared), spared).toBe(false);

    // A data file is read and checked with them: the control that the log sees these packages at all.
    const file = join(dir, 'start-data.yaml');
    writeFileSync(file, 'games:\n  - id: "4242"\n    name: Loads\n');
    const withData = await packagesAtReady('data', ['--data', file]);
    for (const needed of ['yaml', 'ajv']) expect(withData.has(needed), needed).toBe(true);
  });
});

describe('node:crypto', () => {
  const BUILTINS = fileURLToPath(new URL('../cli/fixtures/record-builtins.mjs', import.meta.url));
  /** Whether the command loaded node:crypto (several ms of start-up) by any path. */
  const loadsCrypto = (args: string[]): boolean => {
    const log = join(dir, `builtins_${args.join('_').replace(/\W/g, '')}.log`);
    spawnSync(process.execPath, ['--import', BUILTINS, BIN, ...args], {
      env: {
        PATH: process.env.PATH,
        UDCLI_TEST_BUILTINS_LOG: log,
        UDCLI_CONFIG_DIR: join(dir, 'cfg'),
        UDCLI_DATA_DIR: join(dir, 'data'),
        NO_COLOR: '1',
      },
      encoding: 'utf8',
    });
    return readFileSync(log, 'utf8').split('\n').includes('NativeModule crypto');
  };
  const nowhere = [
    '--base-url',
    'http://127.0.0.1:1',
    '--api-key',
    '0123456789abcdef0123456789abcdef',
    '--retries',
    '0',
  ];

  it('a read never loads it; a signed change does', () => {
    expect(loadsCrypto(['user', '01e528d59829836fd23b09085b56edab', '--json', ...nowhere])).toBe(false);
    expect(loadsCrypto(['achievements', 'list', '01e528d59829836fd23b09085b56edab', '--json', ...nowhere])).toBe(false);
    // The signature of a dry run is made all the same (agi's placeholder challenge).
    const inc = ['achievements', 'inc', '01e528d59829836fd23b09085b56edab', 'FIRST_WIN', '--game', '1001', '--dry-run'];
    expect(loadsCrypto([...inc, ...nowhere])).toBe(true);
  });
});

describe('source maps', () => {
  const INTERNAL = fileURLToPath(new URL('../cli/fixtures/internal-error.mjs', import.meta.url));
  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--import', INTERNAL, BIN, ...args], {
      env: { PATH: process.env.PATH, UDCLI_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' },
      encoding: 'utf8',
    });

  it("under --verbose, an internal error's stack names the source files and lines; without, maps stay off", () => {
    const verbose = run(['profile', 'list', '--verbose']);
    expect(verbose.status).toBe(1);
    expect(verbose.stderr).toMatch(/^udcli: internal error: planted by the test$/m);
    expect(verbose.stderr).toMatch(/\/src\/cli\/commands\/profile\/list\.ts:\d+:\d+\)$/m);
    expect(verbose.stderr).toContain('source maps: true');

    const quiet = run(['profile', 'list']);
    expect(quiet.status).toBe(1);
    expect(quiet.stderr).toBe('udcli: internal error: planted by the test\nsource maps: false\n');
  });
});
