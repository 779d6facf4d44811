# fish completion for udcli. Generated from the command tree by
# `udcli completion fish` (npm run completions); do not edit by hand.
#
# Install: udcli completion fish > ~/.config/fish/completions/udcli.fish

# The command path a word leads to from a command path, if it names a subcommand.
function __udcli_sub --argument-names cmdpath word
    switch "$cmdpath $word"
        case 'udcli auth'
            echo 'udcli auth'
        case 'udcli user'
            echo 'udcli user'
        case 'udcli friends'
            echo 'udcli friends'
        case 'udcli achievements'
            echo 'udcli achievements'
        case 'udcli products'
            echo 'udcli products'
        case 'udcli saves'
            echo 'udcli saves'
        case 'udcli api'
            echo 'udcli api'
        case 'udcli audit'
            echo 'udcli audit'
        case 'udcli approve'
            echo 'udcli approve'
        case 'udcli profile'
            echo 'udcli profile'
        case 'udcli config'
            echo 'udcli config'
        case 'udcli doctor'
            echo 'udcli doctor'
        case 'udcli sandbox'
            echo 'udcli sandbox'
        case 'udcli completion'
            echo 'udcli completion'
        case 'udcli help'
            echo 'udcli help'
        case 'udcli auth verify'
            echo 'udcli auth verify'
        case 'udcli auth token'
            echo 'udcli auth token'
        case 'udcli auth help'
            echo 'udcli auth help'
        case 'udcli achievements defs'
            echo 'udcli achievements defs'
        case 'udcli achievements list'
            echo 'udcli achievements list'
        case 'udcli achievements inc'
            echo 'udcli achievements inc'
        case 'udcli achievements set'
            echo 'udcli achievements set'
        case 'udcli achievements reset'
            echo 'udcli achievements reset'
        case 'udcli achievements delete'
            echo 'udcli achievements delete'
        case 'udcli achievements help'
            echo 'udcli achievements help'
        case 'udcli products list'
            echo 'udcli products list'
        case 'udcli products give'
            echo 'udcli products give'
        case 'udcli products take'
            echo 'udcli products take'
        case 'udcli products help'
            echo 'udcli products help'
        case 'udcli saves list'
            echo 'udcli saves list'
        case 'udcli saves get'
            echo 'udcli saves get'
        case 'udcli saves set'
            echo 'udcli saves set'
        case 'udcli saves erase'
            echo 'udcli saves erase'
        case 'udcli saves help'
            echo 'udcli saves help'
        case 'udcli audit resolve'
            echo 'udcli audit resolve'
        case 'udcli audit undo'
            echo 'udcli audit undo'
        case 'udcli profile add'
            echo 'udcli profile add'
        case 'udcli profile list' 'udcli profile ls'
            echo 'udcli profile list'
        case 'udcli profile use'
            echo 'udcli profile use'
        case 'udcli profile show'
            echo 'udcli profile show'
        case 'udcli profile import'
            echo 'udcli profile import'
        case 'udcli profile remove' 'udcli profile rm'
            echo 'udcli profile remove'
        case 'udcli profile help'
            echo 'udcli profile help'
        case 'udcli config get'
            echo 'udcli config get'
        case 'udcli config set'
            echo 'udcli config set'
        case 'udcli config unset'
            echo 'udcli config unset'
        case 'udcli config path'
            echo 'udcli config path'
        case 'udcli config help'
            echo 'udcli config help'
        case 'udcli sandbox start'
            echo 'udcli sandbox start'
        case 'udcli sandbox exec'
            echo 'udcli sandbox exec'
        case 'udcli sandbox play'
            echo 'udcli sandbox play'
        case 'udcli sandbox game'
            echo 'udcli sandbox game'
        case 'udcli sandbox init'
            echo 'udcli sandbox init'
        case 'udcli sandbox schema'
            echo 'udcli sandbox schema'
        case 'udcli sandbox load'
            echo 'udcli sandbox load'
        case 'udcli sandbox export'
            echo 'udcli sandbox export'
        case 'udcli sandbox diff'
            echo 'udcli sandbox diff'
        case 'udcli sandbox import'
            echo 'udcli sandbox import'
        case 'udcli sandbox snapshot'
            echo 'udcli sandbox snapshot'
        case 'udcli sandbox stop'
            echo 'udcli sandbox stop'
        case 'udcli sandbox logs'
            echo 'udcli sandbox logs'
        case 'udcli sandbox status'
            echo 'udcli sandbox status'
        case 'udcli sandbox reset'
            echo 'udcli sandbox reset'
        case 'udcli sandbox clock'
            echo 'udcli sandbox clock'
        case 'udcli sandbox info'
            echo 'udcli sandbox info'
        case 'udcli sandbox seed'
            echo 'udcli sandbox seed'
        case 'udcli sandbox help'
            echo 'udcli sandbox help'
        case 'udcli sandbox game set-uri'
            echo 'udcli sandbox game set-uri'
        case 'udcli sandbox game show'
            echo 'udcli sandbox game show'
        case 'udcli sandbox game help'
            echo 'udcli sandbox game help'
        case 'udcli sandbox snapshot save'
            echo 'udcli sandbox snapshot save'
        case 'udcli sandbox snapshot restore'
            echo 'udcli sandbox snapshot restore'
        case 'udcli sandbox snapshot list'
            echo 'udcli sandbox snapshot list'
        case 'udcli sandbox snapshot delete'
            echo 'udcli sandbox snapshot delete'
        case 'udcli sandbox snapshot help'
            echo 'udcli sandbox snapshot help'
        case 'udcli sandbox clock now'
            echo 'udcli sandbox clock now'
        case 'udcli sandbox clock advance'
            echo 'udcli sandbox clock advance'
        case 'udcli sandbox clock set'
            echo 'udcli sandbox clock set'
        case 'udcli sandbox clock reset'
            echo 'udcli sandbox clock reset'
        case 'udcli sandbox clock help'
            echo 'udcli sandbox clock help'
        case '*'
            return 1
    end
end

