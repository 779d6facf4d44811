# bash completion for udcli. Generated from the command tree by
# `udcli completion bash` (npm run completions); do not edit by hand.
#
# Install: add  eval "$(udcli completion bash)"  to ~/.bashrc, or save this file as
# ~/.local/share/bash-completion/completions/udcli (needs the bash-completion package).

# Profile names (the config file), snapshot names (the sandbox's data directory): asked of
# udcli itself; quiet and empty when anything goes wrong.
_udcli_values() {
  local cmd=${COMP_WORDS[0]}
  [[ $cmd == '~/'* ]] && cmd=$HOME/${cmd#'~/'}
  "$cmd" __complete "$1" 2>/dev/null
}

_udcli_words() {
  local IFS=$' \t\n'
  COMPREPLY=($(compgen -W "$1" -- "$cur"))
}

_udcli_files() {
  local IFS=$'\n'
  COMPREPLY=($(compgen -f -- "$cur"))
  compopt -o filenames 2>/dev/null
  return 0
}

_udcli_sub() {
  case "$1 $2" in
    'udcli auth') REPLY='udcli auth' ;;
    'udcli user') REPLY='udcli user' ;;
    'udcli friends') REPLY='udcli friends' ;;
    'udcli achievements') REPLY='udcli achievements' ;;
    'udcli products') REPLY='udcli products' ;;
    'udcli saves') REPLY='udcli saves' ;;
    'udcli api') REPLY='udcli api' ;;
    'udcli audit') REPLY='udcli audit' ;;
    'udcli approve') REPLY='udcli approve' ;;
    'udcli profile') REPLY='udcli profile' ;;
    'udcli config') REPLY='udcli config' ;;
    'udcli doctor') REPLY='udcli doctor' ;;
    'udcli sandbox') REPLY='udcli sandbox' ;;
    'udcli completion') REPLY='udcli completion' ;;
    'udcli help') REPLY='udcli help' ;;
    'udcli auth verify') REPLY='udcli auth verify' ;;
    'udcli auth token') REPLY='udcli auth token' ;;
    'udcli auth help') REPLY='udcli auth help' ;;
    'udcli achievements defs') REPLY='udcli achievements defs' ;;
    'udcli achievements list') REPLY='udcli achievements list' ;;
    'udcli achievements inc') REPLY='udcli achievements inc' ;;
    'udcli achievements set') REPLY='udcli achievements set' ;;
    'udcli achievements reset') REPLY='udcli achievements reset' ;;
    'udcli achievements delete') REPLY='udcli achievements delete' ;;
    'udcli achievements help') REPLY='udcli achievements help' ;;
    'udcli products list') REPLY='udcli products list' ;;
    'udcli products give') REPLY='udcli products give' ;;
    'udcli products take') REPLY='udcli products take' ;;
    'udcli products help') REPLY='udcli products help' ;;
    'udcli saves list') REPLY='udcli saves list' ;;
    'udcli saves get') REPLY='udcli saves get' ;;
    'udcli saves set') REPLY='udcli saves set' ;;
    'udcli saves erase') REPLY='udcli saves erase' ;;
    'udcli saves help') REPLY='udcli saves help' ;;
    'udcli audit resolve') REPLY='udcli audit resolve' ;;
    'udcli audit undo') REPLY='udcli audit undo' ;;
    'udcli profile add') REPLY='udcli profile add' ;;
    'udcli profile list'|'udcli profile ls') REPLY='udcli profile list' ;;
    'udcli profile use') REPLY='udcli profile use' ;;
    'udcli profile show') REPLY='udcli profile show' ;;
    'udcli profile import') REPLY='udcli profile import' ;;
    'udcli profile remove'|'udcli profile rm') REPLY='udcli profile remove' ;;
    'udcli profile help') REPLY='udcli profile help' ;;
    'udcli config get') REPLY='udcli config get' ;;
    'udcli config set') REPLY='udcli config set' ;;
    'udcli config unset') REPLY='udcli config unset' ;;
    'udcli config path') REPLY='udcli config path' ;;
    'udcli config help') REPLY='udcli config help' ;;
    'udcli sandbox start') REPLY='udcli sandbox start' ;;
    'udcli sandbox exec') REPLY='udcli sandbox exec' ;;
    'udcli sandbox play') REPLY='udcli sandbox play' ;;
    'udcli sandbox game') REPLY='udcli sandbox game' ;;
    'udcli sandbox init') REPLY='udcli sandbox init' ;;
    'udcli sandbox schema') REPLY='udcli sandbox schema' ;;
    'udcli sandbox load') REPLY='udcli sandbox load' ;;
    'udcli sandbox export') REPLY='udcli sandbox export' ;;
    'udcli sandbox diff') REPLY='udcli sandbox diff' ;;
    'udcli sandbox import') REPLY='udcli sandbox import' ;;
    'udcli sandbox snapshot') REPLY='udcli sandbox snapshot' ;;
    'udcli sandbox stop') REPLY='udcli sandbox stop' ;;
    'udcli sandbox logs') REPLY='udcli sandbox logs' ;;
    'udcli sandbox status') REPLY='udcli sandbox status' ;;
    'udcli sandbox reset') REPLY='udcli sandbox reset' ;;
    'udcli sandbox clock') REPLY='udcli sandbox clock' ;;
    'udcli sandbox info') REPLY='udcli sandbox info' ;;
    'udcli sandbox seed') REPLY='udcli sandbox seed' ;;
    'udcli sandbox help') REPLY='udcli sandbox help' ;;
    'udcli sandbox game set-uri') REPLY='udcli sandbox game set-uri' ;;
    'udcli sandbox game show') REPLY='udcli sandbox game show' ;;
    'udcli sandbox game help') REPLY='udcli sandbox game help' ;;
    'udcli sandbox snapshot save') REPLY='udcli sandbox snapshot save' ;;
    'udcli sandbox snapshot restore') REPLY='udcli sandbox snapshot restore' ;;
    'udcli sandbox snapshot list') REPLY='udcli sandbox snapshot list' ;;
    'udcli sandbox snapshot delete') REPLY='udcli sandbox snapshot delete' ;;
    'udcli sandbox snapshot help') REPLY='udcli sandbox snapshot help' ;;
    'udcli sandbox clock now') REPLY='udcli sandbox clock now' ;;
    'udcli sandbox clock advance') REPLY='udcli sandbox clock advance' ;;
    'udcli sandbox clock set') REPLY='udcli sandbox clock set' ;;
    'udcli sandbox clock reset') REPLY='udcli sandbox clock reset' ;;
    'udcli sandbox clock help') REPLY='udcli sandbox clock help' ;;
    *) return 1 ;;
  esac
  return 0
}

