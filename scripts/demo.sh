#!/usr/bin/env bash
# Opens AgentSync in a real VS Code in the browser, on a demo workspace with a few handoffs.
# Prints the address to open; stops by itself after --minutes (default 120) or on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules ] && [ node_modules/.package-lock.json -nt package-lock.json ] || npm ci --no-audit --no-fund
bash scripts/editor/install-code-server.sh
npm run build
exec node scripts/editor/serve-demo.mjs "$@"
