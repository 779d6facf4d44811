'use strict';
/**
 * udcli's install step (package.json "install"), on Node 20 only: better-sqlite3 12 is there and
 * compiled when it ends. Nothing to do on Node 22 and later (better-sqlite3 13 comes prebuilt and
 * this folder's package is not installed there).
 *
 * - From the package (`npm install -g udcli-*.tgz`): npm links this folder into udcli but does not
 *   install what it depends on, as a clone's `npm ci` does from the lockfile; so it is installed
 *   here, by the npm running this step, into this folder's node_modules, where index.js finds it.
 * - In both cases udcli builds it here rather than letting npm run better-sqlite3's own install
 *   script: package.json's allowScripts denies better-sqlite3 by name, because 13 ships a
 *   binding.gyp that npm would otherwise compile on Node 22+ (docs/NODE.md), and a deny pinned to
 *   one version would need registry URLs in the lockfile. So this step runs 12's install script
 *   itself (a prebuilt binary where one can be had, else node-gyp).
 *
 * node-gyp compiles against the running Node's own headers when its prefix has them
 * (`<prefix>/include/node`, as Debian's and the official tarballs do), and only downloads them when
 * they are not there (or npm's `nodedir` names others): a machine that reaches the npm registry and
 * nothing else installs with a fresh HOME too (issue 54).
 *
 * A failure fails the install: a udcli whose sandbox cannot run would otherwise be found out later.
 */
const { existsSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { spawnSync } = require('node:child_process');

function driverDir() {
  try {
    return dirname(require.resolve('better-sqlite3/package.json', { paths: [__dirname] }));
  } catch {
    return undefined;
  }
}

/** The running Node's prefix when it has the headers node-gyp compiles against, else undefined. */
function localHeaders() {
  const prefix = dirname(dirname(process.execPath));
  return existsSync(join(prefix, 'include', 'node', 'node.h')) ? prefix : undefined;
}

function fail(what, headers) {
  const why =
    what === 'build' && headers === undefined
      ? `: no C headers of Node ${process.versions.node} beside it (${join(dirname(dirname(process.execPath)), 'include', 'node')}) and none could be downloaded; use Node 22 or later (nothing is compiled there), or install this Node's headers (or set npm_config_nodedir to a folder that has include/node)`
      : ' (see docs/NODE.md); on Node 22 or later none is compiled';
  process.stderr.write(
    `udcli: could not ${what} better-sqlite3 12, the SQLite driver for Node ${process.versions.node}${why}\n`,
  );
  process.exit(1);
}

/** The npm running this install, with its registry, cache and settings from the environment. */
function npm(args, cwd, env = process.env) {
  const options = { cwd, env, stdio: 'inherit' };
  const npmCli = process.env.npm_execpath;
  return npmCli
    ? spawnSync(process.execPath, [npmCli, ...args], options)
    : spawnSync('npm', args, { ...options, shell: process.platform === 'win32' });
}

if (Number(process.versions.node.split('.')[0]) < 22) {
  if (driverDir() === undefined) {
    // Into this folder, not the global prefix a `-g` install set.
    const env = { ...process.env };
    for (const key of Object.keys(env)) if (/^npm_config_(global|prefix|location)$/i.test(key)) delete env[key];
    const run = npm(
      ['install', '--no-save', '--no-package-lock', '--omit=dev', '--no-audit', '--no-fund', '--ignore-scripts'],
      __dirname,
      env,
    );
    if (run.status !== 0 || driverDir() === undefined) fail('install');
  }
  const dir = driverDir();
  if (!existsSync(join(dir, 'build', 'Release', 'better_sqlite3.node'))) {
    // A nodedir the user set wins; else this Node's own headers, where its prefix has them.
    const headers = process.env.npm_config_nodedir || localHeaders();
    const env = headers === undefined ? process.env : { ...process.env, npm_config_nodedir: headers };
    const run = npm(['run-script', 'install'], dir, env);
    if (run.status !== 0 || !existsSync(join(dir, 'build', 'Release', 'better_sqlite3.node'))) fail('build', headers);
  }
}
