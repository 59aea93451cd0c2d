#!/usr/bin/env bash
# Runs clang-tidy (the checks of .clang-tidy, every finding an error) on the
# C++ files changed since a base commit, with the compile commands of a build
# directory, two at a time:
#   scripts/check-tidy.sh [BUILD_DIR]            (default build)
# The base is $BRAVEBOT_TIDY_BASE where set (a commit, or "all" for every
# file); else HEAD~20, the last twenty commits, which covers a branch's work
# and CI's clean clone of main alike. Files changed and not yet committed are
# checked too. Where HEAD~20 is missing:
#   - in a shallow clone, the base is the oldest commit the clone holds (each
#     one, where merges cut it in several places): the files changed in the
#     commits after it are checked. A clone of depth 1 holds no change at all,
#     so only the files not yet committed are checked, and the script says so
#     (fetch more history, git fetch --deepen=20, to check the last commits);
#   - in a full clone with fewer than twenty-one commits, every file is.
# A base set in $BRAVEBOT_TIDY_BASE and missing is an error.
# A changed .cc is checked with its own findings; a changed header through
# its .cc (or the first compiled file including it, directly or through a few
# other headers), with that header's findings.
# Files the build does not compile (the fuzzers' outside a fuzzing build) are
# named and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tidy=$(command -v clang-tidy-14 || command -v clang-tidy || true)
if [ -z "$tidy" ]; then
  echo "check-tidy: clang-tidy is needed (Debian package clang-tidy)" >&2
  exit 1
fi
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check-tidy: $build/compile_commands.json is missing; configure $build with CMake first" >&2
  exit 1
fi

base=${BRAVEBOT_TIDY_BASE:-HEAD~20}
bases=("$base")
if [ "$base" != all ] && ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  if [ -n "${BRAVEBOT_TIDY_BASE:-}" ]; then
    echo "check-tidy: BRAVEBOT_TIDY_BASE=$base names no commit here" >&2
    exit 1
  fi
  if [ "$(git rev-parse --is-shallow-repository)" = true ]; then
    # The clone's oldest commits are those whose parents it lacks.
    mapfile -t bases < <(git rev-list --max-parents=0 HEAD)
    base="the oldest commits this shallow clone holds ($(printf '%.12s\n' "${bases[@]}" | paste -sd ' '))"
    if [ "$(git rev-list --count HEAD)" -eq 1 ]; then
      echo "check-tidy: this clone holds one commit, whose changes cannot be seen:" \
        "only the files not yet committed are checked (git fetch --deepen=20 for more)"
    fi
  else
    echo "check-tidy: fewer than twenty-one commits here: checking every file"
    base=all
  fi
fi
if [ "$base" = all ]; then
  changed=$(git ls-files -- '*.cc' '*.h')
else
  changed=$( (for commit in "${bases[@]}"; do
    git diff --name-only --diff-filter=d "$commit" -- '*.cc' '*.h'
  done
    git ls-files --others --exclude-standard -- '*.cc' '*.h') | sort -u)
fi

# Each changed file's translation unit, and the headers whose findings count.
compiled=$(python3 -c 'import json, os, sys
for entry in json.load(open(sys.argv[1])):
    print(os.path.relpath(os.path.join(entry["directory"], entry["file"])))' \
  "$build/compile_commands.json" | sort -u)
# A compiled .cc that includes the header, directly or through up to three
# other headers (many are included only by their module's own header).
unit_including() {
  local -a includers=("$1") patterns
  local level unit
  for level in 1 2 3 4; do
    mapfile -t patterns < <(printf -- '-e\n#include "%s"\n' "${includers[@]}")
    unit=$(git grep -lF "${patterns[@]}" -- '*.cc' | grep -xF -f <(echo "$compiled") | head -n 1 || true)
    if [ -n "$unit" ]; then
      echo "$unit"
      return
    fi
    mapfile -t includers < <(git grep -lF "${patterns[@]}" -- '*.h' || true)
    [ ${#includers[@]} -ne 0 ] || return 0
  done
}
units=()
headers=()
skipped=()
for file in $changed; do
  case $file in
    *.h)
      headers+=("$file")
      unit=${file%.h}.cc
      if ! grep -qxF "$unit" <<<"$compiled"; then
        unit=$(unit_including "$file")
      fi
      ;;
    *) unit=$file ;;
  esac
  if [ -n "$unit" ] && grep -qxF "$unit" <<<"$compiled"; then
    units+=("$unit")
  else
    skipped+=("$file")
  fi
done
if [ ${#skipped[@]} -ne 0 ]; then
  echo "check-tidy: not compiled in $build, so not checked: ${skipped[*]}"
fi
if [ ${#units[@]} -eq 0 ]; then
  echo "check-tidy: no changed file to check since $base"
  exit 0
fi
mapfile -t units < <(printf '%s\n' "${units[@]}" | sort -u)
# Only the changed headers' findings, besides each unit's own; a header
# unchanged is checked when it changes.
header_filter='^$'
if [ ${#headers[@]} -ne 0 ]; then
  header_filter="^$(pwd)/($(printf '%s\n' "${headers[@]}" | sed 's/[.]/\\./g' | paste -sd '|'))\$"
fi

echo "check-tidy: ${#units[@]} files changed since $base, two at a time"
# -Wno-unknown-warning-option: GCC's own warnings are in the commands.
# Its counts of what it suppressed (the system's headers) are left out.
if ! printf '%s\0' "${units[@]}" |
  xargs -0 -n 1 -P 2 "$tidy" -p "$build" --quiet --header-filter="$header_filter" \
    --extra-arg=-Wno-unknown-warning-option 2>&1 |
  { grep -vE '^[0-9]+ (warnings?|errors?)( and [0-9]+ errors?)? generated\.$' || true; }; then
  echo "check-tidy: clang-tidy found the above; fix them (or, for a check that is wrong here," \
    "say why in .clang-tidy)" >&2
  exit 1
fi
echo "check-tidy: no finding in ${#units[@]} files"
