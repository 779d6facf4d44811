#!/usr/bin/env bash
# Schemathesis 4 against the sandbox's served OpenAPI description: a bounded, seeded run on
# loopback (examples, coverage, fuzzing and stateful phases, valid and invalid data), failing on a
# server error or a reply that breaks the description (status, content type, headers, body), on
# invalid data accepted, and on a verb outside the description not answered 405 with a true Allow.
# Left out: positive_data_acceptance (some rules are stated in words, not schema: `filter` needs
# `match`, aliases exclude each other) and ignored_auth (the config's demo keys are valid ones).
#
# Which Schemathesis: $SCHEMATHESIS (the path of its `st` command) if set, else `st` on PATH,
# else a temporary venv from PyPI. A machine that has none of them (this project's CI reaches only
# the npm registry and Debian's packages, and Debian has no schemathesis) skips the run and says
# so (checked 2026-11-25: `pip download schemathesis` finds no index): the seeded fuzz test in
# test/sandbox/openapi.test.ts and the fast-check property tests (test/sandbox/fuzz-requests.test.ts,
# test/sandbox/data-prescan.test.ts), which `npm test` runs, stand in.
# scripts/schemathesis.toml gives it the sandbox's demo keys and users.
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

st="${SCHEMATHESIS:-}"
if [ -z "$st" ] && command -v st >/dev/null 2>&1 && st --version 2>/dev/null | grep -q schemathesis; then st="$(command -v st)"; fi
if [ -z "$st" ]; then
  if python3 -m venv "$work/venv" >/dev/null 2>&1 &&
    timeout 180 "$work/venv/bin/pip" install --quiet --disable-pip-version-check --retries 0 --timeout 10 'schemathesis>=4.25,<5' >/dev/null 2>&1; then
    st="$work/venv/bin/st"
  else
    echo "schemathesis: not installable here (PyPI unreachable, and none on PATH or in \$SCHEMATHESIS): skipped; test/sandbox/openapi.test.ts's seeded fuzz run and the fast-check property tests stand in"
    exit 0
  fi
fi
set -e
echo "$("$st" --version) against a throw-away sandbox"
# Loopback only: the sandbox listens on 127.0.0.1 on a free port, over a temporary database.
# Run from the temporary folder: Schemathesis keeps its state in ./.schemathesis.
cd "$work"
node "$root/bin/udcli.js" sandbox exec -- sh -c '
  exec "$0" --config-file "$1" run "$UDCLI_BASE_URL/openapi.json" --url "$UDCLI_BASE_URL" --workers 1 \
    --checks all --exclude-checks positive_data_acceptance,ignored_auth \
    --max-examples 25 --seed 1101 --request-timeout 5 --generation-database none --no-color' \
  "$st" "$root/scripts/schemathesis.toml"
