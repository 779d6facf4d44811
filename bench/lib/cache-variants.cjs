'use strict';
// bin/udcli.js with Node's compile cache chosen by UDCLI_BENCH_CACHE, for bench/compile-cache.js:
//   node  Node's compile cache in UDCLI_BENCH_NODE_CACHE (what bin/udcli.js does, in its private directory)
//   none  no cache
// (udcli's own V8 code cache, bin/code-cache.js, was measured beside these and removed: bench/CHANGES.md.)
// Everything else is bin/udcli.js's path for a command (no stored help, no source maps).
const Module = require('node:module');

if (process.env.UDCLI_BENCH_CACHE === 'node') Module.enableCompileCache?.(process.env.UDCLI_BENCH_NODE_CACHE);
const args = process.argv.slice(2);
require('../../dist/udcli.cjs')
  .main(args)
  .then((code) => {
    process.exitCode = code;
    if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
  });
