#!/usr/bin/env bash
# Installs the agents' real CLIs (pinned) into .agent-clis/ (git-ignored) for test/agents/.
# Each binary ships inside its npm package; nothing else is downloaded. Safe to run again: a complete install is kept.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DEST="${AGENT_CLIS_DIR:-$ROOT/.agent-clis}"
PACKAGES=(
  "@anthropic-ai/claude-code@2.1.197"
  "@openai/codex@0.169.0"
  "@github/copilot@1.0.102"
  "@google/gemini-cli@0.61.0"
  "opencode-ai@1.18.33"
)
STAMP="$DEST/installed.txt"
WANT="$(printf '%s\n' "${PACKAGES[@]}")"
if [[ -f "$STAMP" && "$(cat "$STAMP")" == "$WANT" ]]; then
  echo "agent CLIs already installed in $DEST"
  exit 0
fi
mkdir -p "$DEST"
[[ -f "$DEST/package.json" ]] || echo '{ "name": "agent-clis", "private": true }' > "$DEST/package.json"
npm install --prefix "$DEST" --no-audit --no-fund --loglevel=error "${PACKAGES[@]}"
printf '%s\n' "$WANT" > "$STAMP"
echo "agent CLIs installed in $DEST:"
ls "$DEST/node_modules/.bin"
