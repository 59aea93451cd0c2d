#!/usr/bin/env bash
# Installs the real MCP servers and clients the integration tests run, from
# the npm registry, into .peers/ (git-ignored), as a package manager installs
# them for a person: a prefix with bin/ and lib/node_modules. Does nothing
# when they are there already; installs only what is missing otherwise.
#   scripts/install-peers.sh [PREFIX]   (default .peers)
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${1:-.peers}
servers=(
  @modelcontextprotocol/server-everything@2026.8.31
  @modelcontextprotocol/server-filesystem@2026.8.31
  @modelcontextprotocol/server-memory@2026.8.31
)
sdk=@modelcontextprotocol/sdk@1.32.2
# 0.15.0 is the last inspector that runs on Node 20 (later ones need Node 22).
inspector=@modelcontextprotocol/inspector@0.15.0

servers_there() {
  [ -x "$prefix/bin/mcp-server-everything" ] && [ -x "$prefix/bin/mcp-server-filesystem" ] &&
    [ -x "$prefix/bin/mcp-server-memory" ]
}
sdk_there() { [ -d "$prefix/client/node_modules/@modelcontextprotocol/sdk" ]; }
# The inspector's own bin link, and the version asked for: an older or newer
# one left by an earlier install is replaced.
inspector_there() {
  [ -x "$prefix/inspector/node_modules/.bin/mcp-inspector" ] &&
    grep -q '"version": "0.15.0"' \
      "$prefix/inspector/node_modules/@modelcontextprotocol/inspector/package.json" 2>/dev/null
}

if servers_there && sdk_there && inspector_there; then
  echo "peers: installed in $prefix"
  exit 0
fi
command -v npm >/dev/null || { echo "peers: npm is missing: scripts/setup.sh installs it" >&2; exit 1; }
npm_install() { npm install --silent --no-fund --no-audit "$@" >/dev/null; }
if ! servers_there; then
  echo "peers: installing ${servers[*]} into $prefix"
  npm_install -g --prefix "$prefix" "${servers[@]}"
fi
# The SDK's client, beside the scripts that use it (ES modules do not read NODE_PATH).
if ! sdk_there; then
  echo "peers: installing $sdk into $prefix/client"
  mkdir -p "$prefix/client"
  npm_install --prefix "$prefix/client" "$sdk"
fi
# The inspector in a folder of its own, so that its dependencies (an SDK of
# its own among them) leave the client's alone; run it from there with
# `npx --no-install @modelcontextprotocol/inspector --cli ...`.
if ! inspector_there; then
  echo "peers: installing $inspector into $prefix/inspector"
  mkdir -p "$prefix/inspector"
  npm_install --prefix "$prefix/inspector" "$inspector"
fi
echo "peers: installed"
