#!/usr/bin/env node
// Thin loader: everything lives in dist/, built by `npm install` (prepare) or `npm run build`.
import module from 'node:module';

// Node >= 22.1 caches compiled code on disk for the next start (~6% of `udcli --help` on
// Node 24); older Node has no such function and starts as before.
module.enableCompileCache?.();

const { main } = await import('../dist/cli/main.js');
process.exitCode = await main(process.argv.slice(2));
