/** `udcli completion <bash|zsh|fish>`: prints the shell completion script. */
import type { Command } from 'commander';
import { SHELLS, type Shell } from '../../completion/shells.js';
import type { Factory } from '../../../ops/factory.js';
import { addVerb, type Verb } from '../../verb.js';

export const COMPLETION: Verb = {
  name: 'completion',
  description: 'Print the shell completion script (bash, zsh or fish)',
  arguments: [['<shell>', 'the shell', SHELLS]],
  after: `
Examples:
  $ udcli completion bash > ~/.local/share/bash-completion/completions/udcli
  $ udcli completion fish > ~/.config/fish/completions/udcli.fish

Install:
  bash  in ~/.bashrc:                  eval "$(udcli completion bash)"
  zsh   in ~/.zshrc, after compinit:   source <(udcli completion zsh)
        (or save it as _udcli in a directory on $fpath)
  fish  udcli completion fish > ~/.config/fish/completions/udcli.fish`,
  run: async (factory, shell: Shell) => (await import('./run.js')).run(factory, shell),
};

export function register(program: Command, factory: Factory): void {
  addVerb(program, factory, COMPLETION);
}
