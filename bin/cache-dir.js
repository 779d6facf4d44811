// The one directory udcli keeps compiled code in, and the checks that make it the user's own.
//
// Compiled code is code: whoever can write a cache file that udcli reads runs code as the user
// who runs udcli (root included). Node's default compile cache directory is a shared folder under
// the temporary directory whose owner Node does not check, so another user who creates it first
// plants bytecode there (issue 51, point 1). udcli's caches live in the user's own cache directory
// instead, and only when that directory and every directory above it are beyond other users'
// reach: owned by this user or root, and writable by nobody else (a sticky directory such as /tmp
// aside, whose entries others cannot rename or replace). Otherwise nothing is cached.
'use strict';
const fs = require('node:fs');
const { homedir } = require('node:os');
const { dirname, join } = require('node:path');

/** Where the caches live: UDCLI_CACHE_DIR, else the platform's per-user cache directory. */
function cacheDirPath(env) {
  if (env.UDCLI_CACHE_DIR) return env.UDCLI_CACHE_DIR;
  const home = env.HOME || homedir();
  if (process.platform === 'darwin') return join(home, 'Library', 'Caches', 'udcli');
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'udcli', 'Cache');
  return join(env.XDG_CACHE_HOME || join(home, '.cache'), 'udcli');
}

/** Whether a directory above the cache keeps others from replacing what is below it. */
function safeAncestor(st, uid) {
  if (!st.isDirectory()) return false;
  if (st.uid !== uid && st.uid !== 0) return false;
  return (st.mode & 0o022) === 0 || (st.mode & 0o1000) !== 0;
}

/**
 * The cache directory, made 0700 when missing, when it is a directory of this user's that no one
 * else can write or replace; else undefined (and the caller caches nothing). Windows has no uid
 * owners nor these mode bits: there the profile directory's ACLs hold, and the path is taken.
 * @param {NodeJS.ProcessEnv} env
 * @returns {string | undefined}
 */
function privateCacheDir(env) {
  const dir = cacheDirPath(env);
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform === 'win32' || typeof process.getuid !== 'function') return dir;
    const uid = process.getuid();
    // Not followed: a link here could be swapped for another target by whoever owns it.
    const own = fs.lstatSync(dir);
    if (!own.isDirectory() || own.uid !== uid || (own.mode & 0o022) !== 0) return undefined;
    // Above it, links are resolved (a /home that is a link is common) and each real directory checked.
    for (let up = fs.realpathSync(dirname(dir)); ; up = dirname(up)) {
      if (!safeAncestor(fs.lstatSync(up), uid)) return undefined;
      if (dirname(up) === up) break;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/** Node keeps a folder per version (`v24.22.3-x64-…`) and never removes one: other versions' go once a day old. */
const OTHER_VERSION_MS = 24 * 60 * 60 * 1000;

/**
 * On the first start of this Node version (its folder not there yet), once the command is over:
 * removes the folders other Node versions left in `<dir>/node-compile-cache`, a day old. Only
 * folders of Node's own naming, in the directory privateCacheDir vouched for.
 * @param {string} dir
 */
function sweepLater(dir) {
  const node = join(dir, 'node-compile-cache');
  let names;
  try {
    names = fs.readdirSync(node);
  } catch {
    return;
  }
  if (names.some((n) => n.startsWith(`${process.version}-`))) return;
  process.once('exit', () => {
    const now = Date.now();
    for (const name of names) {
      if (!/^v\d+\.\d+\.\d+-/.test(name)) continue;
      try {
        const st = fs.lstatSync(join(node, name));
        if (st.isDirectory() && now - st.mtimeMs > OTHER_VERSION_MS)
          fs.rmSync(join(node, name), { recursive: true, force: true });
      } catch {
        // Swept another time.
      }
    }
  });
}

module.exports = { privateCacheDir, sweepLater };
