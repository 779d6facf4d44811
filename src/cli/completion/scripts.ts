/**
 * The completion script of each shell: short, and the same for every version of udcli. Each asks
 * `udcli __complete line -- WORDS` (the words typed after `udcli`, the one being completed last)
 * what to offer, one `value<TAB>description` a line, or `:files` for a file name; the answer comes
 * from the command tree of the udcli installed (src/cli/completion/answer.ts), so there is no list
 * of commands here to regenerate when a verb is added.
 */
import type { Shell } from './shells.js';

const ABOUT = (
  shell: Shell,
) => `# ${shell} completion for udcli (\`udcli completion ${shell}\`). It asks udcli itself what to
# offer (\`udcli __complete line -- WORDS\`), so every command of the installed udcli completes.`;

const BASH = `${ABOUT('bash')}
#
# Install: add  eval "$(udcli completion bash)"  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/udcli (needs the bash-completion package).

_udcli() {
  local cmd=\${COMP_WORDS[0]} line IFS=$'\\n'
  local -a answer
  [[ $cmd == '~/'* ]] && cmd=$HOME/\${cmd#'~/'}
  COMPREPLY=()
  answer=($("$cmd" __complete line -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ \${answer[0]} == :files ]]; then
    COMPREPLY=($(compgen -f -- "\${COMP_WORDS[COMP_CWORD]}"))
    compopt -o filenames 2>/dev/null
    return 0
  fi
  for line in "\${answer[@]}"; do
    COMPREPLY+=("\${line%%$'\\t'*}")
  done
  return 0
}

complete -F _udcli udcli`;

const ZSH = `#compdef udcli
${ABOUT('zsh')}
#
# Install: save this file as _udcli in a directory on $fpath (before compinit runs), e.g.
#   udcli completion zsh > ~/.zfunc/_udcli   and in ~/.zshrc: fpath=(~/.zfunc $fpath); autoload -Uz compinit; compinit
# or, after compinit in ~/.zshrc:  source <(udcli completion zsh)

_udcli() {
  local cmd=\${words[1]} line
  local -a answer described
  [[ $cmd == '~/'* ]] && cmd=$HOME/\${cmd#'~/'}
  answer=("\${(@f)$("$cmd" __complete line -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if [[ \${answer[1]} == :files ]]; then
    _files
    return
  fi
  for line in "\${answer[@]}"; do
    [[ -n $line ]] || continue
    # _describe's NAME:DESCRIPTION, a colon in the name escaped
    if [[ $line == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      described+=("\${line//:/\\\\:}")
    fi
  done
  (( \${#described} )) && _describe -t values udcli described
}

if [[ \${funcstack[1]} == _udcli ]]; then
  # autoloaded from $fpath: this file is the body of _udcli; run the function just defined
  _udcli "$@"
else
  compdef _udcli udcli
fi`;

const FISH = `${ABOUT('fish')}
#
# Install: udcli completion fish > ~/.config/fish/completions/udcli.fish

function __udcli_complete
    set -l tokens (commandline -opc)
    set -l cmd $tokens[1]
    set -e tokens[1]
    set -l current (commandline -ct)
    set -l answer ($cmd __complete line -- $tokens "$current" 2>/dev/null)
    if test "$answer[1]" = :files
        __fish_complete_path "$current"
        return
    end
    printf '%s\\n' $answer
end

complete -c udcli -f -a '(__udcli_complete)'`;

const SCRIPTS: Record<Shell, string> = { bash: BASH, zsh: ZSH, fish: FISH };

export function completionScript(shell: Shell): string {
  return SCRIPTS[shell];
}
