// `npm run build`: dist/ from src/, emitted by esbuild (tsc only type-checks: npm run typecheck).
//
// - dist/udcli.cjs: udcli's own code as one minified CommonJS file, packages left to require()
//   (issue 43: one file of its own code started fastest, on Node 20 and with Node 24's compile
//   cache). bin/udcli.js loads it; it is what the package ships, with its source map.
// - dist/**/*.js: each source module as an ES module, for the benches and scripts that import one
//   module of the sandbox or the domain (bench/). Not shipped (package.json's `files`).
// - dist/root-help.json: scripts/render-root-help.js, from the built file.
// - dist/sandbox-api.cjs (a file of the split), .mjs and .d.mts/.d.cts: the package's `udcli/sandbox` export
//   (docs/TESTING.md); its types are src/sandbox/api/public.d.ts, which the implementation is checked against.
//
// dist/ is emptied first: nothing of an earlier build (a module since removed) can live on in it.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = `${ROOT}src`;
const DIST = `${ROOT}dist`;
const CHANGES = `${SRC}/cli/changes`;

/** src/**\/*.ts, tests' fixtures excluded (there are none under src/), and declarations (no code). */
function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(`${dir}/${e.name}`)
      : e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')
        ? [`${dir}/${e.name}`]
        : [],
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
  define: {
    UDCLI_DECLARATION_FILES: JSON.stringify(declarations),
    // src/package-paths.ts's packageVersion(): no package.json to read at start-up.
    UDCLI_VERSION: JSON.stringify(JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')).version),
  },
};

/**
 * The files of the split beside dist/udcli.cjs, each loaded when a command first uses one of its modules: in the one
 * file they were most of what every command compiled at start-up (Node 20 has no compile cache), and most commands
 * never run them. Modules they share with the rest of the CLI stay in dist/udcli.cjs, each once.
 * - sandbox.cjs: the sandbox, and the `udcli sandbox` commands that are most of the CLI's own code and run it;
 * - changes.cjs: what a change runs (the batch runner, the journal, the audit log, the change declarations) and
 *   `udcli audit`; the read commands (`user`, `friends`, `achievements list`) never load it;
 * - tools.cjs: HAR files (--har, `sandbox diff`), shell completion and `udcli doctor`;
 * - sandbox-api.cjs: `udcli/sandbox`, the sandbox in a test's process (src/sandbox/api/), standing on the others.
 *   Before sandbox.cjs: a module is the first group's whose folder holds it.
 */
const GROUPS = [
  {
    file: 'sandbox-api.cjs',
    table: 'sandboxApiModule',
    dirs: ['sandbox/api'],
    lines: ["export { connectSandbox, startSandbox } from './sandbox/api/index.ts';"],
  },
  { file: 'sandbox.cjs', table: 'sandboxModule', dirs: ['sandbox', 'cli/commands/sandbox'] },
  { file: 'changes.cjs', table: 'changesModule', dirs: ['batch', 'audit', 'cli/commands/audit'] },
  {
    file: 'tools.cjs',
    table: 'toolsModule',
    dirs: ['har', 'cli/completion', 'cli/commands/completion', 'cli/commands/doctor'],
  },
].map((g) => ({ ...g, dirs: g.dirs.map((d) => `${SRC}/${d}`) }));
/** dist/udcli.cjs: every module of no other file; its table holds the modules the other files ask for. */
const MAIN = { file: 'udcli.cjs', table: 'sharedModule', dirs: [] };
/** Of changes.cjs's folders, what every noun with changes runs to register them (their batch options). */
const IN_MAIN = new Set(['batch/flags.ts', 'batch/input.ts', 'batch/rate.ts'].map((f) => `${SRC}/${f}`));
const ownerOf = (path) =>
  (!IN_MAIN.has(path) && GROUPS.find((g) => g.dirs.some((dir) => path.startsWith(`${dir}/`)))) || MAIN;
const fromSrc = (path) => path.slice(SRC.length + 1);

/**
 * A relative import of a source module (`../errors.js`) as the file it names, to tell which file of the split it is
 * in; anything else (a package, node:) is left to esbuild.
 */
function sourceOf(args) {
  if (!args.path.startsWith('.') || !args.importer.startsWith(SRC)) return undefined;
  return join(dirname(args.importer), args.path).replace(/\.js$/, '.ts');
}

