#!/usr/bin/env node
// Thin loader: everything lives in dist/, built by `npm install` (prepare) or `npm run build`.
import { main } from '../dist/cli/main.js';

process.exitCode = await main(process.argv.slice(2));
