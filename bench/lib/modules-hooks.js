// Loader hooks of modules-preload.js (they run on the loader's own thread): every module an
// `import` loads, one URL a line, into the file named by BENCH_MODULES_FILE.
import { appendFileSync } from 'node:fs';

/** @param {string} url @param {unknown} context @param {(url: string, context: unknown) => unknown} next */
export async function load(url, context, next) {
  if (process.env.BENCH_MODULES_FILE) appendFileSync(process.env.BENCH_MODULES_FILE, `${url}\n`);
  return next(url, context);
}
