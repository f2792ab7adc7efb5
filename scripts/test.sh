#!/usr/bin/env bash
# README command (b): install what is missing, build, run the tests. The CUDA-only programs (ctest
# label `gpu`) are left out here and counted; the GPU host runs them (scripts/gpu-check.sh).
# Then the randomised cross-parity harness (scripts/parity/cross_check.py, docs/testing.md) runs on
# the CPU against LibreYOLO 1.6.0 in its scratch venv: the smallest size of each family, with a seed
# drawn afresh (printed). LIBREYOLO_PARITY=all runs every size, =off skips it; it is skipped too when
# arguments go to ctest (e.g. scripts/test.sh -R parity), unless LIBREYOLO_PARITY is set.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh
gpu_programs=$(ctest --test-dir build -N -L gpu | sed -n 's/^Total Tests: //p')
echo "[test] ${gpu_programs:-0} GPU test programs (label gpu) are not run on this machine; scripts/gpu-check.sh runs them on a GPU host"
parity=${LIBREYOLO_PARITY:-$( (($#)) && echo off || echo smallest)}
status=0
ctest --preset default "$@" || status=$?
if [[ $parity != off ]]; then
  py=$(scripts/setup-parity-venv.sh)
  echo "[test] randomised cross-parity with LibreYOLO 1.6.0 ($parity sizes, CPU)"
  "$py" scripts/parity/cross_check.py --sizes "$parity" --modes cpu,cpu-fuse || status=1
fi
exit "$status"
