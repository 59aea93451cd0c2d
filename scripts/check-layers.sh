#!/usr/bin/env bash
# Fails, naming each include, when a part of the project includes a part above
# it. From the bottom: base, confine, profiles, launcher, then the supervisor's
# store, policy, mcp (the wire), tools (lists and calls, decided), servers
# and session, then cli. mcp/ sits beside store/ and policy/, knowing no
# file: neither it nor they include the other; tools/ knows the store's
# files and no process. launcher/ applies a plan and knows no reach: it includes the plan
# types of profiles/ (landlock_rules.h, seccomp_filter.h), never confine/.
set -euo pipefail
cd "$(dirname "$0")/.."
# Each layer, and the layers it must not include.
declare -A forbidden=(
  [base]="confine profiles launcher supervisor cli"
  [confine]="profiles launcher supervisor cli"
  [profiles]="launcher supervisor cli"
  [launcher]="confine supervisor cli"
  [supervisor/store]="supervisor/policy supervisor/mcp supervisor/tools supervisor/servers supervisor/session cli"
  [supervisor/policy]="supervisor/mcp supervisor/servers supervisor/session cli"
  [supervisor/mcp]="supervisor/store supervisor/policy supervisor/servers supervisor/session launcher cli"
  [supervisor/tools]="supervisor/mcp supervisor/servers supervisor/session cli"
  [supervisor/servers]="supervisor/session cli"
  [supervisor/session]="cli"
)
broken=()
for layer in "${!forbidden[@]}"; do
  for above in ${forbidden[$layer]}; do
    while IFS= read -r hit; do
      [ -n "$hit" ] && broken+=("$hit")
    done < <(git grep -n "#include \"$above/" -- "$layer/*.h" "$layer/*.cc" || true)
  done
done
if [ ${#broken[@]} -ne 0 ]; then
  printf 'layers: an include reaches up:\n' >&2
  printf '  %s\n' "${broken[@]}" >&2
  exit 1
fi
echo "layers: every include reaches down"