_udcli_takes_value() {
  case "$1 $2" in
    'udcli auth token --as') return 0 ;;
    'udcli auth token --cookie') return 0 ;;
    'udcli friends --limit') return 0 ;;
    'udcli friends --offset') return 0 ;;
    'udcli friends --page') return 0 ;;
    'udcli achievements defs --aid') return 0 ;;
    'udcli achievements defs --developer-id') return 0 ;;
    'udcli achievements defs --type') return 0 ;;
    'udcli achievements list --game') return 0 ;;
    'udcli achievements list --type') return 0 ;;
    'udcli achievements list --developer-id') return 0 ;;
    'udcli achievements list --limit') return 0 ;;
    'udcli achievements list --offset') return 0 ;;
    'udcli achievements list --order') return 0 ;;
    'udcli achievements list --sort') return 0 ;;
    'udcli achievements list --filter') return 0 ;;
    'udcli achievements list --match') return 0 ;;
    'udcli achievements inc --game') return 0 ;;
    'udcli achievements inc --type') return 0 ;;
    'udcli achievements inc --by') return 0 ;;
    'udcli achievements inc --reason') return 0 ;;
    'udcli achievements inc --ticket') return 0 ;;
    'udcli achievements inc --concurrency') return 0 ;;
    'udcli achievements inc --rate') return 0 ;;
    'udcli achievements inc --journal') return 0 ;;
    'udcli achievements inc --plan') return 0 ;;
    'udcli achievements set --game') return 0 ;;
    'udcli achievements set --type') return 0 ;;
    'udcli achievements set --reason') return 0 ;;
    'udcli achievements set --ticket') return 0 ;;
    'udcli achievements set --concurrency') return 0 ;;
    'udcli achievements set --rate') return 0 ;;
    'udcli achievements set --journal') return 0 ;;
    'udcli achievements set --plan') return 0 ;;
    'udcli achievements reset --game') return 0 ;;
    'udcli achievements reset --type') return 0 ;;
    'udcli achievements reset --reason') return 0 ;;
    'udcli achievements reset --ticket') return 0 ;;
    'udcli achievements reset --concurrency') return 0 ;;
    'udcli achievements reset --rate') return 0 ;;
    'udcli achievements reset --journal') return 0 ;;
    'udcli achievements reset --plan') return 0 ;;
    'udcli achievements delete --game') return 0 ;;
    'udcli achievements delete --type') return 0 ;;
    'udcli achievements delete --reason') return 0 ;;
    'udcli achievements delete --ticket') return 0 ;;
    'udcli achievements delete --concurrency') return 0 ;;
    'udcli achievements delete --rate') return 0 ;;
    'udcli achievements delete --journal') return 0 ;;
    'udcli achievements delete --plan') return 0 ;;
    'udcli products list --game') return 0 ;;
    'udcli products list --type') return 0 ;;
    'udcli products list --sku') return 0 ;;
    'udcli products give --game') return 0 ;;
    'udcli products give --type') return 0 ;;
    'udcli products give --qty') return 0 ;;
    'udcli products give --reason') return 0 ;;
    'udcli products give --ticket') return 0 ;;
    'udcli products give --concurrency') return 0 ;;
    'udcli products give --rate') return 0 ;;
    'udcli products give --journal') return 0 ;;
    'udcli products give --plan') return 0 ;;
    'udcli products take --game') return 0 ;;
    'udcli products take --type') return 0 ;;
    'udcli products take --qty') return 0 ;;
    'udcli products take --reason') return 0 ;;
    'udcli products take --ticket') return 0 ;;
    'udcli products take --concurrency') return 0 ;;
    'udcli products take --rate') return 0 ;;
    'udcli products take --journal') return 0 ;;
    'udcli products take --plan') return 0 ;;
    'udcli saves set --auth-token') return 0 ;;
    'udcli saves set --reason') return 0 ;;
    'udcli saves set --ticket') return 0 ;;
    'udcli saves set --concurrency') return 0 ;;
    'udcli saves set --rate') return 0 ;;
    'udcli saves set --journal') return 0 ;;
    'udcli saves set --plan') return 0 ;;
    'udcli saves erase --auth-token') return 0 ;;
    'udcli saves erase --reason') return 0 ;;
    'udcli saves erase --ticket') return 0 ;;
    'udcli saves erase --concurrency') return 0 ;;
    'udcli saves erase --rate') return 0 ;;
    'udcli saves erase --journal') return 0 ;;
    'udcli saves erase --plan') return 0 ;;
    'udcli api -f'|'udcli api --field') return 0 ;;
    'udcli api --reason') return 0 ;;
    'udcli api --ticket') return 0 ;;
    'udcli audit --since') return 0 ;;
    'udcli audit --user') return 0 ;;
    'udcli audit --profile') return 0 ;;
    'udcli audit --run') return 0 ;;
    'udcli audit --ticket') return 0 ;;
    'udcli audit --operator') return 0 ;;
    'udcli audit resolve --run') return 0 ;;
    'udcli audit resolve --ticket') return 0 ;;
    'udcli audit undo --run') return 0 ;;
    'udcli audit undo --ticket') return 0 ;;
    'udcli audit undo --out') return 0 ;;
    'udcli profile add --base-url') return 0 ;;
    'udcli profile add --site-url') return 0 ;;
    'udcli profile add --api-key') return 0 ;;
    'udcli profile add --signing-secret') return 0 ;;
    'udcli profile add --signing-scheme') return 0 ;;
    'udcli profile add --verb-override') return 0 ;;
    'udcli profile add --game-id') return 0 ;;
    'udcli profile add --type') return 0 ;;
    'udcli profile add --cookie') return 0 ;;
    'udcli profile add --audit-url') return 0 ;;
    'udcli sandbox start --port') return 0 ;;
    'udcli sandbox start --host') return 0 ;;
    'udcli sandbox start --db') return 0 ;;
    'udcli sandbox start --seed') return 0 ;;
    'udcli sandbox start --data') return 0 ;;
    'udcli sandbox start --token-ttl') return 0 ;;
    'udcli sandbox start --rate-limit') return 0 ;;
    'udcli sandbox start --faults') return 0 ;;
    'udcli sandbox start --fault-seed') return 0 ;;
    'udcli sandbox start --latency') return 0 ;;
    'udcli sandbox start --game-dir') return 0 ;;
    'udcli sandbox start --game-url') return 0 ;;
    'udcli sandbox start --game') return 0 ;;
    'udcli sandbox start --allow-game-dir') return 0 ;;
    'udcli sandbox start --name') return 0 ;;
    'udcli sandbox start --public-url') return 0 ;;
    'udcli sandbox exec --port') return 0 ;;
    'udcli sandbox exec --seed') return 0 ;;
    'udcli sandbox exec --data') return 0 ;;
    'udcli sandbox exec --snapshot') return 0 ;;
    'udcli sandbox exec --log') return 0 ;;
    'udcli sandbox exec --token-ttl') return 0 ;;
    'udcli sandbox exec --rate-limit') return 0 ;;
    'udcli sandbox exec --faults') return 0 ;;
    'udcli sandbox exec --fault-seed') return 0 ;;
    'udcli sandbox exec --latency') return 0 ;;
    'udcli sandbox exec --game-dir') return 0 ;;
    'udcli sandbox exec --game-url') return 0 ;;
    'udcli sandbox exec --game') return 0 ;;
    'udcli sandbox exec --allow-game-dir') return 0 ;;
    'udcli sandbox play --game-dir') return 0 ;;
    'udcli sandbox play --game-url') return 0 ;;
    'udcli sandbox play --as') return 0 ;;
    'udcli sandbox play --latency') return 0 ;;
    'udcli sandbox game set-uri --db') return 0 ;;
    'udcli sandbox game show --db') return 0 ;;
    'udcli sandbox load --db') return 0 ;;
    'udcli sandbox export --db') return 0 ;;
    'udcli sandbox export --format') return 0 ;;
    'udcli sandbox diff --ignore') return 0 ;;
    'udcli sandbox diff --data') return 0 ;;
    'udcli sandbox diff --live') return 0 ;;
    'udcli sandbox diff --game') return 0 ;;
    'udcli sandbox diff --save-key') return 0 ;;
    'udcli sandbox snapshot save --db') return 0 ;;
    'udcli sandbox snapshot restore --db') return 0 ;;
    'udcli sandbox stop --port') return 0 ;;
    'udcli sandbox stop --name') return 0 ;;
    'udcli sandbox logs -n'|'udcli sandbox logs --lines') return 0 ;;
    'udcli sandbox logs --status') return 0 ;;
    'udcli sandbox logs --path') return 0 ;;
    'udcli sandbox logs --since') return 0 ;;
    'udcli sandbox logs --port') return 0 ;;
    'udcli sandbox logs --name') return 0 ;;
    'udcli sandbox status --port') return 0 ;;
    'udcli sandbox status --name') return 0 ;;
    'udcli sandbox reset --db') return 0 ;;
    'udcli sandbox reset --seed') return 0 ;;
    'udcli sandbox reset --data') return 0 ;;
    'udcli sandbox clock now --port') return 0 ;;
    'udcli sandbox clock advance --port') return 0 ;;
    'udcli sandbox clock set --port') return 0 ;;
    'udcli sandbox clock reset --port') return 0 ;;
    'udcli sandbox seed --users') return 0 ;;
    'udcli sandbox seed --friends') return 0 ;;
    'udcli sandbox seed --achievements') return 0 ;;
    'udcli sandbox seed --products') return 0 ;;
    'udcli sandbox seed --seed') return 0 ;;
    'udcli sandbox seed --db') return 0 ;;
  esac
  case $2 in
    --profile|-o|--output|--fields|--base-url|--api-key|--timeout|--retries|--har) return 0 ;;
  esac
  return 1
}

