// TypeScript → JavaScript for the module hooks that let child processes run the sources
// (ts-loader.mjs here, test/batch/fixtures/ts-hooks.mjs), with esbuild, as scripts/build.js
// builds dist/: a child that loaded `typescript` to transpile spent about two seconds of CPU on it
// before its first line ran; esbuild's service takes a few milliseconds for all of the sandbox's
// modules. The options are tsconfig.json's, as they bear on one file alone.
import { transform } from 'esbuild';

/** tsconfig.json's settings that change what a file transpiles to (esbuild reads no tsconfig in a transform). */
const TSCONFIG = { compilerOptions: { target: 'ES2022', verbatimModuleSyntax: true, useDefineForClassFields: true } };

/**
 * @param {string} fileName
 * @param {string} source
 * @returns {Promise<string>}
 */
export async function transpile(fileName, source) {
  const { code } = await transform(source, {
    loader: 'ts',
    format: 'esm',
    target: 'es2022',
    sourcefile: fileName,
    tsconfigRaw: TSCONFIG,
  });
  return code;
}
