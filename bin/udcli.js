#!/usr/bin/env node
// Thin loader: udcli is dist/udcli.cjs (and dist/sandbox.cjs, which it loads when a command uses
// the sandbox or runs `udcli sandbox`), built by `npm install` (prepare) or `npm run build`
// (scripts/build.js).
//
// CommonJS (bin/package.json): an ES module entry starts Node's ES module loader for this one file
// before dist/udcli.cjs is require()d; as CommonJS, `udcli user <uid> --json` starts about 7 ms
// sooner on Node 24 and 15 ms on Node 20 (issue 43, measured side by side on this machine).
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const Module = require('node:module');

/**
 * `udcli`, `udcli --help`, `-h` and `--version` print the text commander rendered at build time
 * (scripts/render-root-help.js) without loading the CLI: they are the commands people type
 * first and most. The help was laid out for 80 columns, as help is off a terminal: on a terminal
 * of another width (help follows the terminal's width) it goes through commander as usual, as
 * does anything else (or UDCLI_LIVE_HELP=1, or a build without the file).
 */
const STORED = new Set(['', '--help', '-h', '--version']);

function storedAnswer(args) {
  if (!STORED.has(args.join(' ')) || process.env.UDCLI_LIVE_HELP) return undefined;
  if (args[0] !== '--version' && process.stdout.isTTY && (process.stdout.columns || 80) !== 80) return undefined;
  try {
    // The path src/package-paths.ts gives as ROOT_HELP_PATH: loading that module here would cost what this saves.
    const answers = JSON.parse(readFileSync(join(__dirname, '..', 'dist', 'root-help.json'), 'utf8'));
    return answers[args.join(' ')];
  } catch {
    return undefined;
  }
}

/**
 * Node older than 20.18.1 (package.json's engines) gets one line and exit 2 before anything of
 * dist/ loads: it may lack what dist/ uses, and a stack trace would only hide the fix. Which
 * driver each supported Node gets is src/sandbox/sqlite-driver.ts's choice (docs/NODE.md).
 */
function tooOld(version) {
  const [major, minor, patch] = version.split('.').map(Number);
  return major < 20 || (major === 20 && (minor < 18 || (minor === 18 && patch < 1)));
}

if (tooOld(process.versions.node)) {
  process.stderr.write(
    `udcli: Node ${process.versions.node} is not supported: udcli runs on Node 20 (from 20.18.1), 22, 24 or 26; install one of those and run udcli with it\n`,
  );
  process.exit(2);
}

const args = process.argv.slice(2);
const stored = storedAnswer(args);
if (typeof stored === 'string') {
  process.stdout.write(stored);
} else {
  // Compiled code lives in the user's own cache directory or nowhere (bin/cache-dir.js): Node's
  // default is a shared folder under the temporary directory that another user can make first,
  // and plant compiled code in that udcli would then run (issue 51). Node 22.1 and later keep the
  // code they compiled there for the next start (bench/compile-cache.js: as fast as udcli's own
  // V8 cache was, which is gone); Node 20 has no such function and compiles every start.
  const cache = require('./cache-dir.js');
  const cacheDir = process.env.NODE_DISABLE_COMPILE_CACHE ? undefined : cache.privateCacheDir(process.env);
  if (cacheDir !== undefined && Module.enableCompileCache) {
    // Before enabling: enabling makes this version's folder, which is how a first start is told.
    cache.sweepLater(cacheDir);
    Module.enableCompileCache(join(cacheDir, 'node-compile-cache'));
  }
  // A stack trace (printed under --verbose or -v only) names src/*.ts lines through the source
  // maps; reading a map costs start-up, so only then (a short group such as -ov may ask needlessly).
  if (args.some((a) => a === '--verbose' || /^-[A-Za-z]*v/.test(a))) process.setSourceMapsEnabled(true);
  const udcli = { exports: require('../dist/udcli.cjs') };
  // main never rejects (it maps every error to an exit code); the exit code is set when it is done.
  udcli.exports.main(args).then((code) => {
    process.exitCode = code;
    // The command is over: exit now rather than wait for the event loop to drain and the heap to be torn down
    // (a few ms a command). Only once stdout and stderr hold nothing unwritten (a pipe is asynchronous on macOS).
    if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  });
}