_udcli_option_values() {
  case "$1 $2" in
    'udcli achievements defs --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements list --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements list --order') _udcli_words 'started_date completed_date state parent_id percent_complete name'; return ;;
    'udcli achievements list --sort') _udcli_words 'asc desc'; return ;;
    'udcli achievements list --filter') _udcli_words 'parent name percent_complete state parent_id'; return ;;
    'udcli achievements inc --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements inc --journal') _udcli_files; return ;;
    'udcli achievements inc --plan') _udcli_files; return ;;
    'udcli achievements set --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements set --journal') _udcli_files; return ;;
    'udcli achievements set --plan') _udcli_files; return ;;
    'udcli achievements reset --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements reset --journal') _udcli_files; return ;;
    'udcli achievements reset --plan') _udcli_files; return ;;
    'udcli achievements delete --type') _udcli_words 'Game Website'; return ;;
    'udcli achievements delete --journal') _udcli_files; return ;;
    'udcli achievements delete --plan') _udcli_files; return ;;
    'udcli products list --type') _udcli_words 'Game Website'; return ;;
    'udcli products give --type') _udcli_words 'Game Website'; return ;;
    'udcli products give --journal') _udcli_files; return ;;
    'udcli products give --plan') _udcli_files; return ;;
    'udcli products take --type') _udcli_words 'Game Website'; return ;;
    'udcli products take --journal') _udcli_files; return ;;
    'udcli products take --plan') _udcli_files; return ;;
    'udcli saves set --journal') _udcli_files; return ;;
    'udcli saves set --plan') _udcli_files; return ;;
    'udcli saves erase --journal') _udcli_files; return ;;
    'udcli saves erase --plan') _udcli_files; return ;;
    'udcli audit --profile') _udcli_words "$(_udcli_values profiles)"; return ;;
    'udcli profile add --signing-scheme') _udcli_words 'agi hmac-sha256-v1 none'; return ;;
    'udcli profile add --type') _udcli_words 'Game Website'; return ;;
    'udcli sandbox start --db') _udcli_files; return ;;
    'udcli sandbox start --seed') _udcli_words 'demo none'; return ;;
    'udcli sandbox start --data') _udcli_files; return ;;
    'udcli sandbox exec --seed') _udcli_words 'demo none'; return ;;
    'udcli sandbox exec --data') _udcli_files; return ;;
    'udcli sandbox exec --snapshot') _udcli_words "$(_udcli_values snapshots)"; return ;;
    'udcli sandbox exec --log') _udcli_files; return ;;
    'udcli sandbox game set-uri --db') _udcli_files; return ;;
    'udcli sandbox game show --db') _udcli_files; return ;;
    'udcli sandbox load --db') _udcli_files; return ;;
    'udcli sandbox export --db') _udcli_files; return ;;
    'udcli sandbox diff --data') _udcli_files; return ;;
    'udcli sandbox snapshot save --db') _udcli_files; return ;;
    'udcli sandbox snapshot restore --db') _udcli_files; return ;;
    'udcli sandbox reset --db') _udcli_files; return ;;
    'udcli sandbox reset --seed') _udcli_words 'demo none'; return ;;
    'udcli sandbox reset --data') _udcli_files; return ;;
    'udcli sandbox seed --db') _udcli_files; return ;;
  esac
  case $2 in
    --profile) _udcli_words "$(_udcli_values profiles)" ;;
    -o|--output) _udcli_words 'table json ndjson csv' ;;
    --har) _udcli_files ;;
  esac
  return 0
}