# Whether an option at a command path takes the next token as its value.
function __udcli_takes_value --argument-names cmdpath opt
    switch "$cmdpath $opt"
        case 'udcli auth token --as'
            return 0
        case 'udcli auth token --cookie'
            return 0
        case 'udcli friends --limit'
            return 0
        case 'udcli friends --offset'
            return 0
        case 'udcli friends --page'
            return 0
        case 'udcli achievements defs --aid'
            return 0
        case 'udcli achievements defs --developer-id'
            return 0
        case 'udcli achievements defs --type'
            return 0
        case 'udcli achievements list --game'
            return 0
        case 'udcli achievements list --type'
            return 0
        case 'udcli achievements list --developer-id'
            return 0
        case 'udcli achievements list --limit'
            return 0
        case 'udcli achievements list --offset'
            return 0
        case 'udcli achievements list --order'
            return 0
        case 'udcli achievements list --sort'
            return 0
        case 'udcli achievements list --filter'
            return 0
        case 'udcli achievements list --match'
            return 0
        case 'udcli achievements inc --game'
            return 0
        case 'udcli achievements inc --type'
            return 0
        case 'udcli achievements inc --by'
            return 0
        case 'udcli achievements inc --reason'
            return 0
        case 'udcli achievements inc --ticket'
            return 0
        case 'udcli achievements inc --concurrency'
            return 0
        case 'udcli achievements inc --rate'
            return 0
        case 'udcli achievements inc --journal'
            return 0
        case 'udcli achievements inc --plan'
            return 0
        case 'udcli achievements set --game'
            return 0
        case 'udcli achievements set --type'
            return 0
        case 'udcli achievements set --reason'
            return 0
        case 'udcli achievements set --ticket'
            return 0
        case 'udcli achievements set --concurrency'
            return 0
        case 'udcli achievements set --rate'
            return 0
        case 'udcli achievements set --journal'
            return 0
        case 'udcli achievements set --plan'
            return 0
        case 'udcli achievements reset --game'
            return 0
        case 'udcli achievements reset --type'
            return 0
        case 'udcli achievements reset --reason'
            return 0
        case 'udcli achievements reset --ticket'
            return 0
        case 'udcli achievements reset --concurrency'
            return 0
        case 'udcli achievements reset --rate'
            return 0
        case 'udcli achievements reset --journal'
            return 0
        case 'udcli achievements reset --plan'
            return 0
        case 'udcli achievements delete --game'
            return 0
        case 'udcli achievements delete --type'
            return 0
        case 'udcli achievements delete --reason'
            return 0
        case 'udcli achievements delete --ticket'
            return 0
        case 'udcli achievements delete --concurrency'
            return 0
        case 'udcli achievements delete --rate'
            return 0
        case 'udcli achievements delete --journal'
            return 0
        case 'udcli achievements delete --plan'
            return 0
        case 'udcli products list --game'
            return 0
        case 'udcli products list --type'
            return 0
        case 'udcli products list --sku'
            return 0
        case 'udcli products give --game'
            return 0
        case 'udcli products give --type'
            return 0
        case 'udcli products give --qty'
            return 0
        case 'udcli products give --reason'
            return 0
        case 'udcli products give --ticket'
            return 0
        case 'udcli products give --concurrency'
            return 0
        case 'udcli products give --rate'
            return 0
        case 'udcli products give --journal'
            return 0
        case 'udcli products give --plan'
            return 0
        case 'udcli products take --game'
            return 0
        case 'udcli products take --type'
            return 0
        case 'udcli products take --qty'
            return 0
        case 'udcli products take --reason'
            return 0
        case 'udcli products take --ticket'
            return 0
        case 'udcli products take --concurrency'
            return 0
        case 'udcli products take --rate'
            return 0
        case 'udcli products take --journal'
            return 0
        case 'udcli products take --plan'
            return 0
        case 'udcli saves set --auth-token'
            return 0
        case 'udcli saves set --reason'
            return 0
        case 'udcli saves set --ticket'
            return 0
        case 'udcli saves set --concurrency'
            return 0
        case 'udcli saves set --rate'
            return 0
        case 'udcli saves set --journal'
            return 0
        case 'udcli saves set --plan'
            return 0
        case 'udcli saves erase --auth-token'
            return 0
        case 'udcli saves erase --reason'
            return 0
        case 'udcli saves erase --ticket'
            return 0
        case 'udcli saves erase --concurrency'
            return 0
        case 'udcli saves erase --rate'
            return 0
        case 'udcli saves erase --journal'
            return 0
        case 'udcli saves erase --plan'
            return 0
        case 'udcli api -f' 'udcli api --field'
            return 0
        case 'udcli api --reason'
            return 0
        case 'udcli api --ticket'
            return 0
        case 'udcli audit --since'
            return 0
        case 'udcli audit --user'
            return 0
        case 'udcli audit --profile'
            return 0
        case 'udcli audit --run'
            return 0
        case 'udcli audit --ticket'
            return 0
        case 'udcli audit --operator'
            return 0
        case 'udcli audit resolve --run'
            return 0
        case 'udcli audit resolve --ticket'
            return 0
        case 'udcli audit undo --run'
            return 0
        case 'udcli audit undo --ticket'
            return 0
        case 'udcli audit undo --out'
            return 0
        case 'udcli profile add --base-url'
            return 0
        case 'udcli profile add --site-url'
            return 0
        case 'udcli profile add --api-key'
            return 0
        case 'udcli profile add --signing-secret'
            return 0
        case 'udcli profile add --signing-scheme'
            return 0
        case 'udcli profile add --verb-override'
            return 0
        case 'udcli profile add --game-id'
            return 0
        case 'udcli profile add --type'
            return 0
        case 'udcli profile add --cookie'
            return 0
        case 'udcli profile add --audit-url'
            return 0
        case 'udcli sandbox start --port'
            return 0
        case 'udcli sandbox start --host'
            return 0
        case 'udcli sandbox start --db'
            return 0
        case 'udcli sandbox start --seed'
            return 0
        case 'udcli sandbox start --data'
            return 0
        case 'udcli sandbox start --token-ttl'
            return 0
        case 'udcli sandbox start --rate-limit'
            return 0
        case 'udcli sandbox start --faults'
            return 0
        case 'udcli sandbox start --fault-seed'
            return 0
        case 'udcli sandbox start --latency'
            return 0
        case 'udcli sandbox start --game-dir'
            return 0
        case 'udcli sandbox start --game-url'
            return 0
        case 'udcli sandbox start --game'
            return 0
        case 'udcli sandbox start --allow-game-dir'
            return 0
        case 'udcli sandbox start --name'
            return 0
        case 'udcli sandbox start --public-url'
            return 0
        case 'udcli sandbox exec --port'
            return 0
        case 'udcli sandbox exec --seed'
            return 0
        case 'udcli sandbox exec --data'
            return 0
        case 'udcli sandbox exec --snapshot'
            return 0
        case 'udcli sandbox exec --log'
            return 0
        case 'udcli sandbox exec --token-ttl'
            return 0
        case 'udcli sandbox exec --rate-limit'
            return 0
        case 'udcli sandbox exec --faults'
            return 0
        case 'udcli sandbox exec --fault-seed'
            return 0
        case 'udcli sandbox exec --latency'
            return 0
        case 'udcli sandbox exec --game-dir'
            return 0
        case 'udcli sandbox exec --game-url'
            return 0
        case 'udcli sandbox exec --game'
            return 0
        case 'udcli sandbox exec --allow-game-dir'
            return 0
        case 'udcli sandbox play --game-dir'
            return 0
        case 'udcli sandbox play --game-url'
            return 0
        case 'udcli sandbox play --as'
            return 0
        case 'udcli sandbox play --latency'
            return 0
        case 'udcli sandbox game set-uri --db'
            return 0
        case 'udcli sandbox game show --db'
            return 0
        case 'udcli sandbox load --db'
            return 0
        case 'udcli sandbox export --db'
            return 0
        case 'udcli sandbox export --format'
            return 0
        case 'udcli sandbox diff --ignore'
            return 0
        case 'udcli sandbox diff --data'
            return 0
        case 'udcli sandbox diff --live'
            return 0
        case 'udcli sandbox diff --game'
            return 0
        case 'udcli sandbox diff --save-key'
            return 0
        case 'udcli sandbox snapshot save --db'
            return 0
        case 'udcli sandbox snapshot restore --db'
            return 0
        case 'udcli sandbox stop --port'
            return 0
        case 'udcli sandbox stop --name'
            return 0
        case 'udcli sandbox logs -n' 'udcli sandbox logs --lines'
            return 0
        case 'udcli sandbox logs --status'
            return 0
        case 'udcli sandbox logs --path'
            return 0
        case 'udcli sandbox logs --since'
            return 0
        case 'udcli sandbox logs --port'
            return 0
        case 'udcli sandbox logs --name'
            return 0
        case 'udcli sandbox status --port'
            return 0
        case 'udcli sandbox status --name'
            return 0
        case 'udcli sandbox reset --db'
            return 0
        case 'udcli sandbox reset --seed'
            return 0
        case 'udcli sandbox reset --data'
            return 0
        case 'udcli sandbox clock now --port'
            return 0
        case 'udcli sandbox clock advance --port'
            return 0
        case 'udcli sandbox clock set --port'
            return 0
        case 'udcli sandbox clock reset --port'
            return 0
        case 'udcli sandbox seed --users'
            return 0
        case 'udcli sandbox seed --friends'
            return 0
        case 'udcli sandbox seed --achievements'
            return 0
        case 'udcli sandbox seed --products'
            return 0
        case 'udcli sandbox seed --seed'
            return 0
        case 'udcli sandbox seed --db'
            return 0
    end
    contains -- $opt '--profile' '-o' '--output' '--fields' '--base-url' '--api-key' '--timeout' '--retries' '--har'
