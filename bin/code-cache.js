// Loads dist/udcli.cjs with a V8 code cache of udcli's own, so a command starts from compiled code.
//
// Why beside Node's module compile cache (bin/udcli.js enables that one too, for the packages):
// Node's keeps the code V8 compiled before the file ran, and V8 compiles a function only when it
// is first called, so every start compiled again each function the command runs. A cache made
// after the command ran holds those functions too (bench/CHANGES.md, issue 51: `achievements inc`
// and `user` on Node 24 and 26, measured side by side with Node's cache alone and with none).
//
// Bounded and private (issue 51, point 2):
// - One file per build, Node version, architecture, command and file of the build (udcli.cjs, and
//   changes.cjs, sandbox.cjs or tools.cjs once the command requires it). The command is the one
//   the CLI says it ran (`achievements-inc`, from its own command table, never the arguments), so
//   `udcli user alice` and `udcli user bob` share one file. A start looks for the file of its
//   first two words, then of its first word (`user alice` finds `user`).
// - Own files only: names of this exact shape, in the directory bin/cache-dir.js vouches for (the
//   user's own, no link followed, no one else able to write it). Writing one removes another
//   build's files once a day old, this process's own temporary file whatever happens, other
//   temporary files of udcli's an hour old, and then the least recently used files past CACHE_CAP.
// - Checked against the file's content: V8 itself checks only the source's length, so an edit of
//   the same length would otherwise run the old code. Beside the caches of each built file lies a
//   copy of the source they were made from (`…-udcli.src`, one per build, Node and built file,
//   not per command), with a random generation; a start compares the source with that copy byte
//   for byte (no hash: node:crypto alone costs a read command more than the cache saves), and
//   takes a cache only when its header names the copy's generation. A source that differs gets
//   a new copy and a new generation, which no older cache names.
// A file is read only when it is a regular file of this user that nobody else may write, at most
// FILE_LIMIT bytes, and written as write-whole.ts writes: to a new temporary name (O_EXCL, no link
// followed, 0600), renamed into place. Anything that fails falls back to require(): the cache only
// ever saves time. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { basename, dirname, join } = require('node:path');

const BUILD_LINE = /\n\/\/# udcli-build ([0-9a-f]{16,64})\n?$/;
const MAGIC = Buffer.from('udcliV8\n', 'latin1');
const SOURCE_MAGIC = Buffer.from('udcliSRC', 'latin1');
const GENERATION_BYTES = 8;
const FILE_LIMIT = 16 * 1024 * 1024;
/** All of udcli's cache files together: a few commands' worth; the least recently used go first. */
const CACHE_CAP = 8 * 1024 * 1024;
const OTHER_BUILD_MS = 24 * 60 * 60 * 1000;
const TEMP_MS = 60 * 60 * 1000;
const WORD = /^[a-z][a-z-]{0,31}$/;
/** udcli's cache files and their temporary names: nothing else in the directory is ever removed. */
const OWN =
  /^([0-9a-f]{16,64})-v\d+\.\d+\.\d+-[a-z0-9]+-[a-z][a-z-]{0,63}-[a-z][a-z0-9-]{0,31}\.v8(\.tmp-\d+-[0-9a-f]+)?$/;
/**
 * How the built files require each other (`./changes.cjs`); which of them are the files of the
 * split is what their last line says (dist/dynamic-import.cjs names no build: Node loads it).
 */
const BUILT_SIBLING = /^\.\/[\w-]+\.cjs$/;

/** The names a start looks for, in order: its first two words, then its first word (options end them). */
function commandKeys(args) {
  const words = [];
  for (const a of args.slice(0, 2)) {
    if (!WORD.test(a)) break;
    words.push(a);
  }
  if (words.length === 0) return ['root'];
  return words.length === 2 ? [words.join('-'), words[0]] : [words[0]];
}

/** A new generation for a source copy: only needs to differ from the last one, so no node:crypto. */
function newGeneration() {
  const g = Buffer.alloc(GENERATION_BYTES);
  g.writeUInt32LE((Math.random() * 2 ** 32) >>> 0, 0);
  g.writeUInt32LE((Date.now() ^ (process.pid << 16) ^ (Math.random() * 2 ** 32)) >>> 0, 4);
  return g;
}

