# fish completion for udcli (`udcli completion fish`). It asks udcli itself what to
# offer (`udcli __complete line -- WORDS`), so every command of the installed udcli completes.
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
    printf '%s\n' $answer
end

complete -c udcli -f -a '(__udcli_complete)'
