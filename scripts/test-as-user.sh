#!/usr/bin/env bash
# Runs the confinement tests (the hostile battery, mcp-run, the real servers,
# the supervisor, the gateway) as an unprivileged user, since root changes
# what file permissions alone would stop. The build may sit where that user
# cannot enter, so what it runs is staged under /var/tmp first: not /tmp,
# which below Landlock ABI 9 is hidden from a server but for its own paths
# there, so a scenario's files outside its reach would not be there for
# Landlock to refuse (integration/hostile_fixture.h). Needs root, to make
# the user.
#   scripts/test-as-user.sh [BUILD_DIR]   (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
user=bravebot-ci
if [ "$(id -u)" -ne 0 ]; then
  echo "as-user: skipped: making the unprivileged user $user needs root, and this runs as $(id -un)"
  exit 0
fi
id -u "$user" >/dev/null 2>&1 || useradd --create-home --shell /usr/sbin/nologin "$user"

stage=$(mktemp -d /var/tmp/bravebot-stage-XXXXXX)
trap 'rm -rf "$stage"' EXIT
cp -a "$build/bin" "$stage/bin"
[ -d .peers ] && cp -a .peers "$stage/peers"
cp integration/gateway/agent.mjs "$stage/agent.mjs"
mkdir -p "$stage/source/docs" "$stage/source/integration/fixtures"
cp docs/connecting-*.md "$stage/source/docs/"
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
    TMPDIR="$stage/tmp" sh -c "cd '$stage/tmp' && '$stage/bin/$suite' --gtest_brief=${GTEST_BRIEF:-1} $*" ||
    status=1
}
for suite in bravebot_integration_tests bravebot_landlock_abi9_tests bravebot_servers_tests \
  bravebot_supervisor_tests bravebot_gateway_tests; do
  run_as_user "$suite"
done
# Of the unit tests, those that root would pass for its rights alone: a run
# directory its server closed to its own user is opened only by giving the
# rights back.
run_as_user bravebot_unit_tests "--gtest_filter='RunDirectoryTest.*'"
exit $status
