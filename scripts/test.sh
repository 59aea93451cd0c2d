#!/usr/bin/env bash
# Everything CI checks, from a fresh Debian 12 machine: installs what is
# missing, checks formatting, builds and runs every test, runs the unit and
# integration tests again under AddressSanitizer and UndefinedBehaviorSanitizer,
# and runs each fuzzer for a bounded time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh
scripts/check-format.sh

echo "== build and test"
scripts/build.sh build
ctest --test-dir build --output-on-failure -j2

echo "== address and undefined-behaviour sanitizers"
scripts/build.sh build-asan -DBRAVEBOT_SANITIZE=ON -DBRAVEBOT_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan --output-on-failure -j2 -L 'unit|integration'

echo "== fuzzers"
scripts/fuzz.sh "${FUZZ_SECONDS:-60}"

echo "== every check passed"
