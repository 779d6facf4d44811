/** Loads every command module, reads the tree and prints the script for one shell. */
import { COMMANDS } from '../../commands.js';
import { completionScript, loadTree, type Shell } from '../../completion/index.js';
import type { Factory } from '../../../ops/factory.js';

export async function run(factory: Factory, shell: Shell): Promise<void> {
  const tree = await loadTree(COMMANDS, factory);
  const out = await factory.output();
  out.text(completionScript(shell, tree).replace(/\n$/, ''));
}
