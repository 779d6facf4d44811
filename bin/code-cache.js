// Loads dist/udcli.cjs with a V8 code cache of udcli's own, so a command starts from compiled code.
//
// Why not Node's module compile cache alone (module.enableCompileCache, Node 22.1 and later): it
// keeps the code V8 compiled when the file was first compiled, before it ran, and V8 compiles a
// function only when it is first called; so every start compiled again each function the command
// runs, and Node 20 has no such cache at all. A cache made after the command ran holds those
// functions too: `udcli user <uid> --json` took about 9 ms less CPU on Node 24 and 20 ms less on
// Node 20 (issue 43, measured side by side on this machine).
//
// One cache file per build, Node version, architecture, command (its first words), Node options
// and file of the build (udcli.cjs, and changes.cjs, sandbox.cjs or tools.cjs once the command
// requires it): each holds the functions that command ran in that file. A cache is written only
// after a command succeeded and only when there was none or V8 refused it; writing one removes
// the files of other builds that are a day old. The build's id is the hash scripts/build.js
// writes as the last line of each built file, the same in all of them: V8 itself checks only
// the source's length, and an installed package's files all have the same time stamp.
//
// The directory is the user's own (UDCLI_CACHE_DIR, else the platform's cache directory), 0700;
// a file is read only when it is a regular file of this user that nobody else may write, at most
// CACHE_LIMIT bytes, and written as write-whole.ts writes: to a new temporary name (O_EXCL, no
// link followed, 0600), renamed into place. Anything that fails falls back to require(): the
// cache only ever saves time. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as it does Node's.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const { homedir } = require('node:os');
const { basename, dirname, join } = require('node:path');

const BUILD_LINE = /\n\/\/# udcli-build ([0-9a-f]{16,64})\n?$/;
const CACHE_LIMIT = 64 * 1024 * 1024;
const STALE_MS = 24 * 60 * 60 * 1000;
const WORD = /^[a-z][a-z-]{0,31}$/;
/**
 * How the built files require each other (`./changes.cjs`); which of them are the files of the
 * split is what their last line says (dist/dynamic-import.cjs names no build: Node loads it).
 */
const BUILT_SIBLING = /^\.\/[\w-]+\.cjs$/;

/** Where the caches live: UDCLI_CACHE_DIR, else the platform's per-user cache directory. */
function cacheDir(env) {
  if (env.UDCLI_CACHE_DIR) return env.UDCLI_CACHE_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'udcli');
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'udcli', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'udcli');
}

/** The command's first words (`user`, `achievements-list`): its cache's name; options end them. */
function commandKey(args) {
  const words = [];
  for (const a of args.slice(0, 2)) {
    if (!WORD.test(a)) break;
    words.push(a);
  }
  return words.length > 0 ? words.join('-') : 'root';
}

/**
 * Node's options as given (`node --expose-gc`, NODE_OPTIONS), as 8 hex digits, or '' without any: V8 refuses a cache
 * made under other flags, so runs with and without them keep a file each instead of replacing each other's.
 */
function flagsKey(execArgv, nodeOptions) {
  const flags = [...execArgv, nodeOptions ?? ''].join(' ').trim();
  if (flags === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193) >>> 0;
  return `-${hash.toString(16).padStart(8, '0')}`;
}

/** The file's bytes when it is a regular file of this user that only this user may write, else undefined. */
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
    if (!st.isFile() || foreign || othersWrite || st.size > CACHE_LIMIT) return undefined;
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes `data` whole as `name` in `dir` (a new temporary file renamed into place); old files of other builds go. */
function writeCache(dir, name, build, data) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temp = join(dir, `${name}.tmp-${process.pid}-${Math.random().toString(16).slice(2)}`);
  const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);
  const fd = fs.openSync(temp, flags, 0o600);
  try {
    fs.writeFileSync(fd, data);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(temp, join(dir, name));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  // Another build's files go once a day old: two installs used in turn do not delete each other's at every start.
  const old = Date.now() - STALE_MS;
  for (const other of fs.readdirSync(dir)) {
    if (!other.endsWith('.v8') || other.startsWith(`${build}-`)) continue;
    const path = join(dir, other);
    if (fs.lstatSync(path).mtimeMs < old) fs.rmSync(path, { force: true });
  }
}

/** The file's source and the build it names on its last line (scripts/build.js), or undefined. */
function readBuilt(file) {
  let source;
  try {
    source = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const build = BUILD_LINE.exec(source.slice(-100))?.[1];
  return build === undefined ? undefined : { source, build };
}

/**
 * dist/udcli.cjs's exports, compiled from this command's cache when there is a good one, and a
 * `done(code)` to call when the command has ended (it writes the caches when that is worth it).
 * The other files of the build (those whose last line names the same build) load the same way
 * when udcli.cjs or one of them first requires them, each with a cache file of its own: a change
 * command spends as long in dist/changes.cjs as in udcli.cjs.
 * @param {string} file  dist/udcli.cjs, resolved
 * @param {string[]} args  the command line
 */
function loadCached(file, args) {
  const env = process.env;
  const plain = () => ({ exports: require(file), done() {} });
  if (env.NODE_DISABLE_COMPILE_CACHE) return plain();
  const main = readBuilt(file);
  if (main === undefined) return plain();
  const vm = require('node:vm');
  const dist = dirname(file);
  const dir = cacheDir(env);
  const key = `${main.build}-${process.version}-${process.arch}-${commandKey(args)}${flagsKey(process.execArgv, env.NODE_OPTIONS)}`;
  /** @type {Array<{ name: string, script: import('node:vm').Script, stale: boolean }>} */
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
      return load(target, built.source);
    };
    return Object.assign(splitRequire, { resolve: base.resolve, cache: base.cache, main: base.main });
  };

  /** Compiles and runs one file of the split as Node would require it, from its cache when V8 takes it. */
  const load = (path, source) => {
    const tag = basename(path, '.cjs');
    // dist/udcli.cjs's file keeps the name it had before the other files were cached.
    const name = tag === 'udcli' ? `${key}.v8` : `${key}-${tag}.v8`;
    const cachedData = readOwn(join(dir, name));
    // No importModuleDynamically: it needs a flag or warns; these files import through dist/dynamic-import.cjs instead.
    const script = new vm.Script(Module.wrap(source), { filename: path, cachedData });
    compiled.push({ name, script, stale: cachedData === undefined || script.cachedDataRejected === true });
    const module = new Module(path, undefined);
    module.filename = path;
    // The files of the split require each other: each must get this module, not a second copy.
    require.cache[path] = module;
    const wrapper = script.runInThisContext();
    wrapper.call(module.exports, module.exports, requireFor(path), module, path, dist);
    module.loaded = true;
    return module.exports;
  };

  const exports = load(file, main.source);
  return {
    exports,
    done(code) {
      if (code !== 0) return;
      for (const { name, script, stale } of compiled) {
        if (!stale) continue;
        try {
          writeCache(dir, name, main.build, script.createCachedData());
        } catch {
          // No cache this time (a read-only home, a full disk): the next start compiles again.
        }
      }
    },
  };
}

module.exports = { loadCached };
