/** `udcli completion <bash|zsh|fish>`: prints the shell completion script. */
import { Argument, type Command } from 'commander';
import { SHELLS, type Shell } from '../../completion/shells.js';
import type { Factory } from '../../../ops/factory.js';

export function register(program: Command, factory: Factory): void {
  program
    .command('completion')
    .description('Print the shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(SHELLS))
    .addHelpText(
      'after',
      `
Examples:
  $ udcli completion bash > ~/.local/share/bash-completion/completions/udcli
  $ udcli completion fish > ~/.config/fish/completions/udcli.fish

Install:
  bash  in ~/.bashrc:                  eval "$(udcli completion bash)"
  zsh   in ~/.zshrc, after compinit:   source <(udcli completion zsh)
        (or save it as _udcli in a directory on $fpath)
  fish  udcli completion fish > ~/.config/fish/completions/udcli.fish`,
    )
    .action(async (shell: Shell) => {
      const { run } = await import('./run.js');
      await run(factory, shell);
    });
}