end

# Prints the command path the tokens before the cursor lead to, the number of operands after
# it, and 1 when the token being completed is an option's value (else 0).
# Every rule's condition asks, so the answer is kept for the line it was worked out for.
function __udcli_state
    set -l line (commandline -cp)
    if set -q __udcli_state_line; and test "$line" = "$__udcli_state_line"
        printf '%s\n' $__udcli_state_cache
        return
    end
    set -l tokens (commandline -opc)
    set -e tokens[1]
    set -l cmdpath udcli
    set -l nargs 0
    set -l skip 0
    for w in $tokens
        if test $skip = 1
            set skip 0
            continue
        end
        if test "x$w" = x--
            set nargs -1
            break
        else if string match -qr -- '^--.*=' $w
            continue
        else if string match -qr -- '^-.' $w
            if __udcli_takes_value $cmdpath $w
                set skip 1
            end
        else
            set -l next
            if test $nargs = 0
                set next (__udcli_sub $cmdpath $w)
            end
            if test -n "$next"
                set cmdpath $next
            else
                set nargs (math $nargs + 1)
            end
        end
    end
    set -g __udcli_state_line $line
    set -g __udcli_state_cache $cmdpath $nargs $skip
    printf '%s\n' $__udcli_state_cache
end

# At one of these command paths (options are offered there).
function __udcli_in
    set -l state (__udcli_state)
    contains -- $state[1] $argv
end

# At this command path, before any operand: its subcommands are offered.
function __udcli_subcommand_of --argument-names cmdpath
    set -l state (__udcli_state)
    test "$state[1]" = "$cmdpath" -a "$state[2]" = 0 -a "$state[3]" = 0
end

# At this command path, completing operand N (from 0; N+ for N and every later one).
function __udcli_argument --argument-names cmdpath n
    set -l state (__udcli_state)
    test "$state[1]" = "$cmdpath" -a "$state[3]" = 0; or return 1
    if string match -q -- '*+' $n
        test "$state[2]" -ge (string trim -r -c + -- $n)
    else
        test "$state[2]" = $n
    end
end

# Profile names (the config file), snapshot names (the sandbox's data directory): asked of
# udcli itself; quiet and empty when anything goes wrong.
function __udcli_values
    set -l cmd (commandline -opc)[1]
    set cmd (string replace -r '^~/' "$HOME/" -- $cmd)
    $cmd __complete $argv[1] 2>/dev/null
end

# No file names unless a value is a file.
complete -c udcli -f

# Options of the program, accepted after any command.
complete -c udcli -l version -d 'print the version'
complete -c udcli -n 'not __udcli_in "udcli audit"' -l profile -x -a '(__udcli_values profiles)' -d 'use this profile (default: UDCLI_PROFILE, the current one, or sandbox)'
complete -c udcli -s o -l output -x -a 'table json ndjson csv' -d 'output format: table|json|ndjson|csv (default: table on a terminal, json otherwise)'
complete -c udcli -n 'not __udcli_in "udcli sandbox game set-uri" "udcli sandbox game show" "udcli sandbox load" "udcli sandbox diff" "udcli sandbox snapshot list" "udcli sandbox logs" "udcli sandbox status" "udcli sandbox clock now" "udcli sandbox clock advance" "udcli sandbox clock set" "udcli sandbox clock reset" "udcli sandbox info" "udcli sandbox seed"' -l json -d 'same as --output json'
complete -c udcli -l raw -d 'print the reply body exactly as received'
complete -c udcli -l fields -x -d 'comma-separated fields to show, e.g. uid,username'
complete -c udcli -n 'not __udcli_in "udcli profile add"' -l base-url -x -d 'service base URL (overrides UDCLI_BASE_URL and the profile)'
complete -c udcli -n 'not __udcli_in "udcli profile add"' -l api-key -x -d 'api key, 32 hex digits or a UUID (overrides UDCLI_API_KEY and the profile)'
complete -c udcli -l timeout -x -d 'request timeout in milliseconds (default: 15000)'
complete -c udcli -l retries -x -d 'retries for requests safe to repeat (default: 2)'
complete -c udcli -s v -l verbose -d 'print requests and replies on stderr, secrets redacted'
complete -c udcli -l no-color -d 'no colour (also NO_COLOR)'
complete -c udcli -s q -l quiet -d 'no status messages on stderr'
complete -c udcli -s y -l yes -d 'do not ask for confirmation'
complete -c udcli -l har -r -F -d 'add every HTTP exchange to FILE as HAR 1.2, secrets and players\' emails and birthdays replaced by placeholders (also UDCLI_HAR)'
complete -c udcli -l har-keep-personal -d 'with --har: record players\' emails and birthdays as they came'
complete -c udcli -s h -l help -d 'show help'

