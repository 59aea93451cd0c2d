#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang and runs each for a bounded time,
# starting from the seeds in fuzz/corpus (copied, so the seeds stay as they are).
#   scripts/fuzz.sh [SECONDS_EACH]   (default 45)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-45}
# The same configuration as the sanitizer run of scripts/test.sh, tests
# included, so that running both builds once.
CC=clang CXX=clang++ scripts/build.sh build-fuzz -DBRAVEBOT_FUZZ=ON -DBRAVEBOT_BENCH=OFF
for fuzzer in mcp_json_fuzzer add_arguments_fuzzer interpreter_line_fuzzer json_members_fuzzer \
  bounded_json_fuzzer sse_parser_fuzzer settings_file_fuzzer managed_policy_fuzzer \
  authorization_challenge_fuzzer; do
  seeds=fuzz/corpus/${fuzzer%_fuzzer}
  corpus=build-fuzz/corpus/${fuzzer%_fuzzer}
  mkdir -p "$corpus" build-fuzz/crashes
  cp -n "$seeds"/* "$corpus"/ 2>/dev/null || true
  echo "fuzz: $fuzzer for ${seconds}s"
  build-fuzz/bin/$fuzzer -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=build-fuzz/crashes/ -print_final_stats=1 "$corpus" 2>&1 |
    grep -E '^(stat::number_of_executed_units|INFO: Running with|==[0-9]+==|SUMMARY|Done)' || true
  if [ "${PIPESTATUS[0]}" -ne 0 ]; then
    echo "fuzz: $fuzzer failed; the input is in build-fuzz/crashes/" >&2
    exit 1
  fi
done
