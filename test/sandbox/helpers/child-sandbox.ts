// A sandbox in its own process: `node --import register-ts.mjs child-sandbox.ts DB_PATH`.
// Prints its URL as one JSON line, then runs until killed.
import { startSandbox } from '../../../src/sandbox/server.js';

const dbPath = process.argv[2];
if (!dbPath) throw new Error('usage: child-sandbox.ts DB_PATH');
const sandbox = await startSandbox({ port: 0, dbPath, seed: 'demo' });
process.stdout.write(`${JSON.stringify({ url: sandbox.url, pid: process.pid })}\n`);
