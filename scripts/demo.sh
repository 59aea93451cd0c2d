#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: installs what is missing,
# builds, and declares a server in a throw-away profile directory, then lists
# and shows it.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh >/dev/null
scripts/build.sh build >/dev/null
bravebot_mcp=$PWD/build/bin/bravebot-mcp

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
export BRAVEBOT_HOME=$profile/.bravebot

run() {
  echo "\$ bravebot-mcp $*"
  "$bravebot_mcp" "$@"
  echo
}
run add everything -e LOG_LEVEL=debug -- npx -y @modelcontextprotocol/server-everything@2026.8.31
run add docs --http https://mcp.example.com/mcp
run list
run get everything
