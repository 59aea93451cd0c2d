#!/usr/bin/env bash
# Everything CI checks, from a fresh Debian 12 machine: installs what is
# missing (Debian packages, and the real MCP servers from the npm registry),
# checks formatting and that each layer includes only those below it, builds,
# checks the layers' links and the installed programs' hardening, runs
# clang-tidy on the files changed lately, runs every test as root, installs
# the Debian package and runs it, runs the confinement tests again as an
# unprivileged user, runs the unit and integration tests built by clang under
# AddressSanitizer and UndefinedBehaviorSanitizer, and runs each fuzzer for a
# bounded time; meanwhile, from the Release build's tests on, the kernel
# matrix: the tests that hang on the kernel's Landlock ABI, under other
# kernels in QEMU, at a lower priority (docs/kernels.md). Each part says
# when it began.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
matrix_log=$(mktemp)
matrix_pid=''
# The matrix runs in a process group of its own, ended whole (QEMU and all)
# where this ends first.
trap 'rm -f "$log" "$matrix_log"; [ -z "$matrix_pid" ] || kill -- -"$matrix_pid" 2>/dev/null || true' EXIT
part() { echo "== $* (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

scripts/setup.sh
scripts/check-format.sh
scripts/check-layers.sh
scripts/install-peers.sh

# The main build is Release, as a package would be built: GCC's warnings
# depend on the optimizer (-O3 finds what -O2 does not), and the tests run
# against what ships. One build, so CI takes no longer.
part "build (Release) and test, as $(id -un)"
scripts/build.sh build -DCMAKE_BUILD_TYPE=Release
scripts/check-layers.sh build
scripts/check-hardening.sh build
# clang-tidy on the files changed in the last twenty commits (fewer in a
# shallow clone; the script says which), with the Release build's commands.
scripts/check-tidy.sh build
ctest --test-dir build --output-on-failure -j2 | tee -a "$log"

# The kernel matrix reads the Release build's programs as they are, so
# nothing builds in build/ from here on. It needs root (QEMU, virtiofsd).
# KERNEL_MATRIX=no leaves it out, for a quicker run that says so.
if [ "$(id -u)" -ne 0 ] || [ "${KERNEL_MATRIX:-yes}" = no ]; then
  echo "kernel matrix: skipped: $([ "$(id -u)" -ne 0 ] && echo "it needs root" || echo "KERNEL_MATRIX=no")"
else
  part "the kernel matrix starts, beside what follows"
  setsid scripts/test-kernel-matrix.sh build >"$matrix_log" 2>&1 &
  matrix_pid=$!
fi

part "the Debian package, installed and run"
if [ "$(id -u)" -eq 0 ]; then
  scripts/test-package.sh build
else
  echo "package: skipped: installing it needs root, and this runs as $(id -un)"
fi

part "the confinement tests as an unprivileged user"
scripts/test-as-user.sh build | tee -a "$log"

# The fuzzers' build is clang's, with AddressSanitizer and
# UndefinedBehaviorSanitizer on every library: the tests run under it too, so
# CI builds twice, not three times.
part "address and undefined-behaviour sanitizers (clang)"
CC=clang CXX=clang++ scripts/build.sh build-fuzz -DBRAVEBOT_FUZZ=ON -DBRAVEBOT_BENCH=OFF
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-fuzz --output-on-failure -j2 -LE network | tee -a "$log"

part "fuzzers"
scripts/fuzz.sh "${FUZZ_SECONDS:-45}"

if [ -n "$matrix_pid" ]; then
  part "the kernel matrix, waited for"
  matrix_status=0
  wait "$matrix_pid" || matrix_status=$?
  matrix_pid=''
  tee -a "$log" <"$matrix_log"
  [ "$matrix_status" -eq 0 ] || { echo "the kernel matrix failed (above)"; exit 1; }
fi

# One line for every test run above: ctest's and googletest's own counts.
passed=$(grep -oE '[0-9]+ tests failed out of [0-9]+' "$log" |
  awk '{failed += $1; total += $6} END {print total - failed}')
passed_as_user=$(grep -oE '^\[  PASSED  \] [0-9]+ test' "$log" | awk '{sum += $4} END {print sum + 0}')
part "every check passed"
echo "$((passed + passed_as_user)) passed, 0 failed"
