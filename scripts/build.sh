#!/usr/bin/env bash
# Configures and builds one build directory with Ninja and ccache, with
# warnings as errors. A new directory is RelWithDebInfo unless the arguments
# say otherwise; the arguments given hold for a directory configured before
# too, since CMake runs every time (it takes about a second).
#   scripts/build.sh DIR [CMAKE_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
shift
if [ ! -f "$dir/build.ninja" ]; then
  set -- -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@"
fi
cmake -S . -B "$dir" -DBRAVEBOT_WERROR=ON "$@" >/dev/null
ninja -C "$dir"
