#!/usr/bin/env bash
# Configures (once) and builds everything into build/ with the `default` preset.
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/root}/.cache/libreyolo-studio/ccache}"
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake --preset default
fi
# Two jobs: torch-heavy translation units need ~1.5 GB of memory each.
cmake --build --preset default -- -j"${LIBREYOLO_BUILD_JOBS:-2}"