# udcli
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'auth' -d 'Verify user tokens and get test tokens'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'user' -d 'Look a user up by uid or username'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'friends' -d 'List a user\'s friends'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'achievements' -d 'Achievement definitions and user progress'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'products' -d 'Products (premium content) a user holds; give and take units'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'saves' -d 'A player\'s game saves in the profile\'s game: list, read, save, erase'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'api' -d 'Send any request and print the reply as received'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'audit' -d 'Show the audit log of changes made with udcli: the latest state of each user and change (--history: every line)'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'approve' -d 'Approve a plan written with --plan (by another operator): the approval, with the plan\'s hash, goes to the trail'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'profile' -d 'Manage profiles: where udcli connects and with which credentials'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'config' -d 'Read and change the active profile\'s keys'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'doctor' -d 'Check the config file, the active profile, reachability, the api key and that its game is the profile\'s game_id, signing and the clock'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'sandbox' -d 'Run the local sandbox of the User Data REST Service (SQLite, demo data)'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'completion' -d 'Print the shell completion script (bash, zsh or fish)'
complete -c udcli -n '__udcli_subcommand_of "udcli"' -a 'help' -d 'show help for a command'

# udcli auth
complete -c udcli -n '__udcli_subcommand_of "udcli auth"' -a 'verify' -d 'Authenticate a user from user_id and auth_token (exit 3 when not authenticated)'
complete -c udcli -n '__udcli_subcommand_of "udcli auth"' -a 'token' -d 'Get a test token from the token generator (needs a site session)'
complete -c udcli -n '__udcli_subcommand_of "udcli auth"' -a 'help' -d 'show help for a command'

# udcli auth token
complete -c udcli -n '__udcli_in "udcli auth token"' -l as -x -d 'log in to the sandbox site as this user first (sandbox only)'
complete -c udcli -n '__udcli_in "udcli auth token"' -l cookie -x -d 'the site session cookie to send (default: the profile\'s cookie)'
complete -c udcli -n '__udcli_in "udcli auth token"' -l export -d 'print UDCLI_USER_ID=... and UDCLI_AUTH_TOKEN=... for eval in a shell'

# udcli auth help
complete -c udcli -n '__udcli_argument "udcli auth help" 0' -a 'verify token'

# udcli user
complete -c udcli -n '__udcli_in "udcli user"' -l username -d 'look the argument up as a username even if it is 32 hex digits'
complete -c udcli -n '__udcli_in "udcli user"' -l public -d 'ask without the api key: only the public fields (uid, username, avatar)'

# udcli friends
complete -c udcli -n '__udcli_in "udcli friends"' -l limit -x -d 'friends per page, 1 to 500 (server default 500)'
complete -c udcli -n '__udcli_in "udcli friends"' -l offset -x -d 'skip this many friends first'
complete -c udcli -n '__udcli_in "udcli friends"' -l page -x -d 'page number, starting at 1 (instead of --offset)'
complete -c udcli -n '__udcli_in "udcli friends"' -l all -d 'every friend, fetched 500 at a time and streamed (with -o ndjson or csv)'

# udcli achievements
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'defs' -d 'List a game\'s achievement definitions'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'list' -d 'List a user\'s achievement progress'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'inc' -d 'Add to a user\'s progress (signed PUT increment)'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'set' -d 'Set a user\'s total progress: 0..1 or a percentage (signed PUT progress)'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'reset' -d 'Reset a user\'s progress to the start value (signed PUT reset=1)'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'delete' -d 'Delete a user\'s record of an achievement (asks first on a terminal; needs --yes where it cannot ask)'
complete -c udcli -n '__udcli_subcommand_of "udcli achievements"' -a 'help' -d 'show help for a command'

# udcli achievements defs
complete -c udcli -n '__udcli_in "udcli achievements defs"' -l aid -x -d 'one achievement by its numeric id'
complete -c udcli -n '__udcli_in "udcli achievements defs"' -l developer-id -x -d 'one achievement by its developer_id'
complete -c udcli -n '__udcli_in "udcli achievements defs"' -l type -x -a 'Game Website' -d 'Game or Website (default Game)'

# udcli achievements list
complete -c udcli -n '__udcli_in "udcli achievements list"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l developer-id -x -d 'only this achievement'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l limit -x -d 'at most this many, 1 to 1000 (server default 100)'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l offset -x -d 'skip this many first'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l order -x -a 'started_date completed_date state parent_id percent_complete name' -d 'started_date, completed_date, state, parent_id, percent_complete or name'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l sort -x -a 'asc desc' -d 'asc or desc'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l filter -x -a 'parent name percent_complete state parent_id' -d 'parent, name, percent_complete, state or parent_id (with --match)'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l match -x -d 'value for --filter, e.g. --filter percent_complete --match ">=50"'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l all -d 'every record, fetched 1000 at a time'
complete -c udcli -n '__udcli_in "udcli achievements list"' -l started -d 'only the quests the user has started, as the service lists them (no Not Started rows from the definitions)'

# udcli achievements inc
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l by -x -d 'amount to add, an integer ≥ 1'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli achievements inc"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli achievements set
complete -c udcli -n '__udcli_in "udcli achievements set"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli achievements set"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli achievements reset
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli achievements reset"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli achievements delete
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli achievements delete"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli achievements help
complete -c udcli -n '__udcli_argument "udcli achievements help" 0' -a 'defs list inc set reset delete'

# udcli products
complete -c udcli -n '__udcli_subcommand_of "udcli products"' -a 'list' -d 'List the products of the game, with what the user holds of each (HELD)'
complete -c udcli -n '__udcli_subcommand_of "udcli products"' -a 'give' -d 'Give a product: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT, or POST with --post)'
complete -c udcli -n '__udcli_subcommand_of "udcli products"' -a 'take' -d 'Take a product away: --qty packs of a pack sku (gems:500), units of a base sku (signed PUT decrement; exit 1 if the user holds fewer)'
complete -c udcli -n '__udcli_subcommand_of "udcli products"' -a 'help' -d 'show help for a command'

