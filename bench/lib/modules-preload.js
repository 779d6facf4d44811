// Preloaded with `node --import` into a process whose dependencies the bench compares with its
// reference's (not into a timed run: the hooks cost time). Appends to BENCH_MODULES_FILE every
// module `import` loads (modules-hooks.js), every CommonJS file `require` loaded (the require
// cache) and, at exit, the public built-in modules Node loaded: `loadedDependencies` turns that
// into the packages and node: built-ins the process used.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

const file = process.env.BENCH_MODULES_FILE;
if (file) {
  register('./modules-hooks.js', import.meta.url);
  const require = createRequire(import.meta.url);
  process.on('exit', () => {
    const builtins = process.moduleLoadList
      .filter((m) => m.startsWith('NativeModule ') && !m.startsWith('NativeModule internal/'))
      .map((m) => `node:${m.slice(13)}`);
    appendFileSync(file, `${[...Object.keys(require.cache).map((p) => `file://${p}`), ...builtins].join('\n')}\n`);
  });
}
