/**
 * Issue 51, point 1: another local user must not be able to make udcli run their code. Node's
 * module compile cache defaults to a shared folder under the temporary directory
 * (`$TMPDIR/node-compile-cache`) and does not check who owns it; a user who creates it first can
 * plant, for a file udcli loads, an entry whose bytecode is theirs (Node checks the source's CRC
 * in the entry's header and V8 only the source's length, both of which the planter can copy from
 * the installed file). The test plants such entries, owned by another user (`nobody`), for every
 * file of bin/ and for dist/udcli.cjs, shows that Node runs a planted entry when pointed at that
 * folder, and then runs the built binary as this user with TMPDIR there: the planted code must
 * not run. Needs Node 22.1 or later (Node 20 has no compile cache) and root (to own files as
 * another user).
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '../fixtures.js';
import { DEMO } from '../../src/domain/demo.js';
import { fileScratch } from '../scratch.js';

const NOBODY = 65534;
const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const isRoot = process.getuid?.() === 0;
const why = !hasCompileCache
  ? `Node ${process.version} has no module compile cache`
  : !isRoot
    ? 'needs root, to own the planted folder as another user'
    : '';

const repo = realpathSync(fileURLToPath(new URL('../..', import.meta.url)));
const root = fileScratch('udcli-planting-');

/** Node's key for a CommonJS file's entry: CRC-32 of the code type (0) and the file name, as hex. */
const entryName = (file: string) =>
  crc32(Buffer.concat([Buffer.from([0]), Buffer.from(file)]))
    .toString(16)
    .padStart(8, '0');

/**
 * What the planter writes instead of `file`: code of theirs that records it ran, padded with a
 * comment to the same length in characters and bytes (the prefix it replaces is ASCII).
 */
function plantedSource(file: string, mark: string): string {
  const real = readFileSync(file, 'utf8');
  const code = `require('node:fs').writeFileSync(${JSON.stringify(mark)}, String(process.getuid()));`;
  const rest = real.slice(code.length + 4).replaceAll('*/', '**');
  const planted = `${code}/*${rest}*/`;
  expect(planted.length).toBe(real.length);
  expect(Buffer.byteLength(planted)).toBe(Buffer.byteLength(real));
  return planted;
}

describe.skipIf(why !== '')(`a planted compile cache${why ? ` (skipped: ${why})` : ''}`, () => {
  it('in the shared temporary directory, made by another user, is never run by udcli', async ({ sandbox }) => {
    // The shared temporary directory, as /tmp is: anyone may create in it, no one may replace another's.
    const shared = join(root, 'tmp');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const mark = join(root, 'planted-code-ran');
    const targets = [
      ...readdirSync(join(repo, 'bin'))
        .filter((n) => n.endsWith('.js'))
        .map((n) => join(repo, 'bin', n)),
      join(repo, 'dist', 'udcli.cjs'),
    ];

    // The planter compiles each stand-in with Node's cache on, in a scratch folder of theirs.
    const scratch = join(root, 'planter');
    mkdirSync(scratch);
    const made = join(scratch, 'cache');
    const standIns = targets.map((file, i) => {
      const path = join(scratch, `stand-in-${i}.cjs`);
      writeFileSync(path, plantedSource(file, mark));
      return path;
    });
    const compiled = spawnSync(process.execPath, ['-e', `for (const f of ${JSON.stringify(standIns)}) require(f)`], {
      env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: made },
      encoding: 'utf8',
    });
    expect(compiled.status, compiled.stderr).toBe(0);
    rmSync(mark, { force: true });
    const [tag, ...moreTags] = readdirSync(made);
    expect(moreTags).toEqual([]);

    // Then plants them under the names of udcli's files, each header naming the real file's CRC.
    const planted = join(shared, 'node-compile-cache', tag!);
    mkdirSync(planted, { recursive: true });
    targets.forEach((file, i) => {
      const entry = readFileSync(join(made, tag!, entryName(standIns[i]!)));
      entry.writeUInt32LE(crc32(readFileSync(file)), 12);
      writeFileSync(join(planted, entryName(file)), entry);
    });
    for (const path of [
      join(shared, 'node-compile-cache'),
      planted,
      ...readdirSync(planted).map((n) => join(planted, n)),
    ])
      chownSync(path, NOBODY, NOBODY);
    for (const path of [join(shared, 'node-compile-cache'), planted]) chmodSync(path, 0o777);

    // The plant works: Node pointed at that folder runs the planter's code for bin/cache-dir.js.
    const control = spawnSync(
      process.execPath,
      ['-e', `require(${JSON.stringify(join(repo, 'bin', 'cache-dir.js'))})`],
      {
        env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: join(shared, 'node-compile-cache') },
        encoding: 'utf8',
      },
    );
    expect(control.status, control.stderr).toBe(0);
    expect(existsSync(mark)).toBe(true);
    rmSync(mark);
    const plantedNames = readdirSync(planted).sort();

    // udcli, run by this user (root) with that shared temporary directory and its own home: the
    // command works and the planted code does not run, with or without its own cache directory.
    const home = join(root, 'home');
    mkdirSync(home, { mode: 0o700 });
    for (const extra of [{}, { UDCLI_CACHE_DIR: join(root, 'cache') }]) {
      const r = await sandbox.runBinary(['user', DEMO.user.username, '--json'], {
        env: { TMPDIR: shared, HOME: home, XDG_CACHE_HOME: '', ...extra },
      });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ username: DEMO.user.username });
      expect(existsSync(mark)).toBe(false);
    }
    // Nothing of udcli's went into the shared folder either.
    expect(readdirSync(planted).sort()).toEqual(plantedNames);
  });
});
