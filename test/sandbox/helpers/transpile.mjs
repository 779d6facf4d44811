// TypeScript → JavaScript for the module hooks that let child processes run the sources
// (ts-loader.mjs here, test/batch/fixtures/ts-hooks.mjs). Loading `typescript` costs a child
// process about two seconds of CPU, and transpiling the sandbox's modules as much again, for
// every child a test spawns. So each output is kept on disk under a hash of everything it
// depends on (the source, its name, the options, typescript's version): a child whose modules
// are all there never loads `typescript` at all. An entry can only ever be the output of exactly
// that input, so nothing is invalidated; a cache that cannot be written is simply not used.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(import.meta.url);
const TS_VERSION = JSON.parse(readFileSync(require.resolve('typescript/package.json'), 'utf8')).version;
const CACHE = join(tmpdir(), `udcli-test-ts-cache-${process.getuid?.() ?? 'user'}`);

/** @type {typeof import('typescript') | undefined} */
let ts;

/**
 * @param {string} fileName
 * @param {string} source
 * @param {Record<string, unknown>} options compilerOptions, with `module` and `target` as names ('ESNext', 'ES2022')
 * @returns {Promise<string>}
 */
export async function transpile(fileName, source, options) {
  const key = createHash('sha256')
    .update(JSON.stringify([TS_VERSION, options, fileName, source]))
    .digest('hex');
  const path = join(CACHE, `${key}.js`);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // not there yet
  }
  ts ??= (await import('typescript')).default;
  const compilerOptions = {
    ...options,
    module: ts.ModuleKind[options.module],
    target: ts.ScriptTarget[options.target],
  };
  const { outputText } = ts.transpileModule(source, { fileName, compilerOptions });
  try {
    mkdirSync(CACHE, { recursive: true });
    // Written whole under another name first: a child reading it at the same moment never sees half.
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, outputText);
    renameSync(partial, path);
  } catch {
    // no cache then
  }
  return outputText;
}
