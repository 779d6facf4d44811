#!/usr/bin/env bash
# Schemathesis (PyPI) against the sandbox's served OpenAPI description: a bounded, seeded run on
# loopback, failing on a server error or a reply that breaks the description. Schemathesis comes
# from PyPI; a machine that cannot reach it (this project's own CI has only the npm registry and
# Debian's packages) skips the run and says so: the seeded fuzz test in
# test/sandbox/openapi.test.ts, which `npm test` runs, is its stand-in there.
set -uo pipefail
cd "$(dirname "$0")/.."
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
if ! { python3 -m venv "$venv" >/dev/null 2>&1 && timeout 120 "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis>=3.30,<4' >/dev/null 2>&1; }; then
  echo "schemathesis: not installable here (PyPI unreachable?): skipped; test/sandbox/openapi.test.ts's seeded fuzz run stands in"
  exit 0
fi
set -e
echo "schemathesis $("$venv/bin/st" --version 2>/dev/null | tail -1) against a throw-away sandbox"
# Loopback only: the sandbox listens on 127.0.0.1 on a free port, over a temporary database.
node bin/udcli.js sandbox exec -- sh -c '
  exec "$0/bin/st" run "$UDCLI_BASE_URL/openapi.json" --base-url "$UDCLI_BASE_URL" \
    --checks not_a_server_error --checks status_code_conformance --checks content_type_conformance \
    --checks response_schema_conformance --hypothesis-max-examples 25 --hypothesis-seed 1101 \
    --hypothesis-deadline None --request-timeout 5000' "$venv"
