#!/usr/bin/env bash
# The main job, from a fresh Debian 12 machine: installs what is missing,
# builds, installs a real MCP server from the npm registry into .peers/,
# declares it in a throw-away profile directory, shows what it may reach, and
# runs it confined with mcp-run, which lists its tools.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh >/dev/null
scripts/build.sh build >/dev/null
scripts/install-peers.sh >/dev/null
bin=$PWD/build/bin

profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
export BRAVEBOT_HOME=$profile/.bravebot

run() {
  echo "\$ $*"
  "$bin/$@"
  echo
}
run bravebot-mcp add everything -e "PATH=$PWD/.peers/bin:/usr/bin:/bin" -- mcp-server-everything
run bravebot-mcp reach everything --probe
run mcp-run everything
