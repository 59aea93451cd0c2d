#!/usr/bin/env bash
# Installs the real MCP servers and clients the integration tests run, from
# the npm registry, into .peers/ (git-ignored), as a package manager installs
# them for a person: a prefix with bin/ and lib/node_modules. Does nothing
# when they are there already.
#   scripts/install-peers.sh [PREFIX]   (default .peers)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-.peers}
servers=(
  @modelcontextprotocol/server-everything@2026.8.31
  @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-memory@2026.8.31
)
if [ -x "$prefix/bin/mcp-server-everything" ] && [ -x "$prefix/bin/mcp-server-filesystem" ] &&
  [ -x "$prefix/bin/mcp-server-memory" ] && [ -d "$prefix/client/node_modules/@modelcontextprotocol/sdk" ]; then
  echo "peers: installed in $prefix"
  exit 0
fi
command -v npm >/dev/null || { echo "peers: npm is missing: scripts/setup.sh installs it" >&2; exit 1; }
echo "peers: installing ${servers[*]} into $prefix"
npm install --silent --no-fund --no-audit -g --prefix "$prefix" "${servers[@]}" >/dev/null
# The SDK's client, beside the scripts that use it (ES modules do not read NODE_PATH).
mkdir -p "$prefix/client"
npm install --silent --no-fund --no-audit --prefix "$prefix/client" @modelcontextprotocol/sdk@1.32.2 >/dev/null
echo "peers: installed"
