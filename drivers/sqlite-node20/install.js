'use strict';
/**
 * udcli's install step (package.json "install"), for Node 20 in an install from the package
 * (`npm install -g udcli-*.tgz`): npm links this folder into udcli but does not install what it
 * depends on (better-sqlite3 12), as a clone's `npm ci` does from the lockfile. So it is installed
 * here, by npm, into this folder's node_modules, where index.js finds it. Nothing to do on Node 22
 * and later (better-sqlite3 13 comes prebuilt and this package is not installed), nor where the
 * driver is already here (a clone). A failure fails the install: a udcli whose sandbox cannot run
 * would otherwise be found out later.
 */
const { spawnSync } = require('node:child_process');

function present() {
  try {
    require.resolve('better-sqlite3', { paths: [__dirname] });
    return true;
  } catch {
    return false;
  }
}

if (Number(process.versions.node.split('.')[0]) < 22 && !present()) {
  // The npm running this install, with its registry, cache and settings from the environment;
  // but into this folder, not the global prefix a `-g` install set.
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (/^npm_config_(global|prefix|location)$/i.test(key)) delete env[key];
  const npm = process.env.npm_execpath;
  const args = ['install', '--no-save', '--no-package-lock', '--omit=dev', '--no-audit', '--no-fund'];
  const options = { cwd: __dirname, env, stdio: 'inherit' };
  const run = npm ? spawnSync(process.execPath, [npm, ...args], options) : spawnSync('npm', args, options);
  if (run.status !== 0 || !present()) {
    process.stderr.write(`udcli: could not install better-sqlite3 12, the SQLite driver for Node ${process.versions.node} (see docs/NODE.md); on Node 22 or later none is compiled\n`);
    process.exitCode = 1;
  }
}
