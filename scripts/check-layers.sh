#!/usr/bin/env bash
# Fails, naming each include or link, when a folder uses one above it in
# scripts/layers.txt, or one its line says it must not know. Without a
# build directory the includes alone; with one, its targets' links too.
#   scripts/check-layers.sh [BUILD_DIR]
set -euo pipefail
exec python3 "$(dirname "$0")/check-layers.py" "$@"