_udcli_commands() {
  case $1 in
    'udcli') _udcli_words 'auth user friends achievements products saves api audit approve profile config doctor sandbox completion help' ;;
    'udcli auth') _udcli_words 'verify token help' ;;
    'udcli achievements') _udcli_words 'defs list inc set reset delete help' ;;
    'udcli products') _udcli_words 'list give take help' ;;
    'udcli saves') _udcli_words 'list get set erase help' ;;
    'udcli audit') _udcli_words 'resolve undo' ;;
    'udcli profile') _udcli_words 'add list use show import remove help' ;;
    'udcli config') _udcli_words 'get set unset path help' ;;
    'udcli sandbox') _udcli_words 'start exec play game init schema load export diff import snapshot stop logs status reset clock info seed help' ;;
    'udcli sandbox game') _udcli_words 'set-uri show help' ;;
    'udcli sandbox snapshot') _udcli_words 'save restore list delete help' ;;
    'udcli sandbox clock') _udcli_words 'now advance set reset help' ;;
    *) return 1 ;;
  esac
  return 0
}

_udcli_options() {
  local -a own globals
  globals=(--version --profile -o --output --json --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help)
  case $1 in
    'udcli auth token') own=(--as --cookie --export) ;;
    'udcli user') own=(--username --public) ;;
    'udcli friends') own=(--limit --offset --page --all) ;;
    'udcli achievements defs') own=(--aid --developer-id --type) ;;
    'udcli achievements list') own=(--game --type --developer-id --limit --offset --order --sort --filter --match --all --started) ;;
    'udcli achievements inc') own=(--game --type --by --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli achievements set') own=(--game --type --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli achievements reset') own=(--game --type --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli achievements delete') own=(--game --type --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli products list') own=(--game --type --sku) ;;
    'udcli products give') own=(--game --type --qty --post --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli products take') own=(--game --type --qty --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli saves set') own=(--auth-token --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli saves erase') own=(--auth-token --reason --ticket --concurrency --rate --dry-run --journal --fail-fast --retry-unknown --plan) ;;
    'udcli api') own=(-f --field --sign --dry-run --reason --ticket) ;;
    'udcli audit') own=(--since --user --profile --history --unresolved --run --ticket --operator) ;;
    'udcli audit resolve') own=(--run --ticket --all) ;;
    'udcli audit undo') own=(--run --ticket --out) ;;
    'udcli profile add') own=(--base-url --site-url --api-key --signing-secret --signing-scheme --verb-override --game-id --type --cookie --audit-url --production --require-reason --from-sandbox) ;;
    'udcli doctor') own=(--check-signing) ;;
    'udcli sandbox start') own=(--port --host --db --seed --data --reset --token-ttl --rate-limit --faults --fault-seed --latency --game-dir --game-url --game --no-connect --insecure-game-host --allow-game-dir --detach --name --allow-remote --public-url) ;;
    'udcli sandbox exec') own=(--port --seed --data --snapshot --log --token-ttl --rate-limit --faults --fault-seed --latency --game-dir --game-url --game --no-connect --insecure-game-host --allow-game-dir) ;;
    'udcli sandbox play') own=(--game-dir --game-url --as --no-open --no-connect --insecure-game-host --latency) ;;
    'udcli sandbox game set-uri') own=(--db --json) ;;
    'udcli sandbox game show') own=(--db --json) ;;
    'udcli sandbox init') own=(--force) ;;
    'udcli sandbox load') own=(--db --json) ;;
    'udcli sandbox export') own=(--db --format) ;;
    'udcli sandbox diff') own=(--json --ignore --strict --data --live --game --save-key) ;;
    'udcli sandbox import') own=(--keep-personal --force) ;;
    'udcli sandbox snapshot save') own=(--db) ;;
    'udcli sandbox snapshot restore') own=(--db) ;;
    'udcli sandbox snapshot list') own=(--json) ;;
    'udcli sandbox stop') own=(--port --name --all) ;;
    'udcli sandbox logs') own=(-n --lines -f --follow --status --path --since --challenges --json --port --name) ;;
    'udcli sandbox status') own=(--json --port --name) ;;
    'udcli sandbox reset') own=(--db --seed --data) ;;
    'udcli sandbox clock now') own=(--port --json) ;;
    'udcli sandbox clock advance') own=(--port --json) ;;
    'udcli sandbox clock set') own=(--port --json) ;;
    'udcli sandbox clock reset') own=(--port --json) ;;
    'udcli sandbox info') own=(--json) ;;
    'udcli sandbox seed') own=(--users --friends --achievements --products --seed --db --json) ;;
  esac
  case $1 in
    'udcli audit') globals=(--version -o --output --json --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli profile add') globals=(--version --profile -o --output --json --raw --fields --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox game set-uri') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox game show') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox load') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox diff') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox snapshot list') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox logs') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox status') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox clock now') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox clock advance') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox clock set') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox clock reset') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox info') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
    'udcli sandbox seed') globals=(--version --profile -o --output --raw --fields --base-url --api-key --timeout --retries -v --verbose --no-color -q --quiet -y --yes --har --har-keep-personal -h --help) ;;
  esac
  _udcli_words "${own[*]} ${globals[*]}"
}

