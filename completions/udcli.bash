# bash completion for udcli (`udcli completion bash`). It asks udcli itself what to
# offer (`udcli __complete line -- WORDS`), so every command of the installed udcli completes.
#
# Install: add  eval "$(udcli completion bash)"  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/udcli (needs the bash-completion package).

_udcli() {
  local cmd=${COMP_WORDS[0]} line IFS=$'\n'
  local -a answer
  [[ $cmd == '~/'* ]] && cmd=$HOME/${cmd#'~/'}
  COMPREPLY=()
  answer=($("$cmd" __complete line -- "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  if [[ ${answer[0]} == :files ]]; then
    COMPREPLY=($(compgen -f -- "${COMP_WORDS[COMP_CWORD]}"))
    compopt -o filenames 2>/dev/null
    return 0
  fi
  for line in "${answer[@]}"; do
    COMPREPLY+=("${line%%$'\t'*}")
  done
  return 0
}

complete -F _udcli udcli
