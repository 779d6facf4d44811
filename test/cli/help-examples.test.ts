/**
 * Every command's --help ends with an example (issue: "each command's help shows an example"):
 * the commands come from the same tree the completion scripts are generated from, so a new
 * command cannot be forgotten. Each command's help goes through `main`, the function the binary
 * calls, in this process (one process per command cost a second of CPU per ten commands); two of
 * them also through the built binary, so the two are seen to print the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { allCommands, loadTree } from '../../src/cli/completion/tree.js';
import { main } from '../../src/cli/main.js';
import type { Factory } from '../../src/ops/factory.js';
import { runCli } from '../e2e/harness.js';
import { fakeIO } from '../output/fake-io.js';
import { declaredCommands } from './registry.js';

/** register() only builds the tree; no action runs here. */
const tree = await loadTree(COMMANDS, {} as Factory);
const paths = allCommands(tree)
  .map((node) => node.path.slice(1).join(' ')) // path starts with 'udcli'
  .filter((path) => path !== '' && path !== 'help' && !path.endsWith(' help'));

const EXAMPLE = /\nExamples?:\n {2}\$ .*udcli /;
// An empty config directory: help reads no profile, and nothing of the user's is in reach.
const configDir = mkdtempSync(join(tmpdir(), 'udcli-help-'));
afterAll(() => rmSync(configDir, { recursive: true, force: true }));

async function help(path: string): Promise<{ code: number; text: string }> {
  const f = fakeIO({ env: { UDCLI_CONFIG_DIR: configDir, NO_COLOR: '1' } });
  const code = await main([...path.split(' '), '--help'], f.io);
  return { code, text: f.stdout() + f.stderr() };
}

describe('help', () => {
  it('lists a good number of commands (the tree is really walked)', () => {
    expect(paths).toEqual(
      expect.arrayContaining([
        'user',
        'achievements inc',
        'products take',
        'saves set',
        'saves erase',
        'sandbox exec',
        'profile add',
      ]),
    );
  });

  it.each(paths)('udcli %s --help shows an example', async (path) => {
    const r = await help(path);
    expect(r.code, r.text).toBe(0);
    expect(r.text).toMatch(EXAMPLE);
  });

  // Issue 33: batches were found only inside option descriptions. Every command that takes the
  // batch options says @FILE in its <user> argument and shows a @FILE --journal example
  // (test/e2e/first-hour.test.ts runs those examples as printed).
  const batchPaths = allCommands(tree)
    .filter((node) => node.options.some((o) => o.long === '--journal'))
    .map((node) => node.path.slice(1).join(' '));

  it('finds the batch commands by their --journal option: every declared change', async () => {
    expect(batchPaths.sort()).toEqual((await declaredCommands()).sort());
    expect(batchPaths).toEqual(expect.arrayContaining(['achievements inc', 'products take', 'saves set']));
  });

  it.each(batchPaths)('udcli %s --help: @FILE in the argument help and a @FILE --journal example', async (path) => {
    const r = await help(path);
    expect(r.code, r.text).toBe(0);
    const args = /\nArguments:\n([\s\S]*?)\n\n/.exec(r.text)?.[1] ?? '';
    expect(args).toMatch(/^ {2}user .*@FILE/m);
    expect(r.text).toMatch(new RegExp(`\\n {2}\\$ udcli ${path} @\\S+ .*--journal \\S+`));
  });

  it.each(['achievements inc', 'sandbox snapshot save'])(
    'the built binary prints the same help for udcli %s --help',
    async (path) => {
      const r = await runCli([...path.split(' '), '--help'], { UDCLI_CONFIG_DIR: configDir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout + r.stderr).toMatch(EXAMPLE);
      expect(r.stdout + r.stderr).toBe((await help(path)).text);
    },
  );
});
