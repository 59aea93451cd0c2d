#!/usr/bin/env bash
# Fails, naming each file, when a tracked C or C++ file is not as clang-format
# would write it.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.h' '*.cc' '*.c')
unformatted=()
for file in "${files[@]}"; do
  if ! clang-format --dry-run -Werror "$file" >/dev/null 2>&1; then unformatted+=("$file"); fi
done
if [ ${#unformatted[@]} -ne 0 ]; then
  echo "format: not formatted (run clang-format -i on them): ${unformatted[*]}" >&2
  exit 1
fi
echo "format: ${#files[@]} files formatted"