# udcli products list
complete -c udcli -n '__udcli_in "udcli products list"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli products list"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli products list"' -l sku -x -d 'only this product'

# udcli products give
complete -c udcli -n '__udcli_in "udcli products give"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli products give"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli products give"' -l qty -x -d 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units'
complete -c udcli -n '__udcli_in "udcli products give"' -l post -d 'send an unsigned POST grant (a purchase or gift) instead of a signed PUT'
complete -c udcli -n '__udcli_in "udcli products give"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli products give"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli products give"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli products give"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli products give"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli products give"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli products give"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli products give"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli products give"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli products take
complete -c udcli -n '__udcli_in "udcli products take"' -l game -x -d 'the game (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli products take"' -l type -x -a 'Game Website' -d 'Game or Website (default: the profile\'s type, else Game)'
complete -c udcli -n '__udcli_in "udcli products take"' -l qty -x -d 'how many, an integer ≥ 1: packs when the sku names a pack (gems:500), else units'
complete -c udcli -n '__udcli_in "udcli products take"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli products take"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli products take"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli products take"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli products take"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli products take"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli products take"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli products take"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli products take"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli products help
complete -c udcli -n '__udcli_argument "udcli products help" 0' -a 'list give take'

# udcli saves
complete -c udcli -n '__udcli_subcommand_of "udcli saves"' -a 'list' -d 'Every save of the user in the game (KEY, SIZE and the start of each VALUE; JSON: {key: value})'
complete -c udcli -n '__udcli_subcommand_of "udcli saves"' -a 'get' -d 'The saved value: pretty-printed when it is JSON, as saved otherwise; exit 4 when nothing is saved'
complete -c udcli -n '__udcli_subcommand_of "udcli saves"' -a 'set' -d 'Save a value under a key (creates or replaces; signed POST, the value in the form body)'
complete -c udcli -n '__udcli_subcommand_of "udcli saves"' -a 'erase' -d 'Erase a save (signed; asks first on a terminal, needs --yes where it cannot ask)'
complete -c udcli -n '__udcli_subcommand_of "udcli saves"' -a 'help' -d 'show help for a command'

# udcli saves set
complete -c udcli -n '__udcli_in "udcli saves set"' -l auth-token -x -d 'the player\'s auth token for the game (else UDCLI_AUTH_TOKEN; got from the sandbox there)'
complete -c udcli -n '__udcli_in "udcli saves set"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli saves set"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli saves set"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli saves set"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli saves set"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli saves set"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli saves set"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli saves set"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli saves set"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli saves erase
complete -c udcli -n '__udcli_in "udcli saves erase"' -l auth-token -x -d 'the player\'s auth token for the game (else UDCLI_AUTH_TOKEN; got from the sandbox there)'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l reason -x -d 'why the change is made (up to 500 characters): kept in the receipt, the audit log and the journal'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l ticket -x -d 'the support ticket it answers, e.g. SUP-1234: kept with the reason; udcli audit --ticket finds it'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l concurrency -x -d 'with @FILE: users changed at once (default 8)'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l rate -x -d 'with @FILE: at most this many users a second, e.g. 20/s'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l dry-run -d 'print the request that would be sent and the change expected (each user, with @FILE); send nothing that changes state'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l journal -r -F -d 'with @FILE: record finished users here; a rerun skips them'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l fail-fast -d 'with @FILE: start no more users after the first failure'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l retry-unknown -d 'with @FILE and --journal: send again users whose outcome was unknown'
complete -c udcli -n '__udcli_in "udcli saves erase"' -l plan -r -F -d 'with @FILE: no such file yet: write the plan (reads each user, sends nothing) for another operator to approve (udcli approve FILE); the file there: run it, once approved'

# udcli saves help
complete -c udcli -n '__udcli_argument "udcli saves help" 0' -a 'list get set erase'

# udcli api
complete -c udcli -n '__udcli_in "udcli api"' -s f -l field -x -d 'a query parameter (repeatable); api_key is added unless you give one'
complete -c udcli -n '__udcli_in "udcli api"' -l sign -d 'sign the request with the profile\'s signing_scheme (agi: the 401 challenge, then session and sig)'
complete -c udcli -n '__udcli_in "udcli api"' -l dry-run -d 'print the request and what its scheme signs (agi: the sorted values and joined string), secrets redacted; send nothing'
complete -c udcli -n '__udcli_in "udcli api"' -l reason -x -d 'why a change is made: kept in the audit log (required by a profile with require_reason)'
complete -c udcli -n '__udcli_in "udcli api"' -l ticket -x -d 'the support ticket a change answers, e.g. SUP-1234: kept with the reason'
complete -c udcli -n '__udcli_argument "udcli api" 0' -a 'GET POST PUT DELETE'

# udcli audit
complete -c udcli -n '__udcli_subcommand_of "udcli audit"' -a 'resolve' -d 'Settle the open changes (sent or not when udcli died, or their reply lost): read each player, decide applied or not, close it'
complete -c udcli -n '__udcli_subcommand_of "udcli audit"' -a 'undo' -d 'Write the inverse batch of a run or a ticket (a file of users for each undo command) and print the commands that run it, each after its dry run; sends nothing'
complete -c udcli -n '__udcli_in "udcli audit"' -l since -x -d 'only changes since a duration ago (30m, 2h, 7d) or a date (2024-05-01)'
complete -c udcli -n '__udcli_in "udcli audit"' -l user -x -d 'only changes to this user: a uid or a username (one lookup)'
complete -c udcli -n '__udcli_in "udcli audit"' -l profile -x -a '(__udcli_values profiles)' -d 'only changes made under this profile'
complete -c udcli -n '__udcli_in "udcli audit"' -l history -d 'every line, oldest first (not only the latest state of each user and change)'
complete -c udcli -n '__udcli_in "udcli audit"' -l unresolved -d 'only open changes: written ahead and never closed (the process died around sending), or unknown (udcli audit resolve settles them)'
complete -c udcli -n '__udcli_in "udcli audit"' -l run -x -d 'only one run\'s lines (every line of a batch shares its run id)'
complete -c udcli -n '__udcli_in "udcli audit"' -l ticket -x -d 'only changes made with this --ticket'
complete -c udcli -n '__udcli_in "udcli audit"' -l operator -x -d 'only changes made by this operator: the whole name, its name part or its address'

# udcli audit resolve
complete -c udcli -n '__udcli_in "udcli audit resolve"' -l run -x -d 'only one run\'s open changes'
complete -c udcli -n '__udcli_in "udcli audit resolve"' -l ticket -x -d 'only open changes made with this --ticket'
complete -c udcli -n '__udcli_in "udcli audit resolve"' -l all -d 'every open change'

