// For the gc-soak rows (bench/node.js): a forced full garbage collection every 200 ms, in a
// process started with --expose-gc, so statements the sandbox prepares and drops are freed while
// it serves (better-sqlite3 12 on Node 24.19–24.21 aborted the process there).
import { setInterval } from 'node:timers';

setInterval(() => globalThis.gc(), 200).unref();
