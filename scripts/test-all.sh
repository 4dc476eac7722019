#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing (npm packages; Debian Chromium,
# Node 24 and code-server for the editor tests), builds, then runs unit, process and editor tests.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
bash scripts/editor/install-code-server.sh
# One closing line for CI ("N passed, N failed") summed over the mocha runs, whose own lines say "passing".
log=$(mktemp)
set +e
npm test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# (grep finds nothing on a clean run: `|| true` keeps pipefail from ending the script there)
passed=$( { grep -aoE '^ *[0-9]+ passing' "$log" || true; } | awk '{s+=$1} END {print s+0}')
failed=$( { grep -aoE '^ *[0-9]+ failing' "$log" || true; } | awk '{s+=$1} END {print s+0}')
rm -f "$log"
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
echo "tests: $passed passed, $failed failed"
exit "$status"
