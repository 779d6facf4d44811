/**
 * bin/code-cache.js: the built binary starts from a code cache of its own, one file per build, Node,
 * command (as the CLI's table names it) and built file, written after a command succeeded; and
 * Node's own compile cache, kept in the same private directory (bin/cache-dir.js), never in the
 * shared temporary directory (issue 51). The process is the subject, so the built binary
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
const BUILD = /^[0-9a-f]{32}-v\d+\.\d+\.\d+-[a-z0-9]+-user-(udcli|sandbox)\.v8$/;
/** udcli's own cache files in `dir` (Node's compile cache keeps a folder beside them on Node 22 and later). */
const v8Files = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.v8'));

describe('the code cache of the built binary', () => {
  it('is written after the first command, private, then used as it is: the output is the same', async ({ sandbox }) => {
    const dir = freshDir();
    const uncached = await sandbox.runBinary(ARGS, { env: { NODE_DISABLE_COMPILE_CACHE: '1', UDCLI_CACHE_DIR: dir } });
    expect(uncached.code, uncached.stderr).toBe(0);
    // NODE_DISABLE_COMPILE_CACHE turns it off: nothing written.
    expect(() => readdirSync(dir)).toThrow();

    const first = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(first).toEqual(uncached);
    const [name, ...more] = v8Files(dir);
    expect(more).toEqual([]);
    expect(name).toMatch(BUILD);
    expect(name).toContain(`-${process.version}-${process.arch}-user-udcli.v8`);
    const file = join(dir, name!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const written = statSync(file).ino;

    const second = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(second).toEqual(uncached);
    // V8 took it: not written again (a rewrite renames a new file into place).
    expect(statSync(file).ino).toBe(written);

    // Another user name, the same command: the same file, not one per argument.
    const other = await sandbox.runBinary(['user', 'alice', '--json'], { env: { UDCLI_CACHE_DIR: dir } });
    expect(other.code, other.stderr).toBe(0);
    expect(v8Files(dir)).toEqual([name]);
    expect(statSync(file).ino).toBe(written);
  });

  it('is not written after a command that failed, and a directory it cannot make costs the command nothing', async ({
    sandbox,
  }) => {
    const dir = freshDir();
    const failed = await sandbox.runBinary(['user', 'no_such_user_anywhere'], { env: { UDCLI_CACHE_DIR: dir } });
    expect(failed.code).toBe(4);
    expect(v8Files(dir)).toEqual([]);

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
    const name = v8Files(dir)[0]!;
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

  it("sweeps only its own files: another build's a day old, stray temporary ones an hour old, the least used past its cap", async ({
    sandbox,
  }) => {
    const dir = freshDir();
    mkdirSync(dir, { mode: 0o700 });
    const own = (build: string, what: string) => join(dir, `${build}-v1.0.0-x64-${what}.v8`);
    const otherOld = own(`${'0'.repeat(31)}1`, 'user-udcli');
    const otherNew = own(`${'0'.repeat(31)}2`, 'user-udcli');
    const strayTemp = `${own(`${'0'.repeat(31)}3`, 'user-udcli')}.tmp-4242-0123abcd`;
    // Not udcli's, though they look like caches: never removed, whatever their age.
    const foreign = [join(dir, 'notes.v8'), join(dir, 'someone-elses-tool.v8')];
    // Big enough that, with this build's files, they pass the cap (8 MiB): the least recently used go first.
    const bulky = [1, 2, 3].map((n) => own(`${'0'.repeat(31)}${3 + n}`, `bulk-${'a'.repeat(n)}-udcli`));
    for (const f of [otherOld, otherNew, strayTemp, ...foreign]) writeFileSync(f, 'x', { mode: 0o600 });
    for (const f of bulky) writeFileSync(f, Buffer.alloc(3 * 1024 * 1024), { mode: 0o600 });
    const ago = (hours: number) => (Date.now() - hours * 60 * 60 * 1000) / 1000;
    for (const f of [otherOld, ...foreign]) utimesSync(f, ago(48), ago(48));
    utimesSync(strayTemp, ago(2), ago(2));
    utimesSync(bulky[0]!, ago(3), ago(3));
    utimesSync(bulky[1]!, ago(1), ago(1));

    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(r.code, r.stderr).toBe(0);
    const names = readdirSync(dir);
    const has = (f: string) => names.includes(f.slice(dir.length + 1));
    expect(has(otherOld)).toBe(false);
    expect(has(otherNew)).toBe(true);
    expect(has(strayTemp)).toBe(false);
    for (const f of foreign) expect(has(f)).toBe(true);
    // Oldest first until under the cap: the one used 3 hours ago went, the newer two stay.
    expect(bulky.map(has)).toEqual([false, true, true]);
    expect(names.filter((n) => BUILD.test(n) && !n.startsWith('0'.repeat(31)))).toHaveLength(1);
    const ownBytes = names
      .filter((n) => n.endsWith('.v8'))
      .filter((n) => !['notes.v8', 'someone-elses-tool.v8'].includes(n))
      .reduce((sum, n) => sum + statSync(join(dir, n)).size, 0);
    expect(ownBytes).toBeLessThanOrEqual(8 * 1024 * 1024);
  });

  it('is never kept in a directory that is a link or that another user could write', async ({ sandbox }) => {
    // A link at the directory's place: not followed, nothing written where it points.
    const target = join(root, 'link-dir-target');
    mkdirSync(target, { mode: 0o700 });
    const linked = join(root, 'linked-cache');
    symlinkSync(target, linked);
    const viaLink = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: linked } });
    expect(viaLink.code, viaLink.stderr).toBe(0);
    expect(readdirSync(target)).toEqual([]);

    // A directory others may write: not used.
    const open = join(root, 'open-cache');
    mkdirSync(open);
    chmodSync(open, 0o777);
    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: open } });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(open)).toEqual([]);

    // Below a directory another user may write, without the sticky bit: that user could swap it.
    const shared = join(root, 'shared-parent');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const below = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: join(shared, 'cache') } });
    expect(below.code, below.stderr).toBe(0);
    expect(v8Files(join(shared, 'cache'))).toEqual([]);
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
    const names = v8Files(dir);
    expect(names).toHaveLength(2);
    const main = names.find((n) => n.endsWith('-audit-udcli.v8'))!;
    const changes = main.replace(/-udcli\.v8$/, '-changes.v8');
    expect(names).toContain(changes);
    expect(statSync(join(dir, changes)).mode & 0o777).toBe(0o600);
    const written = statSync(join(dir, changes)).ino;
    expect(await sandbox.runBinary(['audit', '--json'], { env: { ...env, UDCLI_CACHE_DIR: dir } })).toEqual(uncached);
    expect(statSync(join(dir, changes)).ino).toBe(written);

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
    expect(v8Files(mixedDir)).toEqual([main]);

    // The same length, other bytes: the copy's dist/udcli.cjs says something else in the root help.
    // V8 alone checks only the length, and would run the code cached from the bytes before.
    const copyDir = freshDir();
    const help = () =>
      spawnSync(process.execPath, [join(copy, 'bin', 'udcli.js'), '--help'], {
        env: { PATH: process.env.PATH, HOME: root, ...env, UDCLI_CACHE_DIR: copyDir, UDCLI_LIVE_HELP: '1' },
        encoding: 'utf8',
      });
    const before = help();
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout).toContain('Show the audit log');
    expect(v8Files(copyDir).some((n) => n.endsWith('-root-udcli.v8'))).toBe(true);
    const mainFile = join(copy, 'dist', 'udcli.cjs');
    const text = readFileSync(mainFile, 'utf8');
    const edited = text.replaceAll('Show the audit log', 'Show THE AUDIT LOG');
    expect(edited.length).toBe(text.length);
    expect(edited).not.toBe(text);
    writeFileSync(mainFile, edited);
    const after = help();
    expect(after.status, after.stderr).toBe(0);
    expect(after.stdout).toContain('Show THE AUDIT LOG');
  });
});
