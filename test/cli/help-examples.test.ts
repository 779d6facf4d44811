/**
 * Every command's --help ends with an example (issue: "each command's help shows an example"):
 * the commands come from the same tree the completion scripts are generated from, so a new
 * command cannot be forgotten. Runs the built binary.
 */
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.js';
import { allCommands, loadTree } from '../../src/cli/completion/tree.js';
import type { Factory } from '../../src/ops/factory.js';
import { runCli } from '../e2e/harness.js';

/** register() only builds the tree; no action runs here. */
const tree = await loadTree(COMMANDS, {} as Factory);
const paths = allCommands(tree)
  .map((node) => node.path.slice(1).join(' ')) // path starts with 'udcli'
  .filter((path) => path !== '' && path !== 'help' && !path.endsWith(' help'));

describe('help', () => {
  it('lists a good number of commands (the tree is really walked)', () => {
    expect(paths).toEqual(expect.arrayContaining(['user', 'achievements inc', 'products take', 'saves set', 'saves erase', 'sandbox exec', 'profile add']));
  });

  it.each(paths)('udcli %s --help shows an example', async (path) => {
    const r = await runCli([...path.split(' '), '--help'], {});
    expect(r.stdout + r.stderr).toMatch(/\nExamples?:\n {2}\$ .*udcli /);
  });
});
