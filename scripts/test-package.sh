#!/usr/bin/env bash
# Builds the Debian package from a build directory, installs it into this
# machine with dpkg, runs the installed bravebot-mcp (--version, and reach
# --probe on a server declared in a throw-away profile directory), and removes
# the package again. Run as root: scripts/test-package.sh build
set -euo pipefail
build=${1:?usage: scripts/test-package.sh BUILD_DIRECTORY}
build=$(cd "$build" && pwd)
if [ "$(id -u)" -ne 0 ]; then
  echo "test-package: dpkg installs into the system, so run this as root" >&2
  exit 1
fi
if dpkg-query -W -f='${Status}' bravebot-mcp 2>/dev/null | grep -q 'ok installed'; then
  echo "test-package: bravebot-mcp is installed already; remove it first (dpkg -r bravebot-mcp)," \
    "since this test removes what it installed" >&2
  exit 1
fi

nice cmake --build "$build" --target bravebot-mcp mcp-run bravebot-mcp-probe bravebot-mcp-init bravebot-supervisor
packages=$(mktemp -d)
work=$(mktemp -d)
installed=false
finish() {
  if $installed; then dpkg -r bravebot-mcp >/dev/null; fi
  rm -rf "$packages" "$work"
}
trap finish EXIT

(cd "$build" && cpack -G DEB -B "$packages" >/dev/null)
deb=$(find "$packages" -maxdepth 1 -name 'bravebot-mcp_*.deb' | head -n 1)
[ -n "$deb" ] || { echo "test-package: cpack made no bravebot-mcp_*.deb" >&2; exit 1; }
echo "test-package: $(dpkg-deb -f "$deb" Package Version Depends | tr '\n' ' ')"

dpkg -i "$deb" >/dev/null
installed=true
for file in /usr/bin/bravebot-mcp /usr/bin/mcp-run /usr/bin/bravebot-mcp-probe /usr/bin/bravebot-mcp-init \
  /usr/share/bash-completion/completions/bravebot-mcp /usr/share/zsh/vendor-completions/_bravebot-mcp \
  /usr/share/fish/vendor_completions.d/bravebot-mcp.fish /usr/share/fish/vendor_completions.d/mcp-run.fish \
  /usr/share/doc/bravebot-mcp/README.md; do
  dpkg -S "$file" >/dev/null || { echo "test-package: the package does not hold $file" >&2; exit 1; }
done

# The installed copy, in a profile directory of its own, with nothing of
# this checkout on PATH.
run() { (cd "$work" && env -i HOME="$work" BRAVEBOT_HOME="$work/profile" PATH=/usr/bin:/bin "$@"); }
run /usr/bin/bravebot-mcp --version
run /usr/bin/bravebot-mcp add cat -- /bin/cat >/dev/null
run /usr/bin/bravebot-mcp reach cat --probe
echo "test-package: the installed bravebot-mcp ran, and its probe agreed with the reach"
