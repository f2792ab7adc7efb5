#!/usr/bin/env bash
# README command (b): install what is missing, build, run every test (CUDA-only tests skip
# without a GPU). Extra arguments go to ctest, e.g. scripts/test.sh -R parity.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
ctest --preset default "$@"
