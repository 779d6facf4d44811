// `npm run build`: dist/ from src/, emitted by esbuild (tsc only type-checks: npm run typecheck).
//
// - dist/udcli.cjs: udcli's own code as one minified CommonJS file, packages left to require()
//   (issue 43: one file of its own code started fastest, on Node 20 and with Node 24's compile
//   cache). bin/udcli.js loads it; it is what the package ships, with its source map.
// - dist/**/*.js: each source module as an ES module, for the benches and scripts that import one
//   module of the sandbox or the domain (bench/). Not shipped (package.json's `files`).
// - dist/root-help.json: scripts/render-root-help.js, from the built file.
//
// dist/ is emptied first: nothing of an earlier build (a module since removed) can live on in it.
import { readdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = `${ROOT}src`;
const DIST = `${ROOT}dist`;
const CHANGES = `${SRC}/cli/changes`;

/** src/**\/*.ts, tests' fixtures excluded (there are none under src/). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(`${dir}/${e.name}`) : e.name.endsWith('.ts') ? [`${dir}/${e.name}`] : [],
  );
}

/**
 * In the built file there is no src/cli/changes/ to read: the change registry's loader
 * (src/cli/change-modules.ts) becomes one import per declaration file found there now, and
 * src/ops/args.ts's list of them a constant (UDCLI_DECLARATION_FILES). A new verb is still one file.
 */
const declarations = readdirSync(CHANGES)
  .filter((name) => name.endsWith('.ts'))
  .sort();
/** `.ts` where esbuild bundles the import, `.js` where it stays an import of the built module. */
const changeModules = (ext) => ({
  name: 'change-modules',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]change-modules\.ts$/ }, () => ({
      loader: 'ts',
      resolveDir: `${SRC}/cli`,
      contents: [
        'export function importDeclaration(file: string): Promise<any> {',
        '  switch (file) {',
        ...declarations.map(
          (name) => `    case ${JSON.stringify(name)}: return import('./changes/${name.replace(/\.ts$/, ext)}');`,
        ),
        '  }',
        '  return Promise.reject(new Error(`no change declaration ${file}`));',
        '}',
      ].join('\n'),
    }));
  },
});

rmSync(DIST, { recursive: true, force: true });

const common = {
  platform: 'node',
  target: 'node20.18',
  logLevel: 'warning',
  sourcemap: 'linked',
  define: { UDCLI_DECLARATION_FILES: JSON.stringify(declarations) },
};

await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: { udcli: `${SRC}/cli/main.ts` },
    outdir: DIST,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    packages: 'external',
    minify: true,
    // Stack traces (under --verbose: bin/udcli.js) name src/ files and lines; the sources stay out of the map.
    sourcesContent: false,
    // src/package-paths.ts finds the package from its own file: in here, this file (dist/, like src/, is one folder
    // below the package root).
    define: { ...common.define, 'import.meta.url': 'UDCLI_FILE_URL' },
    banner: { js: 'var UDCLI_FILE_URL=require("node:url").pathToFileURL(__filename).href;' },
    plugins: [changeModules('.ts')],
  }),
  esbuild.build({
    ...common,
    entryPoints: sources(SRC),
    outbase: SRC,
    outdir: DIST,
    format: 'esm',
    plugins: [changeModules('.js')],
  }),
]);

await import('./render-root-help.js');
