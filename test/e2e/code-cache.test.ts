/**
 * bin/code-cache.js: the built binary starts from a code cache of its own, one file per build, Node
 * and command, written after a command succeeded. The process is the subject, so the built binary
 * runs (npm test builds first). What a user would check: the same output with and without the
 * cache, the file private and in its place, nothing written after a failure, and a cache that is
 * not udcli's own (a planted link, a file others may write, garbage) neither followed nor trusted.
 * The other files of the build (dist/changes.cjs, sandbox.cjs, tools.cjs) get a file each once a
 * command loads them, and only when they are of the same build.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';

const root = mkdtempSync(join(tmpdir(), 'udcli-code-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
/** A cache directory of its own for one test. */
const freshDir = () => join(root, `cache-${++dirs}`);
const ARGS = ['user', DEMO.user.username, '--json'];
const BUILD = /^[0-9a-f]{32}-v\d+\.\d+\.\d+-[a-z0-9]+-user(?:-[0-9a-f]{8})?\.v8$/;

describe('the code cache of the built binary', () => {
  it('is written after the first command, private, then used as it is: the output is the same', async ({ sandbox }) => {
    const dir = freshDir();
    const uncached = await sandbox.runBinary(ARGS, { env: { NODE_DISABLE_COMPILE_CACHE: '1', UDCLI_CACHE_DIR: dir } });
    expect(uncached.code, uncached.stderr).toBe(0);
    // NODE_DISABLE_COMPILE_CACHE turns it off: nothing written.
    expect(() => readdirSync(dir)).toThrow();

    const first = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(first).toEqual(uncached);
    const [name, ...more] = readdirSync(dir);
    expect(more).toEqual([]);
    expect(name).toMatch(BUILD);
    expect(name).toContain(`-${process.version}-${process.arch}-`);
    const file = join(dir, name!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = statSync(file);

    const second = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(second).toEqual(uncached);
    // V8 took it: not written again.
    const after = statSync(file);
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);

    // Under other Node options V8 would refuse it: a file of their own, this one left as it is.
    const flagged = await sandbox.runBinary(ARGS, {
      env: { UDCLI_CACHE_DIR: dir, NODE_OPTIONS: '--max-old-space-size=300' },
    });
    expect(flagged).toEqual(uncached);
    expect(readdirSync(dir).sort()).toHaveLength(2);
    const kept = statSync(file);
    expect([kept.ino, kept.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
  });

  it('is not written after a command that failed, and a directory it cannot make costs the command nothing', async ({
    sandbox,
  }) => {
    const dir = freshDir();
    const failed = await sandbox.runBinary(['user', 'no_such_user_anywhere'], { env: { UDCLI_CACHE_DIR: dir } });
    expect(failed.code).toBe(4);
    expect(() => readdirSync(dir)).toThrow();

    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: join(blocked, 'cache') } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ username: DEMO.user.username });
  });

  it('never follows a link planted at its name, nor trusts a file others may write or garbage', async ({ sandbox }) => {
    const dir = freshDir();
    const first = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(first.code, first.stderr).toBe(0);
    const name = readdirSync(dir)[0]!;
    const file = join(dir, name);

    // Garbage in its place: refused by V8, the command's output unchanged, a good cache written over it.
    writeFileSync(file, Buffer.alloc(4096, 0x5a), { mode: 0o600 });
    expect(await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } })).toEqual(first);
    expect(readFileSync(file).equals(Buffer.alloc(4096, 0x5a))).toBe(false);

    // A file anybody may write is not read, and is replaced by one only its owner may.
    chmodSync(file, 0o666);
    expect(await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } })).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // A link at the name, to a cache V8 would take: not read through (so a cache is written, in
    // place of the link), and the file it points to is never written.
    const target = join(root, 'link-target');
    const good = readFileSync(file);
    writeFileSync(target, good, { mode: 0o600 });
    rmSync(file);
    symlinkSync(target, file);
    expect(await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } })).toEqual(first);
    expect(lstatSync(file).isFile()).toBe(true);
    expect(readFileSync(target).equals(good)).toBe(true);
  });

  it("removes another build's files once they are a day old, and only then", async ({ sandbox }) => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const other = (age: string) => join(dir, `${'0'.repeat(31)}${age === 'old' ? '1' : '2'}-v1.0.0-x64-user.v8`);
    writeFileSync(other('old'), 'an older build', { mode: 0o600 });
    writeFileSync(other('new'), 'a build used beside this one', { mode: 0o600 });
    const twoDaysAgo = (Date.now() - 2 * 24 * 60 * 60 * 1000) / 1000;
    utimesSync(other('old'), twoDaysAgo, twoDaysAgo);

    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(dir);
    expect(names).not.toContain(other('old').slice(dir.length + 1));
    expect(names).toContain(other('new').slice(dir.length + 1));
    expect(names.filter((n) => BUILD.test(n) && !n.startsWith('0'.repeat(31)))).toHaveLength(1);
  });

  it('keeps a file for each file of the build a command loads, and only for files of its own build', async ({
    sandbox,
  }) => {
    // `audit` loads dist/changes.cjs beside dist/udcli.cjs; it only reads (an empty log here).
    const env = { UDCLI_CONFIG_DIR: join(root, 'audit-config') };
    const dir = freshDir();
    const uncached = await sandbox.runBinary(['audit', '--json'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(uncached.code, uncached.stderr).toBe(0);
    const first = await sandbox.runBinary(['audit', '--json'], { env: { ...env, UDCLI_CACHE_DIR: dir } });
    expect(first).toEqual(uncached);
    const names = readdirSync(dir);
    expect(names).toHaveLength(2);
    const main = names.find((n) => n.endsWith('-audit.v8'))!;
    const changes = main.replace(/\.v8$/, '-changes.v8');
    expect(names).toContain(changes);
    expect(statSync(join(dir, changes)).mode & 0o777).toBe(0o600);
    const written = statSync(join(dir, changes));
    expect(await sandbox.runBinary(['audit', '--json'], { env: { ...env, UDCLI_CACHE_DIR: dir } })).toEqual(uncached);
    const after = statSync(join(dir, changes));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);

    // A copy of the package whose dist/changes.cjs names another build (one file of an update
    // already in place): that file is loaded as it is, and no cache is kept for it.
    const repo = fileURLToPath(new URL('../..', import.meta.url));
    const copy = join(root, 'package-copy');
    for (const file of [
      'package.json',
      ...readdirSync(join(repo, 'bin')).map((n) => `bin/${n}`),
      ...readdirSync(join(repo, 'dist'))
        .filter((n) => n.endsWith('.cjs') || n.endsWith('.json'))
        .map((n) => `dist/${n}`),
    ]) {
      mkdirSync(join(copy, file, '..'), { recursive: true });
      copyFileSync(join(repo, file), join(copy, file));
    }
    symlinkSync(join(repo, 'node_modules'), join(copy, 'node_modules'));
    const changesFile = join(copy, 'dist', 'changes.cjs');
    writeFileSync(
      changesFile,
      readFileSync(changesFile, 'utf8').replace(/udcli-build [0-9a-f]+\n$/, `udcli-build ${'e'.repeat(32)}\n`),
    );
    const mixedDir = freshDir();
    const mixed = spawnSync(process.execPath, [join(copy, 'bin', 'udcli.js'), 'audit', '--json'], {
      env: { PATH: process.env.PATH, HOME: root, ...env, UDCLI_CACHE_DIR: mixedDir },
      encoding: 'utf8',
    });
    expect({ code: mixed.status, stdout: mixed.stdout, stderr: mixed.stderr }).toEqual({
      code: 0,
      stdout: uncached.stdout,
      stderr: uncached.stderr,
    });
    expect(readdirSync(mixedDir)).toEqual([main]);
  });
});
