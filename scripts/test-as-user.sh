#!/usr/bin/env bash
# Runs the confinement tests (the hostile battery, mcp-run, the real servers,
# the supervisor, the gateway) as an unprivileged user, since root changes
# what file permissions alone would stop. The build may sit where that user
# cannot enter, so what it runs is staged under /var/tmp first: not /tmp,
# which below Landlock ABI 9 is hidden from a server but for its own paths
# there, so a scenario's files outside its reach would not be there for
# Landlock to refuse (integration/hostile_fixture.h). Needs root, to make
# the user.
#   scripts/test-as-user.sh [BUILD_DIR [SUITE=FILTER...]]   (default build)
# With SUITE=FILTER arguments, only those: each test program of BUILD_DIR/bin
# with its googletest filter (scripts/kernels/matrix-tests.sh's choice).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
shift $(($# > 0 ? 1 : 0))
user=bravebot-ci
if [ "$(id -u)" -ne 0 ]; then
  echo "as-user: skipped: making the unprivileged user $user needs root, and this runs as $(id -un)"
  exit 0
fi
id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /usr/sbin/nologin "$user"

stage=$(mktemp -d /var/tmp/bravebot-stage-XXXXXX)
trap 'rm -rf "$stage"' EXIT
cp -a "$build/bin" "$stage/bin"
# BRAVEBOT_AS_USER_PEERS: the real servers where the user can already read
# them, used in place (the kernel matrix's guest, whose copy of them would
# pass tens of thousands of files through virtiofs).
if [ -n "${BRAVEBOT_AS_USER_PEERS:-}" ]; then
  ln -s "$BRAVEBOT_AS_USER_PEERS" "$stage/peers"
elif [ -d .peers ]; then
  cp -a .peers "$stage/peers"
fi
cp integration/gateway/agent.mjs "$stage/agent.mjs"
mkdir -p "$stage/source/docs" "$stage/source/integration/fixtures" "$stage/source/scripts"
cp docs/connecting-*.md docs/audit.schema.json "$stage/source/docs/"
cp scripts/validate-json.py "$stage/source/scripts/"
cp -r integration/fixtures/tool_lists "$stage/source/integration/fixtures/"
chmod -R a+rX "$stage"
chmod 755 "$stage"
mkdir "$stage/tmp"
chown "$user" "$stage/tmp"

status=0
# Runs test program $1 as the user, with its further arguments.
run_as_user() {
  local suite=$1
  shift
  echo "as-user: $suite $* as $user"
  runuser -u "$user" -- env -i HOME="$(getent passwd "$user" | cut -d: -f6)" PATH=/usr/bin:/bin \
    BRAVEBOT_BIN="$stage/bin" BRAVEBOT_PEERS="$stage/peers" BRAVEBOT_TEST_TMPDIR="$stage/tmp" \
    BRAVEBOT_AGENT_SCRIPT="$stage/agent.mjs" BRAVEBOT_PAGES_SOURCE="$stage/source" \
    BRAVEBOT_TEST_SLOWNESS="${BRAVEBOT_TEST_SLOWNESS:-1}" \
    TMPDIR="$stage/tmp" sh -c "cd '$stage/tmp' && '$stage/bin/$suite' --gtest_brief=${GTEST_BRIEF:-1} $*" ||
    status=1
}
if [ $# -gt 0 ]; then
  for chosen in "$@"; do run_as_user "${chosen%%=*}" "--gtest_filter='${chosen#*=}'"; done
  exit $status
fi
for suite in bravebot_integration_tests bravebot_landlock_abi9_tests bravebot_servers_tests \
  bravebot_supervisor_tests bravebot_gateway_tests; do
  run_as_user "$suite"
done
# Of the unit tests, those that root would pass for its rights alone: a run
# directory its server closed to its own user is opened only by giving the
# rights back.
run_as_user bravebot_unit_tests "--gtest_filter='RunDirectoryTest.*'"
exit $status
