#!/usr/bin/env node
// Thin loader: udcli is dist/udcli.cjs (and dist/sandbox.cjs, which it loads when a command uses
// the sandbox or runs `udcli sandbox`), built by `npm install` (prepare) or `npm run build`
// (scripts/build.js).
import { readFileSync } from 'node:fs';
import module from 'node:module';

/**
 * `udcli`, `udcli --help`, `-h` and `--version` print the text commander rendered at build time
 * (scripts/render-root-help.js) without loading the CLI: they are the commands people type
 * first and most. Only off a terminal or on one at least as wide as the help; anything else
 * (or UDCLI_LIVE_HELP=1, or a build without the file) goes through commander as usual.
 */
const STORED = new Set(['', '--help', '-h', '--version']);

function storedAnswer(args) {
  if (!STORED.has(args.join(' ')) || process.env.UDCLI_LIVE_HELP) return undefined;
  if (process.stdout.isTTY && (process.stdout.columns ?? 0) < 80) return undefined;
  try {
    // The path src/package-paths.ts gives as ROOT_HELP_PATH: loading that module here would cost what this saves.
    const answers = JSON.parse(readFileSync(new URL('../dist/root-help.json', import.meta.url), 'utf8'));
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
  // Node >= 22.1 caches compiled code on disk for the next start (~6% of `udcli --help` on
  // Node 24); older Node has no such function and starts as before.
  module.enableCompileCache?.();
  // A stack trace (printed under --verbose or -v only) names src/*.ts lines through the source
  // maps; reading a map costs start-up, so only then (a short group such as -ov may ask needlessly).
  if (args.some((a) => a === '--verbose' || /^-[A-Za-z]*v/.test(a))) process.setSourceMapsEnabled(true);
  // require(): one CommonJS file loads faster than as an ES module (issue 43).
  const { main } = module.createRequire(import.meta.url)('../dist/udcli.cjs');
  process.exitCode = await main(args);
}
