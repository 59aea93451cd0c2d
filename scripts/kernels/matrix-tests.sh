#!/usr/bin/env bash
# The tests .ci/run runs under each row of the kernel matrix
# (scripts/test-kernels.sh, docs/kernels.md), as root and then as an
# unprivileged user: those whose outcome hangs on the kernel's Landlock ABI,
# or on whether there is Landlock at all. Not the whole battery: under
# QEMU's emulation it takes some 10 minutes a row and a user, which CI has
# no room for; docs/kernels.md has the whole battery's results, row by row.
#   scripts/kernels/matrix-tests.sh [BUILD_DIR]   (default build; as root, in the guest)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}

# A probe for each right Landlock added, ABI by ABI, and what must work
# beside them: reading and writing outside the reach, running a program
# there (ABI 1); renaming across (ABI 2, REFER); truncating (ABI 3); a
# terminal's ioctl (ABI 5); an abstract socket and a signal out of the
# domain (ABI 6, scoping); pathname sockets (ABI 9). Each expects, row by
# row, the refusal its ABI promises from the layer that promises it
# (integration/hostile_test.cc), and bubblewrap's column where there is no
# Landlock.
probes=(
  ReadingAFileOutsideTheReachIsRefused WritingAFileOutsideTheReachIsRefused
  RunningAProgramOutsideTheReachIsRefused RenamingAFileOutOfItsHomeIsRefused
  TruncatingAFileOutsideIsRefused InjectingTerminalInputIsRefused
  ConnectingToAnAbstractSocketOutsideIsRefused SignallingTheParentIsRefused
  ConnectingToAPathnameSocketInTmpIsRefused ConnectingToAPathnameSocketOutsideTheUsualPlacesIsRefused
  WritingItsHomeTemporaryAndWorkingDirectoriesWorks InternetSocketsWork
)
hostile=$(printf 'HostileTest.%s:' "${probes[@]}")
# Each SUITE=FILTER: the probes, the namespace probe, reach --probe of a
# real server (server-everything from .peers/) under whichever backend the
# row chooses and of a plain one under bubblewrap; the ABI-9 socket tests;
# a confined server-everything started, called and stopped by the
# supervisor.
chosen=(
  "bravebot_integration_tests=${hostile}NamespaceProbeTest.*:ReachTest.TheProbeOfARealServerAgreesWithTheReach:ReachTest.UnderBubblewrapTheProbeAgreesWithTheReach"
  "bravebot_landlock_abi9_tests=*"
  "bravebot_supervisor_tests=SupervisorTest.ASessionWithServerEverythingDoesAllOfIt"
)

if [ ! -f /run/kernel-test/settings ]; then
  echo "matrix-tests: runs in a guest of scripts/test-kernels.sh, which it mounts in; not here" >&2
  exit 2
fi
# Under QEMU's emulation a program starts 5 to 20 times slower than on the
# host: every wait of the tests is given 8 times the room (integration/
# running_command.h). More room changes no test's meaning.
export BRAVEBOT_TEST_SLOWNESS=8
# The real servers, for the user, where it can reach them whatever folder
# the checkout is in: mounted again on a path of their own, in the guest's
# throw-away layer.
mkdir -p /var/tmp/kernel-peers
mount --bind .peers /var/tmp/kernel-peers
export BRAVEBOT_AS_USER_PEERS=/var/tmp/kernel-peers

status=0
for pair in "${chosen[@]}"; do
  echo "matrix: ${pair%%=*} as $(id -un)"
  "$build/bin/${pair%%=*}" --gtest_brief=1 "--gtest_filter=${pair#*=}" || status=1
done
scripts/test-as-user.sh "$build" "${chosen[@]}" || status=1
exit $status
