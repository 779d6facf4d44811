/**
 * Start-up cost: `udcli`, `--version` and `--help` print the answer stored at build time; `help`
 * and the rest load the CLI core and only the command they run. The built binary runs
 * under a resolve hook (test/cli/fixtures/record-loads.mjs) that logs every module it resolves.
 * Needs `npm run build`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './harness.js';

const HOOK = fileURLToPath(new URL('../cli/fixtures/record-loads.mjs', import.meta.url));
const HEAVY = ['undici', 'chalk', 'cli-table3', 'conf', 'ora', 'fastify', 'better-sqlite3'];
const dir = mkdtempSync(join(tmpdir(), 'udcli-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function loadedModules(args: string[]): { code: number | null; stdout: string; urls: string[] } {
  const log = join(dir, `${args.join('_').replace(/\W/g, '')}.log`);
  const r = spawnSync(process.execPath, ['--import', HOOK, BIN, ...args], {
    env: { PATH: process.env.PATH, UDCLI_TEST_LOAD_LOG: log, UDCLI_CONFIG_DIR: join(dir, 'cfg'), NO_COLOR: '1' },
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
  it.each([[[]], [['--version']], [['--help']], [['-h']]])(
    '%j prints the stored answer and loads neither the CLI nor a package',
    (args) => {
      const r = loadedModules(args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe('');
      // the bin itself was resolved, so the hook did record
      expect(r.urls.some((u) => u.endsWith('/bin/udcli.js'))).toBe(true);
      expect(r.urls.some((u) => u.includes('/dist/cli/main.js'))).toBe(false);
      expect([...packagesOf(r.urls)]).toEqual([]);
    },
  );

  it.each([[['help']], [['help', 'profile']], [['--help', 'user']]])('%j loads commander and nothing heavy', (args) => {
    const r = loadedModules(args);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toBe('');
    // the hook saw the program's own modules, so it did record
    expect(r.urls.some((u) => u.endsWith('/dist/cli/main.js'))).toBe(true);
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
    expect(commandModules(loadedModules(['help']).urls)).toEqual([]);
    expect(commandModules(loadedModules(['help', 'profile']).urls)).toEqual(['profile']);
  });

  it('a piped command loads no table, colour or spinner library', () => {
    const r = loadedModules(['profile', 'list']);
    expect(r.code).toBe(0);
    const packages = packagesOf(r.urls);
    for (const heavy of ['cli-table3', 'chalk', 'ora', 'conf', 'undici']) expect(packages.has(heavy)).toBe(false);
  });
});
