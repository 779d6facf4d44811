'use strict';
// bin/udcli.js with its start-up cache chosen by UDCLI_BENCH_CACHE, for bench/compile-cache.js:
//   both    udcli's own code cache (bin/code-cache.js) and Node's compile cache in UDCLI_BENCH_NODE_CACHE
//   loader  udcli's own code cache alone
//   node    Node's compile cache alone (dist/udcli.cjs required as Node requires it)
//   none    neither
// Everything else is bin/udcli.js's path for a command (no stored help, no source maps).
const Module = require('node:module');

const variant = process.env.UDCLI_BENCH_CACHE ?? 'none';
const args = process.argv.slice(2);
if (variant === 'both' || variant === 'node') Module.enableCompileCache?.(process.env.UDCLI_BENCH_NODE_CACHE);
const file = require.resolve('../../dist/udcli.cjs');
const udcli =
  variant === 'both' || variant === 'loader'
    ? require('../../bin/code-cache.js').loadCached(
        file,
        args,
        require('../../bin/cache-dir.js').privateCacheDir(process.env),
      )
    : { exports: require(file), done() {} };
udcli.exports.main(args).then((code) => {
  process.exitCode = code;
  udcli.done(code);
  if (process.stdout.writableLength === 0 && process.stderr.writableLength === 0) process.exit(code);
});
