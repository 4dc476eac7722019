#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing (npm packages; Debian Chromium,
# Node 24 and code-server for the editor tests; the agents' CLIs for test/agents), builds, lints and checks formatting, then runs unit, process, editor and agent tests.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
bash scripts/editor/install-code-server.sh
# The sync tests' test network: hosts in network namespaces (iproute2) around a git daemon (in Debian's git package).
command -v ip >/dev/null || { apt-get update -y </dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y iproute2 </dev/null; }
# One closing line for CI ("N passed, N failed") summed over the mocha runs, whose own lines say "passing".
log=$(mktemp)
run() { "$@" 2>&1 | tee -a "$log"; return "${PIPESTATUS[0]}"; }
# `npm test` (build, compile, unit and process tests, editor tests) with the static checks between the build and the
# tests: lint (eslint) and formatting (prettier). A failed check fails the run and counts as one failure in the closing
# line, but the tests still run, so one run reports everything.
checks=0
set +e
run npm run build && run npm run compile
status=$?
if [ "$status" -eq 0 ]; then
  run npm run lint || { status=1; checks=$((checks + 1)); echo "lint: the findings above fail the run (npm run lint)"; }
  run npm run format:check || { status=1; checks=$((checks + 1)); echo "format: the files above are not formatted (npm run format)"; }
  # Each tier runs even when an earlier one failed, so one run reports everything; each one's run time is printed
  # after it and again at the end.
  times=""
  for tier in test:architecture test:unit test:process test:editor test:agents; do
    started=$SECONDS
    run npm run "$tier"
    tests=$?
    took=$((SECONDS - started))
    echo "time: $tier took ${took}s"
    times="$times $tier=${took}s"
    if [ "$tests" -ne 0 ]; then status=$tests; fi
  done
fi
set -e
# (grep finds nothing on a clean run: `|| true` keeps pipefail from ending the script there)
passed=$( { grep -aoE '^ *[0-9]+ passing' "$log" || true; } | awk '{s+=$1} END {print s+0}')
failed=$( { grep -aoE '^ *[0-9]+ failing' "$log" || true; } | awk '{s+=$1} END {print s+0}')
# CI shows only the run's last lines: the failures of every tier (mocha's numbered list after "N failing", its
# first 60 lines each) are printed again here, so they are among them.
if [ "$failed" -gt 0 ]; then
  echo "== the failures again (each tier's list, cut at 60 lines):"
  awk '/^ *[0-9]+ failing/ {n = 60} n > 0 {print; n--}' "$log"
fi
rm -f "$log"
failed=$((failed + checks))
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed"
[ -n "${times:-}" ] && echo "time per tier:$times"
exit "$status"
