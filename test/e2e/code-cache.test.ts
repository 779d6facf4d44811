/**
 * The built binary's compiled code (issue 51): Node's module compile cache, kept in the user's own
 * cache directory (UDCLI_CACHE_DIR, else the platform's), never in the shared temporary directory,
 * and only when bin/cache-dir.js vouches for that directory. The process is the subject, so the
 * built binary runs (npm test builds first). What a user would check: the same output with and
 * without the cache, the directory private, nothing that grows with the arguments, a directory
 * that is not the user's own neither followed nor used, an edited file's new code run, and old
 * Node versions' folders swept. Node 20 has no compile cache: there nothing is kept at all.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { fileScratch } from '../scratch.js';

const root = fileScratch('udcli-code-cache-');
let dirs = 0;
/** A cache directory of its own for one test. */
const freshDir = () => join(root, `cache-${++dirs}`);
const ARGS = ['user', DEMO.user.username, '--json'];
const HAS_CACHE = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

/** Every file Node keeps under `<dir>/node-compile-cache`, relative to it. */
/** A new directory `path` that any user may write (mode 0777, no sticky bit). */
function writableByAll(path: string): string {
  mkdirSync(path);
  chmodSync(path, 0o777);
  return path;
}

function kept(dir: string): string[] {
  const node = join(dir, 'node-compile-cache');
  if (!existsSync(node)) return [];
  return readdirSync(node).flatMap((version) => readdirSync(join(node, version)).map((entry) => `${version}/${entry}`));
}

describe('the compiled code of the built binary', () => {
  it('is kept in the private cache directory (Node 22.1 and later), the output the same; other arguments add nothing', async ({
    sandbox,
  }) => {
    const dir = freshDir();
    const uncached = await sandbox.runBinary(ARGS, { env: { NODE_DISABLE_COMPILE_CACHE: '1', UDCLI_CACHE_DIR: dir } });
    expect(uncached.code, uncached.stderr).toBe(0);
    // NODE_DISABLE_COMPILE_CACHE turns it off: nothing made.
    expect(existsSync(dir)).toBe(false);

    const first = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
    expect(first).toEqual(uncached);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const files = kept(dir);
    if (!HAS_CACHE) {
      expect(files).toEqual([]);
      return;
    }
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => f.startsWith(`${process.version}-${process.arch}-`))).toBe(true);

    expect(await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } })).toEqual(uncached);
    // The same command for another user: the same files, one per file of the package, not per argument.
    const other = await sandbox.runBinary(['user', 'alice', '--json'], { env: { UDCLI_CACHE_DIR: dir } });
    expect(other.code, other.stderr).toBe(0);
    expect(kept(dir).sort()).toEqual([...files].sort());
  });

  it('a directory it cannot make costs the command nothing', async ({ sandbox }) => {
    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'not a directory');
    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: join(blocked, 'cache') } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(JSON.parse(r.stdout)).toMatchObject({ username: DEMO.user.username });
  });

  it('is never kept in a directory that is a link, that another user could write, or below one', async ({
    sandbox,
  }) => {
    // A link at the directory's place: not followed, nothing written where it points.
    const target = join(root, 'link-dir-target');
    mkdirSync(target, { mode: 0o700 });
    const linked = join(root, 'linked-cache');
    symlinkSync(target, linked);
    const viaLink = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: linked } });
    expect(viaLink.code, viaLink.stderr).toBe(0);
    expect(readdirSync(target)).toEqual([]);

    // A directory others may write: not used.
    const open = writableByAll(join(root, 'open-cache'));
    const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: open } });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(open)).toEqual([]);

    // Below a directory another user may write, without the sticky bit: that user could swap it.
    const shared = writableByAll(join(root, 'shared-parent'));
    const below = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: join(shared, 'cache') } });
    expect(below.code, below.stderr).toBe(0);
    expect(kept(join(shared, 'cache'))).toEqual([]);
  });

  it.skipIf(!HAS_CACHE)(
    "sweeps only Node's own folders of other versions, a day old, on a version's first start",
    async ({ sandbox }) => {
      const dir = freshDir();
      const node = join(dir, 'node-compile-cache');
      mkdirSync(node, { recursive: true, mode: 0o700 });
      const old = join(node, 'v1.0.0-x64-0a1b2c3d-0');
      const recent = join(node, 'v1.0.1-x64-0a1b2c3d-0');
      const notNodes = join(node, 'notes');
      for (const d of [old, recent, notNodes]) mkdirSync(d);
      const twoDaysAgo = (Date.now() - 2 * 24 * 60 * 60 * 1000) / 1000;
      for (const d of [old, notNodes]) utimesSync(d, twoDaysAgo, twoDaysAgo);

      const r = await sandbox.runBinary(ARGS, { env: { UDCLI_CACHE_DIR: dir } });
      expect(r.code, r.stderr).toBe(0);
      const names = readdirSync(node);
      expect(names).not.toContain('v1.0.0-x64-0a1b2c3d-0');
      expect(names).toContain('v1.0.1-x64-0a1b2c3d-0');
      expect(names).toContain('notes');
      expect(names.some((n) => n.startsWith(`${process.version}-`))).toBe(true);
    },
  );

  it('an edit of the same length to the built file runs the new code', () => {
    // A copy of the package: its dist/udcli.cjs says something else in the root help after a first run.
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
    const dir = freshDir();
    const help = () =>
      spawnSync(process.execPath, [join(copy, 'bin', 'udcli.js'), '--help'], {
        env: { PATH: process.env.PATH, HOME: root, UDCLI_CACHE_DIR: dir, UDCLI_LIVE_HELP: '1' },
        encoding: 'utf8',
      });
    const before = help();
    expect(before.status, before.stderr).toBe(0);
    expect(before.stdout).toContain('Show the audit log');
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
