/**
 * Imports run one way (issue 12; docs/ARCHITECTURE.md): the lint config refuses an import that
 * climbs back up a layer, so `npm test` fails on one. Checked with Biome itself, on small files
 * placed in each layer of a copy of the project's lint config (biome.json and its plugins in
 * lint/): one `biome lint` run for every case, since each run starts a process.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIOME = join(ROOT, 'node_modules/.bin/biome');

const REFUSED: [string, string][] = [
  ['src/batch/x.ts', '../cli/main.js'],
  ['src/audit/x.ts', '../cli/commands/products/give.js'],
  ['src/ops/x.ts', '../batch/runner.js'],
  ['src/ops/x.ts', '../audit/tracked.js'],
  ['src/output/x.ts', '../ops/factory.js'],
  ['src/client/x.ts', '../ops/args.js'],
  ['src/config/x.ts', '../cli/program.js'],
  ['src/domain/x.ts', '../client/types.js'],
  ['src/runtime/x.ts', '../output/types.js'],
  ['src/errors.ts', './ops/args.js'],
  ['src/sandbox/http/x.ts', '../../client/types.js'],
  ['src/sandbox/x.ts', '../cli/factory.js'],
  ['src/sandbox/x.ts', '../runtime/io.js'],
  ['src/har/x.ts', '../client/types.js'],
  ['src/har/x.ts', '../sandbox/app.js'],
  // The admin client takes its reply types from src/domain: nothing of the sandbox, types included.
  ['src/client/x.ts', '../sandbox/app.js'],
  ['src/client/x.ts', '../sandbox/routes/../database.js'],
  ['src/client/x.ts', '../sandbox/routes/contents.js'],
  ['src/client/x.ts', '../sandbox/game-host/game-source-routes.js'],
  ['src/output/x.ts', '../sandbox/routes/contents.js'],
];

const ALLOWED: [string, string][] = [
  ['src/cli/commands/x.ts', '../../batch/commands.js'],
  ['src/batch/x.ts', '../ops/achievements.js'],
  ['src/ops/x.ts', '../client/types.js'],
  ['src/output/x.ts', '../runtime/io.js'],
  ['src/client/x.ts', '../domain/types.js'],
  ['src/sandbox/x.ts', '../domain/ids.js'],
  ['src/sandbox/diff/x.ts', '../../har/reader.js'],
  // The root modules, beside src/domain at the bottom: what the sandbox shares with the CLI besides the domain.
  ['src/sandbox/http/x.ts', '../../errors.js'],
  ['src/sandbox/x.ts', '../printable.js'],
  ['src/sandbox/x.ts', '../redact.js'],
  ['src/sandbox/x.ts', '../write-whole.js'],
  ['src/sandbox/x.ts', '../domain/contract.js'],
  ['src/client/x.ts', '../har/entry.js'],
  ['src/client/x.ts', '../domain/sandbox-admin-replies.js'],
  ['src/sandbox/routes/x.ts', '../../domain/sandbox-admin-replies.js'],
];

/** The other bans of src/: a file, its code, and what Biome says of it (nothing: allowed). */
const BANS: { name: string; file: string; code: string; refused?: RegExp }[] = [
  {
    name: 'process.exit in src/',
    file: 'src/ops/exit.ts',
    code: 'export function stop(): void {\n  process.exit(2);\n}\n',
    refused: /noJsRestrictedProperties: Do not use 'process\.exit'/,
  },
  {
    name: 'console in src/',
    file: 'src/ops/print.ts',
    code: "export function say(): void {\n  console.log('x');\n}\n",
    refused: /console/i,
  },
  {
    name: 'import.meta.url in src/',
    file: 'src/ops/where.ts',
    code: 'export const here = import.meta.url;\n',
    refused: /src\/package-paths\.ts/,
  },
  {
    name: 'import.meta.url in src/package-paths.ts',
    file: 'src/package-paths.ts',
    code: 'export const here = import.meta.url;\n',
  },
  {
    name: 'a better-sqlite3 value import in src/',
    file: 'src/sandbox/open.ts',
    code: "import Database from 'better-sqlite3';\nexport const open = (): unknown => new Database(':memory:');\n",
    refused: /sqlite-driver\.ts/,
  },
  {
    name: 'a better-sqlite3 value import in a test',
    file: 'test/open.ts',
    code: "import Database from 'better-sqlite3';\nexport const open = (): unknown => new Database(':memory:');\n",
    refused: /sqlite-driver\.ts/,
  },
  {
    name: 'a better-sqlite3 type import in src/',
    file: 'src/sandbox/types.ts',
    code: "import type { Database } from 'better-sqlite3';\nexport type Db = Database;\n",
  },
  {
    name: 'a better-sqlite3 value import in src/sandbox/sqlite-driver.ts',
    file: 'src/sandbox/sqlite-driver.ts',
    code: "import Database from 'better-sqlite3';\nexport const open = (): unknown => new Database(':memory:');\n",
  },
];

/** One file per place, one import per line: a diagnostic's line says which case it is. */
const LAYER_FILES = new Map<string, string[]>();
for (const [file, specifier] of [...REFUSED, ...ALLOWED]) {
  const lines = LAYER_FILES.get(file) ?? [];
  lines.push(`import type { X${lines.length} } from '${specifier}';`);
  LAYER_FILES.set(file, lines);
}

interface Diagnostic {
  category: string;
  message: string;
  location: { path: string; start?: { line: number } };
}

let project: string;
let diagnostics: Diagnostic[];

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'udcli-lint-'));
  cpSync(join(ROOT, 'biome.json'), join(project, 'biome.json'));
  cpSync(join(ROOT, 'lint'), join(project, 'lint'), { recursive: true });
  const write = (file: string, code: string) => {
    mkdirSync(dirname(join(project, file)), { recursive: true });
    writeFileSync(join(project, file), code);
  };
  for (const [file, lines] of LAYER_FILES) {
    write(file, `${lines.join('\n')}\nexport type { ${lines.map((_, i) => `X${i}`).join(', ')} };\n`);
  }
  for (const ban of BANS) write(ban.file, ban.code);
  // Biome exits 1 when it reports anything, which is the point here: its report is read, not its code.
  const stdout = await promisify(execFile)(BIOME, ['lint', '--reporter=json', '--max-diagnostics=none', '.'], {
    cwd: project,
    maxBuffer: 16 * 1024 * 1024,
  }).then(
    (done) => done.stdout,
    (failed: { stdout?: string }) => failed.stdout ?? '',
  );
  diagnostics = (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
});

afterAll(() => rmSync(project, { recursive: true, force: true }));

function messagesAt(file: string, line?: number): string[] {
  return diagnostics
    .filter((d) => d.location.path === file && (line === undefined || d.location.start?.line === line))
    .map((d) => `${d.category}: ${d.message}`);
}

function layerErrors(file: string, specifier: string): string[] {
  const line = LAYER_FILES.get(file)!.findIndex((l) => l.endsWith(`'${specifier}';`)) + 1;
  return messagesAt(file, line);
}

describe('the layers of src/', () => {
  it.each(REFUSED)('%s may not import %s', (file, specifier) => {
    const errors = layerErrors(file, specifier);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^plugin: .*docs\/ARCHITECTURE\.md/);
  });

  it.each(ALLOWED)('%s may import %s (downwards)', (file, specifier) => {
    expect(layerErrors(file, specifier)).toEqual([]);
  });
});

describe('the other bans', () => {
  it.each(BANS)('$name', ({ file, refused }) => {
    const errors = messagesAt(file);
    if (refused) {
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(refused);
    } else {
      expect(errors).toEqual([]);
    }
  });
});