_udcli_argument_values() {
  case "$1 $2" in
    'udcli auth help 0') _udcli_words 'verify token' ;;
    'udcli achievements help 0') _udcli_words 'defs list inc set reset delete' ;;
    'udcli products help 0') _udcli_words 'list give take' ;;
    'udcli saves help 0') _udcli_words 'list get set erase' ;;
    'udcli api 0') _udcli_words 'GET POST PUT DELETE' ;;
    'udcli profile use 0') _udcli_words "$(_udcli_values profiles)" ;;
    'udcli profile show 0') _udcli_words "$(_udcli_values profiles)" ;;
    'udcli profile remove 0') _udcli_words "$(_udcli_values profiles)" ;;
    'udcli profile help 0') _udcli_words 'add list use show import remove' ;;
    'udcli config get 0') _udcli_words 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over' ;;
    'udcli config set 0') _udcli_words 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over' ;;
    'udcli config unset 0') _udcli_words 'base_url site_url api_key signing_secret signing_scheme verb_override game_id type cookie production require_reason audit_url operator operator_required operators products_allowed max_quantity max_players ticket_pattern approval_over' ;;
    'udcli config help 0') _udcli_words 'get set unset path' ;;
    'udcli sandbox game help 0') _udcli_words 'set-uri show' ;;
    'udcli sandbox snapshot restore 0') _udcli_words "$(_udcli_values snapshots)" ;;
    'udcli sandbox snapshot delete 0') _udcli_words "$(_udcli_values snapshots)" ;;
    'udcli sandbox snapshot help 0') _udcli_words 'save restore list delete' ;;
    'udcli sandbox clock help 0') _udcli_words 'now advance set reset' ;;
    'udcli sandbox help 0') _udcli_words 'start exec play game init schema load export diff import snapshot stop logs status reset clock info seed' ;;
    'udcli completion 0') _udcli_words 'bash zsh fish' ;;
    'udcli help 0') _udcli_words 'auth user friends achievements products saves api audit approve profile config doctor sandbox completion' ;;
  esac
  return 0
}

_udcli() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
  local cmdpath=udcli nargs=0 skip=0 i w REPLY
  COMPREPLY=()
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=${COMP_WORDS[i]}
    if ((skip)); then
      # --output=json arrives as three words when = is in COMP_WORDBREAKS
      [[ $w == = ]] || skip=0
      continue
    fi
    case $w in
      --) _udcli_files; return 0 ;;
      --*=*) ;;
      -?*) _udcli_takes_value "$cmdpath" "$w" && skip=1 ;;
      *)
        if ((nargs == 0)) && _udcli_sub "$cmdpath" "$w"; then
          cmdpath=$REPLY
        else
          nargs=$((nargs + 1))
        fi
        ;;
    esac
  done
  if ((skip)); then
    [[ $prev == = ]] && prev=${COMP_WORDS[COMP_CWORD-2]}
    [[ $cur == = ]] && cur=
    _udcli_option_values "$cmdpath" "$prev"
    return 0
  fi
  case $cur in
    -*) _udcli_options "$cmdpath"; return 0 ;;
  esac
  if ((nargs == 0)) && _udcli_commands "$cmdpath"; then
    return 0
  fi
  _udcli_argument_values "$cmdpath" "$nargs"
  return 0
}

complete -F _udcli udcli
