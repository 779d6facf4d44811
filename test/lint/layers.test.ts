/**
 * Imports run one way (issue 12; docs/ARCHITECTURE.md): the lint config refuses an import that
 * climbs back up a layer, so `npm test` fails on one. Checked with ESLint itself on small files
 * placed in each layer.
 */
import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

async function layerErrors(file: string, specifier: string): Promise<string[]> {
  const code = `import type { X } from '${specifier}';\nexport type Y = X;\n`;
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${file}` });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layers of src/', () => {
  it.each([
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
  ])('%s may not import %s', async (file, specifier) => {
    const errors = await layerErrors(file, specifier);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/docs\/ARCHITECTURE\.md/);
  });

  it.each([
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
  ])('%s may import %s (downwards)', async (file, specifier) => {
    expect(await layerErrors(file, specifier)).toEqual([]);
  });
});
