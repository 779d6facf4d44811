// Module hooks: resolve `./x.js` to `./x.ts` when only the .ts exists; transpile .ts on load.
import { appendFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { transpile } from './transpile.mjs';

export async function resolve(specifier, context, next) {
  try {
    return await next(specifier, context);
  } catch (error) {
    if (specifier.endsWith('.js') && /^(\.|\/|file:)/.test(specifier)) {
      return next(`${specifier.slice(0, -3)}.ts`, context);
    }
    throw error;
  }
}

export async function load(url, context, next) {
  // Tests that check what a command loads set UDCLI_TEST_LOAD_LOG to a file: one URL a line.
  if (process.env.UDCLI_TEST_LOAD_LOG) appendFileSync(process.env.UDCLI_TEST_LOAD_LOG, `${url}\n`);
  if (!url.endsWith('.ts')) return next(url, context);
  const source = await readFile(new URL(url), 'utf8');
  return { format: 'module', source: await transpile(url, source), shortCircuit: true };
}