# udcli audit undo
complete -c udcli -n '__udcli_in "udcli audit undo"' -l run -x -d 'undo one run\'s changes (every line of a batch shares its run id)'
complete -c udcli -n '__udcli_in "udcli audit undo"' -l ticket -x -d 'undo the changes made with this --ticket'
complete -c udcli -n '__udcli_in "udcli audit undo"' -l out -x -d 'where the files go (default: the current directory); an existing file is never overwritten'

# udcli profile
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'add' -d 'Add a profile'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'list' -d 'List the profiles (secrets are never shown)'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'use' -d 'Make a profile the current one'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'show' -d 'Show a profile: every key (secrets redacted) and, for the active one, where each value comes from'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'import' -d 'Install a team\'s profiles, their policy and default from a YAML or JSON file (no secrets in it); your own secrets are kept'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'remove' -d 'Remove a profile (the built-in sandbox cannot be removed)'
complete -c udcli -n '__udcli_subcommand_of "udcli profile"' -a 'help' -d 'show help for a command'

# udcli profile add
complete -c udcli -n '__udcli_in "udcli profile add"' -l base-url -x -d 'service base URL, e.g. https://api.example.com'
complete -c udcli -n '__udcli_in "udcli profile add"' -l site-url -x -d 'site hosting login and the token generator (default: the base URL)'
complete -c udcli -n '__udcli_in "udcli profile add"' -l api-key -x -d 'the game api key: 32 hex digits or a UUID'
complete -c udcli -n '__udcli_in "udcli profile add"' -l signing-secret -x -d 'secret for hmac-sha256-v1 (agi needs none); prefer `udcli config set signing_secret -` (standard input)'
complete -c udcli -n '__udcli_in "udcli profile add"' -l signing-scheme -x -a 'agi hmac-sha256-v1 none' -d 'agi (default, the platform\'s own), hmac-sha256-v1 or none'
complete -c udcli -n '__udcli_in "udcli profile add"' -l verb-override -x -d 'send PUT/DELETE as POST with method= (default: true under agi)'
complete -c udcli -n '__udcli_in "udcli profile add"' -l game-id -x -d 'default game for commands that take one'
complete -c udcli -n '__udcli_in "udcli profile add"' -l type -x -a 'Game Website' -d 'Game (default) or Website'
complete -c udcli -n '__udcli_in "udcli profile add"' -l cookie -x -d 'site session cookie for the token generator'
complete -c udcli -n '__udcli_in "udcli profile add"' -l audit-url -x -d 'the team\'s trail: a PostgreSQL URL without a password (postgres://user@host:5432/db); the password comes from PGPASSWORD, UDCLI_AUDIT_PASSWORD or a prompt'
complete -c udcli -n '__udcli_in "udcli profile add"' -l production -d 'mark as production: mutations print a banner and ask first'
complete -c udcli -n '__udcli_in "udcli profile add"' -l require-reason -d 'every change under this profile needs --reason and --ticket'
complete -c udcli -n '__udcli_in "udcli profile add"' -l from-sandbox -d 'fill in the sandbox\'s URL and the demo game\'s credentials'

# udcli profile use
complete -c udcli -n '__udcli_argument "udcli profile use" 0' -a '(__udcli_values profiles)'

# udcli profile show
complete -c udcli -n '__udcli_argument "udcli profile show" 0' -a '(__udcli_values profiles)'

# udcli profile remove
complete -c udcli -n '__udcli_argument "udcli profile remove" 0' -a '(__udcli_values profiles)'

# udcli profile help
complete -c udcli -n '__udcli_argument "udcli profile help" 0' -a 'add list use show import remove'

# udcli config
complete -c udcli -n '__udcli_subcommand_of "udcli config"' -a 'get' -d 'Print the value in effect (secrets redacted); its source goes to stderr when not the profile'
complete -c udcli -n '__udcli_subcommand_of "udcli config"' -a 'set' -d 'Set a key of the active profile (validated; "-" reads the value from stdin)'
complete -c udcli -n '__udcli_subcommand_of "udcli config"' -a 'unset' -d 'Remove a key from the active profile (the built-in default applies again)'
complete -c udcli -n '__udcli_subcommand_of "udcli config"' -a 'path' -d 'Print the path of the config file'
complete -c udcli -n '__udcli_subcommand_of "udcli config"' -a 'help' -d 'show help for a command'

# udcli config get
complete -c udcli -n '__udcli_argument "udcli config get" 0' -a 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over'

# udcli config set
complete -c udcli -n '__udcli_argument "udcli config set" 0' -a 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over'

# udcli config unset
complete -c udcli -n '__udcli_argument "udcli config unset" 0' -a 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over'

# udcli config help
complete -c udcli -n '__udcli_argument "udcli config help" 0' -a 'get set unset path'

# udcli doctor
complete -c udcli -n '__udcli_in "udcli doctor"' -l check-signing -d 'under a production profile: send the signing check\'s signed request too (asks first)'

# udcli sandbox
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'start' -d 'Start the sandbox (foreground until Ctrl-C, or --detach)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'exec' -d 'Run a command against a fresh sandbox (free port, temporary database); exit with the command\'s code'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'play' -d 'Open a game\'s play page, the game served by the sandbox\'s game host (starts a detached sandbox if none runs)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'game' -d 'Show a sandbox game, or set its content URI (what the play page /play/{game_id} shows)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'init' -d 'Write a commented starter data file for your own game (default: sandbox-data.yaml; - for stdout)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'schema' -d 'Print the JSON Schema of sandbox data files (for editors and CI checks)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'load' -d 'Load a data file (YAML or JSON) into the sandbox database, all or nothing; a running sandbox sees it at once'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'export' -d 'Write the whole sandbox database as a data file (YAML, or JSON for a .json file); - or nothing for stdout'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'diff' -d 'Compare a recording of the platform (HAR) with what the sandbox answers: exit 0 same, 1 different, 2 bad input'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'import' -d 'Write a data file of the state a recording (HAR) shows: profiles, friends, quests and progress, products held, saves'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'snapshot' -d 'Save the sandbox database under a name, restore it, list or delete snapshots'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'stop' -d 'Stop the running sandbox (when several run: the one --port or --name names, or --all)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'logs' -d 'Show the detached sandbox\'s log like tail: the last 10 lines (start-up messages and one line per request, secrets redacted)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'status' -d 'Show whether the sandbox runs, and where (exit 1 when it does not)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'reset' -d 'Put the sandbox database back to what it was started with (its data file, else the demo data); a running sandbox is reset live'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'clock' -d 'Show or move the running sandbox\'s virtual clock (token, session and challenge expiry, the hmac timestamp window)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'info' -d 'Show what the sandbox holds now, asked of it: URLs, games and keys, users with their progress and holdings, quests and products'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'seed' -d 'Add generated data: users, a hub user with friends, achievements, products'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox"' -a 'help' -d 'show help for a command'

