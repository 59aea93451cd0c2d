#!/usr/bin/env bash
# The kernel matrix (issue 27; docs/kernels.md): the tests whose outcome hangs
# on the kernel's Landlock ABI (scripts/kernels/matrix-tests.sh), as root and
# as an unprivileged user, under each row of scripts/test-kernels.sh in turn:
# ABI 11, ABI 6, no Landlock (where the bubblewrap backend must be chosen by
# itself), and this machine's own kernel where /boot holds its image (where
# it does not, this machine's own run of the tests is that row). Exits 1
# where any row failed, after running them all. Run as root, after a build.
#   scripts/test-kernel-matrix.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
status=0
for row in abi11 abi6 none host; do
  echo "== kernel matrix: $row"
  if [ "$row" = host ] && [ ! -r "/boot/vmlinuz-$(uname -r)" ]; then
    echo "kernel matrix: host skipped: no image of this machine's kernel in /boot; its own run is that row"
    continue
  fi
  started=$SECONDS
  if scripts/test-kernels.sh "$row" -- scripts/kernels/matrix-tests.sh "$build"; then
    echo "kernel matrix: $row passed in $((SECONDS - started)) s"
  else
    echo "kernel matrix: $row FAILED in $((SECONDS - started)) s"
    status=1
  fi
done
exit $status
