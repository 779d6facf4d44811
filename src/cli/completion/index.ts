/** `udcli completion <shell>`: the script for one shell, generated from the command tree. */
import { fishScript } from './fish.js';
import { bashScript, zshScript } from './posix.js';
import type { Shell } from './shells.js';
import type { CompletionTree } from './tree.js';

export { SHELLS, type Shell } from './shells.js';
export { loadTree, treeOf, type CompletionTree } from './tree.js';

export function completionScript(shell: Shell, tree: CompletionTree): string {
  switch (shell) {
    case 'bash':
      return bashScript(tree);
    case 'zsh':
      return zshScript(tree);
    case 'fish':
      return fishScript(tree);
  }
}