# udcli sandbox start
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l port -x -d 'port to listen on, 0 = any free port (default: 8787)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l host -x -d 'address to bind (default: 127.0.0.1)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l db -r -F -d 'database file, or :memory: (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l seed -x -a 'demo none' -d 'demo: seed the demo data into an empty database; none: leave it empty (default: demo)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l data -r -F -d 'load your data file (YAML or JSON; see sandbox init) instead of the demo data; a database that holds anything else is refused'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l reset -d 'with --data: replace whatever the database holds with the file'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l token-ttl -x -d 'lifetime of tokens from the token generator (default: 900)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l rate-limit -x -d 'answer 429 beyond N requests per second per api_key, e.g. 10/s'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l faults -x -d 'inject the platform\'s awkward replies into /services/rest/v1, e.g. reset=0.1,slow=0.2:1500ms (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l fault-seed -x -d 'seed of the fault draws: the same seed faults the same requests of the same sequence (default: random, printed at start)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l latency -x -d 'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l game-dir -x -d 'serve the game from this folder at /play/GAME/game/ (on the game host, an origin of its own)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l game-url -x -d 'serve the game from this dev server (proxied, websockets too) at /play/GAME/game/ (on the game host)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l game -x -d 'the game --game-dir / --game-url serve (default: the first game)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l no-connect -d 'do not put the connect script into the game\'s HTML pages'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l insecure-game-host -d 'accept the game\'s dev server\'s https certificate unchecked (a self-signed one, e.g. https://localhost:5173)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l allow-game-dir -x -d 'a folder games may later be served from (sandbox play --game-dir on the running sandbox): repeat for more; --game-dir is allowed already'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l detach -d 'run in the background; output goes to sandbox.log in the data dir'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l name -x -d 'run beside other sandboxes under this name, with a database and log of its own (default: the default sandbox, else port-PORT beside it)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l allow-remote -d 'allow a --host other machines can reach (the sandbox has password-less login)'
complete -c udcli -n '__udcli_in "udcli sandbox start"' -l public-url -x -d 'the URL other machines reach it at (a name, a tunnel): answered besides localhost and the bound address; needs --allow-remote'

# udcli sandbox exec
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l port -x -d 'port to listen on (default: 0, any free port)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l seed -x -a 'demo none' -d 'demo: the demo data; none: an empty database (default: demo)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l data -r -F -d 'start from your data file instead of the demo data'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l snapshot -x -a '(__udcli_values snapshots)' -d 'start from a saved snapshot (udcli sandbox snapshot save)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l log -r -F -d 'write every request line of the run to FILE (when the command fails, the last 20 are printed on stderr either way)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l token-ttl -x -d 'lifetime of tokens from the token generator (default: 900)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l rate-limit -x -d 'answer 429 beyond N requests per second per api_key, e.g. 10/s'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l faults -x -d 'inject the platform\'s awkward replies into /services/rest/v1, e.g. reset=0.1,slow=0.2:1500ms (kinds: envelope-error, html-502, truncated, empty, slow, reset, rate-limit, challenge-again)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l fault-seed -x -d 'seed of the fault draws: the same seed faults the same requests of the same sequence (default: random, printed at start)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l latency -x -d 'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l game-dir -x -d 'serve the game from this folder at /play/GAME/game/ (on the game host, an origin of its own)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l game-url -x -d 'serve the game from this dev server (proxied, websockets too) at /play/GAME/game/ (on the game host)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l game -x -d 'the game --game-dir / --game-url serve (default: the first game)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l no-connect -d 'do not put the connect script into the game\'s HTML pages'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l insecure-game-host -d 'accept the game\'s dev server\'s https certificate unchecked (a self-signed one, e.g. https://localhost:5173)'
complete -c udcli -n '__udcli_in "udcli sandbox exec"' -l allow-game-dir -x -d 'a folder games may later be served from (sandbox play --game-dir on the running sandbox): repeat for more; --game-dir is allowed already'

# udcli sandbox play
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l game-dir -x -d 'serve the game from this folder (e.g. your build output)'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l game-url -x -d 'serve the game from this dev server, e.g. http://localhost:5173/'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l as -x -d 'play as this username (the page asks to confirm)'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l no-open -d 'only print the URL, open no browser'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l no-connect -d 'do not put the connect script into the game\'s HTML pages'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l insecure-game-host -d 'accept the game\'s dev server\'s https certificate unchecked (a self-signed one, e.g. https://localhost:5173); for a sandbox play starts (a running one keeps its own)'
complete -c udcli -n '__udcli_in "udcli sandbox play"' -l latency -x -d 'hold every /services/rest reply this long, as a network round trip would, e.g. 40ms or 2s (at most 10s; default 0); for a sandbox play starts (a running one keeps its own)'

# udcli sandbox game
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox game"' -a 'set-uri' -d 'Set the content URI the play page iframes (an http or https URL); a running sandbox sees it at once'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox game"' -a 'show' -d 'Show a game: name, content URI, play page, api keys'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox game"' -a 'help' -d 'show help for a command'

# udcli sandbox game set-uri
complete -c udcli -n '__udcli_in "udcli sandbox game set-uri"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox game set-uri"' -l json -d 'print the game as JSON'

# udcli sandbox game show
complete -c udcli -n '__udcli_in "udcli sandbox game show"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox game show"' -l json -d 'print JSON'

# udcli sandbox game help
complete -c udcli -n '__udcli_argument "udcli sandbox game help" 0' -a 'set-uri show'

# udcli sandbox init
complete -c udcli -n '__udcli_in "udcli sandbox init"' -l force -d 'replace existing files (the data file and the schema written beside it)'

# udcli sandbox load
complete -c udcli -n '__udcli_in "udcli sandbox load"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox load"' -l json -d 'print the summary as JSON'

# udcli sandbox export
complete -c udcli -n '__udcli_in "udcli sandbox export"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox export"' -l format -x -d 'yaml or json (default: from the file name, else yaml)'

# udcli sandbox diff
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l json -d 'print one JSON object: compared, same, differing, skipped, differences'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l ignore -x -d 'leave out this path and what is below it, e.g. payload[].percent_complete (repeatable)'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l strict -d 'compare everything, the values that drift between runs (dates, sessions, tokens, ids) too'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l data -r -F -d 'load this data file into the scratch sandbox before the recording\'s state'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l live -x -d 'read this user (uid or username) from the profile\'s server (reads only: it never sends a change), record and diff'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l game -x -d 'with --live: the game whose quests and products to read (default: the profile\'s game_id)'
complete -c udcli -n '__udcli_in "udcli sandbox diff"' -l save-key -x -d 'with --live: read this game save too'

