#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs what is missing (npm packages; Debian Chromium,
# Node 24 and code-server for the editor tests), builds, then runs unit, process and editor tests.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
bash scripts/editor/install-code-server.sh
npm test
