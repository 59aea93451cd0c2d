#!/usr/bin/env bash
# Runs clang-tidy (the checks of .clang-tidy, every finding an error) on the
# C++ files changed since a base commit, with the compile commands of a build
# directory, two at a time:
#   scripts/check-tidy.sh [BUILD_DIR]            (default build)
# The base is $BRAVEBOT_TIDY_BASE where set (a commit, or "all" for every
# file); else HEAD~20, the last twenty commits, which covers a branch's work
# and CI's clean clone of main alike; else, in a clone too shallow to hold
# it, every file. Files changed and not yet committed are checked too.
# A changed .cc is checked with its own findings; a changed header through
# its .cc (or the first file including it), with that header's findings.
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
if [ "$base" != all ] && ! git rev-parse -q --verify "$base^{commit}" >/dev/null; then
  echo "check-tidy: no commit $base here (a shallow clone?): checking every file"
  base=all
fi
if [ "$base" = all ]; then
  changed=$(git ls-files -- '*.cc' '*.h')
else
  changed=$( (git diff --name-only --diff-filter=d "$base" -- '*.cc' '*.h'
    git ls-files --others --exclude-standard -- '*.cc' '*.h') | sort -u)
fi

# Each changed file's translation unit, and the headers whose findings count.
compiled=$(python3 -c 'import json, os, sys
for entry in json.load(open(sys.argv[1])):
    print(os.path.relpath(os.path.join(entry["directory"], entry["file"])))' \
  "$build/compile_commands.json" | sort -u)
units=()
headers=()
skipped=()
for file in $changed; do
  case $file in
    *.h)
      headers+=("$file")
      unit=${file%.h}.cc
      if ! grep -qxF "$unit" <<<"$compiled"; then
        unit=$(git grep -lF "#include \"$file\"" -- '*.cc' | grep -xF -f <(echo "$compiled") | head -n 1 || true)
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
