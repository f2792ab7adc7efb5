#!/usr/bin/env bash
# Configures (once) and builds into build/ with the `default` preset: everything, or only the
# targets named as arguments (scripts/studio.sh builds just the CLI and the studio).
set -euo pipefail
cd "$(dirname "$0")/.."
export CCACHE_DIR="${CCACHE_DIR:-${HOME:-/root}/.cache/libreyolo-studio/ccache}"
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake --preset default
fi
# Two jobs: torch-heavy translation units need ~1.5 GB of memory each.
targets=()
if (($#)); then targets=(--target "$@"); fi
cmake --build --preset default "${targets[@]}" -- -j"${LIBREYOLO_BUILD_JOBS:-2}"
