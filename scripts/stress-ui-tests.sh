#!/usr/bin/env bash
# Runs the studio's tests (ctest label `ui`) N times in a row (default 10) beside a CPU-bound process,
# as on a busy 2-core machine: a responsiveness check that a loaded machine can fail shows here.
# Needs a build (scripts/build.sh). Exits non-zero at the first failing round.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-10}"
# The busy neighbour: one core's worth of arithmetic, ended with this script.
( while :; do :; done ) &
busy=$!
trap 'kill "$busy" 2>/dev/null || true' EXIT
for ((i = 1; i <= rounds; ++i)); do
  echo "[stress-ui-tests] round $i of $rounds"
  ctest --preset default -L ui --output-on-failure
done
echo "[stress-ui-tests] $rounds rounds passed beside a CPU-bound process"