/**
 * Imports across the split become require() of the other file's table, so each module exists once: the sandbox's
 * errors are the CLI's error classes (main maps them to exit codes by class), its paths the CLI's (one package root).
 * What the other files ask of dist/udcli.cjs is collected in `shared`, for its table.
 */
function bridge(group, shared) {
  return {
    name: `bridges-of-${group.file}`,
    setup(build) {
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.namespace === 'bridge') return { path: args.path, external: true };
        const path = sourceOf(args);
        const owner = path === undefined ? group : ownerOf(path);
        if (owner === group) return undefined;
        if (owner === MAIN) shared.add(fromSrc(path));
        return { path, namespace: 'bridge', pluginData: owner };
      });
      build.onLoad({ filter: /.*/, namespace: 'bridge' }, (args) => ({
        loader: 'js',
        contents: `module.exports = require('./${args.pluginData.file}').${args.pluginData.table}(${JSON.stringify(fromSrc(args.path))});`,
      }));
    },
  };
}

/** The entry of a file of the split: its exports, and a table of its modules the other files ask for by name. */
function entry(lines, table, modules) {
  return [
    ...lines,
    `const modules: Record<string, () => unknown> = {`,
    ...modules.map((m) => `  ${JSON.stringify(m)}: () => require(${JSON.stringify(`./${m}`)}),`),
    '};',
    `export function ${table}(name: string): unknown {`,
    '  return modules[name]!();',
    '}',
  ].join('\n');
}

const bundle = {
  ...common,
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
};

/**
 * src/dynamic-import.ts stays a file of its own, dist/dynamic-import.cjs, required where imported: the one place the
 * built CommonJS files import an ES-only package (chalk, ora) or a built-in on demand, with Node's own `import()`.
 */
const DYNAMIC_IMPORT = { source: `${SRC}/dynamic-import.ts`, file: 'dynamic-import.cjs' };
const dynamicImportApart = {
  name: 'dynamic-import-apart',
  setup(build) {
    build.onResolve({ filter: /[\\/]dynamic-import\.(js|ts)$/ }, (args) =>
      sourceOf(args) === DYNAMIC_IMPORT.source ? { path: `./${DYNAMIC_IMPORT.file}`, external: true } : undefined,
    );
  },
};

/** One file of the split, from its entry's lines and table. */
const build = (group, lines, modules, shared) =>
  esbuild.build({
    ...bundle,
    stdin: {
      contents: entry(lines, group.table, modules),
      resolveDir: SRC,
      sourcefile: `${group.file}-entry.ts`,
      loader: 'ts',
    },
    outfile: `${DIST}/${group.file}`,
    plugins: [changeModules('.ts'), dynamicImportApart, bridge(group, shared)],
  });

// The other files first: dist/udcli.cjs's table is what they ask of it.
const shared = new Set();
await Promise.all(
  GROUPS.map((g) =>
    build(
      g,
      g.lines ?? [],
      g.dirs
        .flatMap(sources)
        .filter((path) => ownerOf(path) === g)
        .map(fromSrc),
      shared,
    ),
  ),
);

await Promise.all([
  build(MAIN, ["export * from './cli/main.ts';"], [...shared].sort(), new Set()),
  esbuild.build({
    ...common,
    entryPoints: [DYNAMIC_IMPORT.source],
    outfile: `${DIST}/${DYNAMIC_IMPORT.file}`,
    format: 'cjs',
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

// `udcli/sandbox` for `import` (the CommonJS file's exports, named) and its types for both kinds of consumer.
writeFileSync(
  `${DIST}/sandbox-api.mjs`,
  "import api from './sandbox-api.cjs';\n\nexport const startSandbox = api.startSandbox;\nexport const connectSandbox = api.connectSandbox;\nexport default api;\n",
);
const API_TYPES = readFileSync(`${SRC}/sandbox/api/public.d.ts`, 'utf8');
for (const ext of ['d.mts', 'd.cts']) writeFileSync(`${DIST}/sandbox-api.${ext}`, API_TYPES);

await import('./render-root-help.js');

// The demo data as a database image (scripts/demo-image.js), in a process of its own: it loads the SQLite driver.
{
  const { execFileSync } = await import('node:child_process');
  execFileSync(process.execPath, [fileURLToPath(new URL('./demo-image.js', import.meta.url))], { stdio: 'inherit' });
}