# udcli sandbox import
complete -c udcli -n '__udcli_in "udcli sandbox import"' -l keep-personal -d 'keep players\' personal fields (birthday, email), which are left out by default'
complete -c udcli -n '__udcli_in "udcli sandbox import"' -l force -d 'replace an existing data file'

# udcli sandbox snapshot
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox snapshot"' -a 'save' -d 'Save the database as snapshot NAME (an existing one of that name is replaced only once the new one is complete)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox snapshot"' -a 'restore' -d 'Put the database back to snapshot NAME (one transaction; a running sandbox sees it at once)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox snapshot"' -a 'list' -d 'List the saved snapshots'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox snapshot"' -a 'delete' -d 'Delete snapshot NAME'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox snapshot"' -a 'help' -d 'show help for a command'

# udcli sandbox snapshot save
complete -c udcli -n '__udcli_in "udcli sandbox snapshot save"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'

# udcli sandbox snapshot restore
complete -c udcli -n '__udcli_in "udcli sandbox snapshot restore"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_argument "udcli sandbox snapshot restore" 0' -a '(__udcli_values snapshots)'

# udcli sandbox snapshot list
complete -c udcli -n '__udcli_in "udcli sandbox snapshot list"' -l json -d 'print JSON'

# udcli sandbox snapshot delete
complete -c udcli -n '__udcli_argument "udcli sandbox snapshot delete" 0' -a '(__udcli_values snapshots)'

# udcli sandbox snapshot help
complete -c udcli -n '__udcli_argument "udcli sandbox snapshot help" 0' -a 'save restore list delete'

# udcli sandbox stop
complete -c udcli -n '__udcli_in "udcli sandbox stop"' -l port -x -d 'the sandbox on this port (default: the one that runs)'
complete -c udcli -n '__udcli_in "udcli sandbox stop"' -l name -x -d 'the sandbox started with this --name'
complete -c udcli -n '__udcli_in "udcli sandbox stop"' -l all -d 'every sandbox that runs'

# udcli sandbox logs
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -s n -l lines -x -d 'the last N lines, or all (default: 10)'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -s f -l follow -d 'then keep printing lines as they are written, until Ctrl-C (starts at the end)'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l status -x -d 'only requests with these statuses or classes, e.g. 4xx, 401, 5xx,429'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l path -x -d 'only requests whose path contains TEXT'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l since -x -d 'only requests since a duration ago (10m, 2h, 1d) or an ISO date-time'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l challenges -d 'also the 401 challenges answered by a signed retry (shown in their retry\'s line otherwise)'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l json -d 'only the request lines, one JSON object each'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l port -x -d 'the sandbox on this port (default: the one that runs)'
complete -c udcli -n '__udcli_in "udcli sandbox logs"' -l name -x -d 'the sandbox started with this --name'

# udcli sandbox status
complete -c udcli -n '__udcli_in "udcli sandbox status"' -l json -d 'print JSON'
complete -c udcli -n '__udcli_in "udcli sandbox status"' -l port -x -d 'the sandbox on this port (default: the one that runs)'
complete -c udcli -n '__udcli_in "udcli sandbox status"' -l name -x -d 'the sandbox started with this --name'

# udcli sandbox reset
complete -c udcli -n '__udcli_in "udcli sandbox reset"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox reset"' -l seed -x -a 'demo none' -d 'demo or none, instead of what it was started with'
complete -c udcli -n '__udcli_in "udcli sandbox reset"' -l data -r -F -d 'your data file, instead of what it was started with'

# udcli sandbox clock
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox clock"' -a 'now' -d 'Show the sandbox\'s time and its offset from the real clock'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox clock"' -a 'advance' -d 'Move the clock forward: seconds, or a number with s, m, h or d (e.g. 901s, 15m)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox clock"' -a 'set' -d 'Put the clock at a date-time (ISO 8601, UTC unless it names a zone), or now (the real time); backwards is allowed'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox clock"' -a 'reset' -d 'Put the clock back on the real time (offset 0)'
complete -c udcli -n '__udcli_subcommand_of "udcli sandbox clock"' -a 'help' -d 'show help for a command'

# udcli sandbox clock now
complete -c udcli -n '__udcli_in "udcli sandbox clock now"' -l port -x -d 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)'
complete -c udcli -n '__udcli_in "udcli sandbox clock now"' -l json -d 'print JSON'

# udcli sandbox clock advance
complete -c udcli -n '__udcli_in "udcli sandbox clock advance"' -l port -x -d 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)'
complete -c udcli -n '__udcli_in "udcli sandbox clock advance"' -l json -d 'print JSON'

# udcli sandbox clock set
complete -c udcli -n '__udcli_in "udcli sandbox clock set"' -l port -x -d 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)'
complete -c udcli -n '__udcli_in "udcli sandbox clock set"' -l json -d 'print JSON'

# udcli sandbox clock reset
complete -c udcli -n '__udcli_in "udcli sandbox clock reset"' -l port -x -d 'the sandbox on this port of 127.0.0.1 (default: the running sandbox)'
complete -c udcli -n '__udcli_in "udcli sandbox clock reset"' -l json -d 'print JSON'

# udcli sandbox clock help
complete -c udcli -n '__udcli_argument "udcli sandbox clock help" 0' -a 'now advance set reset'

# udcli sandbox info
complete -c udcli -n '__udcli_in "udcli sandbox info"' -l json -d 'print JSON'

# udcli sandbox seed
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l users -x -d 'users to generate (default: 1000)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l friends -x -d 'friends of the generated hub user, at most --users (default: 500)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l achievements -x -d 'achievements on game 1001 (default: 10)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l products -x -d 'products on game 1001 (default: 5)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l seed -x -d 'same seed, same data (default: 1)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l db -r -F -d 'database file (default: sandbox.db in the data dir)'
complete -c udcli -n '__udcli_in "udcli sandbox seed"' -l json -d 'print the summary as JSON'

# udcli sandbox help
complete -c udcli -n '__udcli_argument "udcli sandbox help" 0' -a 'start exec play game init schema load export diff import snapshot stop logs status reset clock info seed'

# udcli completion
complete -c udcli -n '__udcli_argument "udcli completion" 0' -a 'bash zsh fish'

# udcli help
complete -c udcli -n '__udcli_argument "udcli help" 0' -a 'auth user friends achievements products saves api audit approve profile config doctor sandbox completion'
