import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  URL: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
};

/**
 * The layers, top to bottom; imports run one way (docs/ARCHITECTURE.md). A file may import from
 * its own layer and those below, never from one above. The sandbox is its own tower over domain.
 */
const LAYERS = [
  { name: 'cli', files: ['src/cli/**'] },
  { name: 'batch and audit', files: ['src/batch/**', 'src/audit/**'], folders: ['batch', 'audit'] },
  { name: 'ops', files: ['src/ops/**'], folders: ['ops'] },
  {
    name: 'client, config and output',
    files: ['src/client/**', 'src/config/**', 'src/output/**'],
    folders: ['client', 'config', 'output'],
  },
  // src/har (recording, reading and redacting HAR files) sits here: the client and the sandbox both stand on it.
  {
    name: 'domain and runtime',
    files: ['src/domain/**', 'src/runtime/**', 'src/har/**', 'src/*.ts'],
    folders: ['domain', 'runtime', 'har'],
  },
];
const UPPER = {
  cli: ['cli'],
  ...Object.fromEntries(
    LAYERS.slice(1).map((layer, i) => [layer.name, ['cli', ...LAYERS.slice(1, i + 1).flatMap((l) => l.folders)]]),
  ),
};
/** A relative import reaching into src/<folder>/ from anywhere in src. */
const into = (folders) => `^(\\.\\.?/)+(${folders.join('|')})/`;
const climbing = (layer) =>
  `the ${layer.name} layer sits below ${UPPER[layer.name].join(', ')} (and beside the sandbox): imports run one way, see docs/ARCHITECTURE.md`;
const layerRules = LAYERS.slice(1).map((layer) => ({
  files: layer.files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ regex: into([...UPPER[layer.name], 'sandbox']), message: climbing(layer) }] },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/.work/', 'completions/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: nodeGlobals },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Commands print through src/output and exit through src/cli/main.ts only.
    files: ['src/**/*.ts'],
    rules: {
      'no-console': 'error',
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'exit', message: 'Throw a typed error; main maps it to an exit code.' },
      ],
    },
  },
  {
    // Where udcli's files are is one module's answer (src/package-paths.ts): in the built file
    // (dist/udcli.cjs) every module shares one location, and a path made from a module's own
    // depth in src/ points outside the package (issue 43's trial bundle looked in /tmp/bin/).
    files: ['src/**/*.ts'],
    ignores: ['src/package-paths.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.type='MetaProperty'][property.name='url']",
          message: "find udcli's own files through src/package-paths.ts, which holds for src/ and the built file",
        },
      ],
    },
  },
  ...layerRules,
  {
    // The test game is plain browser script, as a studio writes it (docs/PLATFORM.md): browser globals, ES5 habits.
    files: ['test/fixtures/sdk-game/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: {
        window: 'readonly',
        document: 'readonly',
        parent: 'readonly',
        fetch: 'readonly',
        TextEncoder: 'readonly',
        setTimeout: 'readonly',
        console: 'readonly',
      },
    },
    rules: { 'no-var': 'off', '@typescript-eslint/no-unused-vars': ['error', { caughtErrors: 'none' }] },
  },
  {
    // The SQLite driver is loaded in one place, chosen by Node version (docs/NODE.md): on Node 20 the
    // top-level better-sqlite3 is not installed, on 22+ it must not be 12. Types may come from it.
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.js'],
    ignores: ['src/sandbox/sqlite-driver.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              allowTypeImports: true,
              message:
                'load the driver through src/sandbox/sqlite-driver.ts (tests: test/sqlite.ts), which picks it by Node version',
            },
          ],
        },
      ],
    },
  },
  {
    // CommonJS: the Node 20 driver package, as the better-sqlite3 it hands on (docs/NODE.md), and
    // bin/udcli.js (bin/package.json), which starts sooner so, and the bench's stand-ins for it.
    files: ['drivers/**/*.js', 'bin/**/*.js', 'bench/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The sandbox stands on the bottom layer's shared parts alone (src/domain, src/har and the root
    // modules src/*.ts): never on the CLI's layers, nor on src/runtime (the CLI's streams and prompts).
    files: ['src/sandbox/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: into(['cli', 'batch', 'audit', 'ops', 'client', 'config', 'output', 'runtime']),
              message:
                'the sandbox stands on src/domain, src/har and the root modules src/*.ts alone: see docs/ARCHITECTURE.md',
            },
          ],
        },
      ],
    },
  },
  {
    // The recipes of docs/TESTING.md, as a studio's test files are written: Node's globals, and Jest's in its file.
    files: ['examples/**'],
    languageOptions: { globals: { ...nodeGlobals, fetch: 'readonly', require: 'readonly', __dirname: 'readonly' } },
  },
  {
    files: ['examples/jest.test.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      globals: Object.fromEntries(
        ['beforeAll', 'beforeEach', 'afterAll', 'test', 'expect'].map((g) => [g, 'readonly']),
      ),
    },
  },
  {
    // Lines of at most 120 characters (the formatter's width, biome.json). A string, template or
    // regular expression literal the formatter cannot break is let be: splitting it would change
    // what is printed or matched, or hide it from a search.
    files: ['**/*.{ts,js,mjs,cjs}'],
    rules: {
      'max-len': [
        'error',
        { code: 120, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true, ignoreUrls: true },
      ],
    },
  },
);
