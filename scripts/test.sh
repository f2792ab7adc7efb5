#!/usr/bin/env bash
# README command (b): install what is missing, build, run the tests. The CUDA-only programs (ctest
# label `gpu`) are left out here and counted; the GPU host runs them (scripts/gpu-check.sh).
# Extra arguments go to ctest, e.g. scripts/test.sh -R parity.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
gpu_programs=$(ctest --test-dir build -N -L gpu | sed -n 's/^Total Tests: //p')
echo "[test] ${gpu_programs:-0} GPU test programs (label gpu) are not run on this machine; scripts/gpu-check.sh runs them on a GPU host"
exec ctest --preset default "$@"