/** The file's bytes, when it is this user's and only theirs to write, at most FILE_LIMIT bytes; its use noted. */
function readOwn(path) {
  let fd;
  try {
    fd = fs.openSync(path, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch {
    return undefined;
  }
  try {
    const st = fs.fstatSync(fd);
    // Windows has no uid owners nor these mode bits (its files report 0o666): there the profile's ACLs hold.
    const posix = process.platform !== 'win32';
    const foreign = posix && typeof process.getuid === 'function' && st.uid !== process.getuid();
    const othersWrite = posix && (st.mode & 0o022) !== 0;
    if (!st.isFile() || foreign || othersWrite || st.size > FILE_LIMIT) return undefined;
    const bytes = fs.readFileSync(fd);
    // Used now: the cap removes the least recently used files first.
    const now = new Date();
    fs.futimesSync(fd, now, now);
    return bytes;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** `bytes` after `magic` and a generation, when the file starts so and `generation` (if given) is that one. */
function afterHeader(bytes, magic, generation) {
  const head = magic.length + GENERATION_BYTES;
  if (bytes === undefined || bytes.length <= head || !bytes.subarray(0, magic.length).equals(magic)) return undefined;
  const found = bytes.subarray(magic.length, head);
  if (generation !== undefined && !found.equals(generation)) return undefined;
  return { generation: found, rest: bytes.subarray(head) };
}

/** Writes `data` whole as `name` in `dir` (a new temporary file renamed into place). */
function writeWhole(dir, name, data) {
  const temp = join(dir, `${name}.tmp-${process.pid}-${Math.random().toString(16).slice(2, 10)}`);
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
  try {
    const fd = fs.openSync(temp, flags, 0o600);
    try {
      fs.writeFileSync(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, join(dir, name));
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Another build's files a day old, stray temporary ones an hour old, the least used past the cap: udcli's only. */
function sweep(dir, build) {
  const now = Date.now();
  const kept = [];
  for (const name of fs.readdirSync(dir)) {
    const own = OWN.exec(name);
    if (own === null) continue;
    const path = join(dir, name);
    const st = fs.lstatSync(path);
    if (!st.isFile()) continue;
    const age = now - st.mtimeMs;
    if (own[2] !== undefined ? age > TEMP_MS : own[1] !== build && age > OTHER_BUILD_MS)
      fs.rmSync(path, { force: true });
    else if (own[2] === undefined) kept.push({ path, size: st.size, used: st.mtimeMs });
  }
  // Node's compile cache (bin/udcli.js) keeps a folder per Node version and never removes one: other versions' go.
  const node = join(dir, 'node-compile-cache');
  for (const name of fs.existsSync(node) ? fs.readdirSync(node) : []) {
    const st = fs.lstatSync(join(node, name));
    if (st.isDirectory() && !name.startsWith(`${process.version}-`) && now - st.mtimeMs > OTHER_BUILD_MS)
      fs.rmSync(join(node, name), { recursive: true, force: true });
  }
  let total = kept.reduce((sum, f) => sum + f.size, 0);
  for (const file of kept.sort((a, b) => a.used - b.used)) {
    if (total <= CACHE_CAP) break;
    fs.rmSync(file.path, { force: true });
    total -= file.size;
  }
}

/** The file's bytes, source and the build it names on its last line (scripts/build.js), or undefined. */
function readBuilt(file) {
  let bytes;
  try {
    bytes = fs.readFileSync(file);
  } catch {
    return undefined;
  }
  const source = bytes.toString('utf8');
  const build = BUILD_LINE.exec(source.slice(-100))?.[1];
  return build === undefined ? undefined : { bytes, source, build };
}

/**
 * dist/udcli.cjs's exports, compiled from this command's cache when there is a good one, and a
 * `done(code)` to call when the command has ended (it writes the caches when that is worth it).
 * The other files of the build (those whose last line names the same build) load the same way
 * when udcli.cjs or one of them first requires them, each with a cache file of its own: a change
 * command spends as long in dist/changes.cjs as in udcli.cjs.
 * @param {string} file  dist/udcli.cjs, resolved
 * @param {string[]} args  the command line
 * @param {string} dir  the cache directory, as bin/cache-dir.js vouched for it
 */
function loadCached(file, args, dir) {
  const main = readBuilt(file);
  if (main === undefined) return { exports: require(file), done() {} };
  const vm = require('node:vm');
  const dist = dirname(file);
  const prefix = `${main.build}-${process.version}-${process.arch}`;
  const keys = commandKeys(args);
  /** @typedef {{ tag: string, bytes: Buffer, generation?: Buffer, taken?: string }} Compiled */
  /** @type {Array<Compiled & { script: import('node:vm').Script }>} */
  const compiled = [];

  /** A require for the file at `path`: the split's files through load(), anything else as Node does. */
  const requireFor = (path) => {
    const base = Module.createRequire(path);
    const splitRequire = (id) => {
      if (!BUILT_SIBLING.test(id)) return base(id);
      const target = join(dist, id.slice(2));
      const known = require.cache[target];
      if (known) return known.exports;
      const built = readBuilt(target);
      // No build line (dynamic-import.cjs), or another build's (an install under way): Node loads it, uncached.
      if (built?.build !== main.build) return base(id);
      return load(target, built);
    };
    return Object.assign(splitRequire, { resolve: base.resolve, cache: base.cache, main: base.main });
  };

  /** Compiles and runs one file of the split as Node would require it, from its cache when V8 takes it. */
  const load = (path, built) => {
    const tag = basename(path, '.cjs');
    // This file's caches hold only if the copy they were made beside is this source, byte for byte.
    const copy = afterHeader(readOwn(join(dir, `${prefix}-${tag}.src`)), SOURCE_MAGIC);
    const generation = copy !== undefined && copy.rest.equals(built.bytes) ? copy.generation : undefined;
    let cachedData;
    let taken;
    for (const key of generation === undefined ? [] : keys) {
      cachedData = afterHeader(readOwn(join(dir, `${prefix}-${key}-${tag}.v8`)), MAGIC, generation)?.rest;
      if (cachedData !== undefined) {
        taken = key;
        break;
      }
    }
    // No importModuleDynamically: it needs a flag or warns; these files import through dist/dynamic-import.cjs instead.
    const script = new vm.Script(Module.wrap(built.source), { filename: path, cachedData });
    compiled.push({
      tag,
      bytes: built.bytes,
      ...(generation !== undefined ? { generation } : {}),
      script,
      ...(script.cachedDataRejected === true ? {} : { taken }),
    });
    const module = new Module(path, undefined);
    module.filename = path;
    // The files of the split require each other: each must get this module, not a second copy.
    require.cache[path] = module;
    const wrapper = script.runInThisContext();
    wrapper.call(module.exports, module.exports, requireFor(path), module, path, dist);
    module.loaded = true;
    return module.exports;
  };

  const exports = load(file, main);
  return {
    exports,
    done(code) {
      if (code !== 0) return;
      // The command the CLI ran, from its own table: the name this command's caches are kept under.
      const ran = exports.commandRun?.()?.replaceAll(' ', '-') ?? 'root';
      // A start finds only the names its own words give (`--profile x user …` gives none): no file it could not read.
      if (!keys.includes(ran)) return;
      let wrote = false;
      for (const { tag, bytes, script, taken, ...known } of compiled) {
        if (taken === ran) continue;
        try {
          let generation = known.generation;
          if (generation === undefined) {
            // A source no copy matches (new, or edited in place): a new copy, and a generation no older cache names.
            generation = newGeneration();
            writeWhole(dir, `${prefix}-${tag}.src`, Buffer.concat([SOURCE_MAGIC, generation, bytes]));
          }
          writeWhole(dir, `${prefix}-${ran}-${tag}.v8`, Buffer.concat([MAGIC, generation, script.createCachedData()]));
          wrote = true;
        } catch {
          // No cache this time (a read-only home, a full disk): the next start compiles again.
        }
      }
      try {
        if (wrote) sweep(dir, main.build);
      } catch {
        // Swept next time.
      }
    },
  };
}

module.exports = { loadCached };
