#!/usr/bin/env bash
# Installs what building and testing bravebot-mcp needs on Debian 12, and
# nothing when it is all there already. Uses sudo only when not root.
set -euo pipefail

packages=(
  cmake ninja-build ccache g++ clang libclang-rt-14-dev clang-format pkg-config git
  # check-tidy.sh runs clang-tidy; check-hardening.sh reads the programs with readelf.
  clang-tidy binutils
  nettle-dev nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libbenchmark-dev
  libseccomp-dev libcap-dev libboost1.81-dev libcurl4-openssl-dev libtomlplusplus-dev bubblewrap
  # The sign-in tests' browser ($BROWSER) follows the authorization url with curl.
  curl
  # validate-protocol.py checks the supervisor's messages against its JSON Schema.
  python3-jsonschema
  # The zsh and fish completions are run in those shells by the tests.
  zsh fish
)

# Node.js runs the real MCP servers the tests start; a machine may have its own.
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: every package is installed"
  exit 0
fi

as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root, or install sudo" >&2; exit 1; }
  as_root=(sudo)
fi
echo "setup: installing ${missing[*]}"
"${as_root[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
echo "setup: installed ${#missing[@]} packages"
