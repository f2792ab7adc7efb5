#!/usr/bin/env bash
# The whole GPU round, in one call on the GPU host (see docs/testing.md, "GPU host"):
#   eval "$(bash .devkit/use-kit.sh)"; scripts/gpu-check.sh
# Builds the engine, CLI and tests without GUI (preset gpu-host), runs every test that the kit can
# build (the `gpu` ones included) and writes the logs to $OUT when set. GPU_CHECK_CTEST_ARGS adds
# ctest arguments: "-L gpu" runs the GPU tests alone (where the device copy leaves out fixtures
# only the CPU tests read, to stay under its size limit). Then the randomised cross-parity harness in
# its CUDA modes (scripts/gpu-parity.sh; GPU_CHECK_PARITY=off skips it).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
  python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null
} | tee "$OUT/environment.txt"
cmake --preset gpu-host -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -40 "$OUT/configure.log"; exit 1; }
cmake --build --preset gpu-host -- -j"$(nproc)" > "$OUT/build.log" 2>&1 || { grep -E "error" "$OUT/build.log" | head -40; exit 1; }
LIBREYOLO_GRAPH_PARITY_OUT="$(realpath "$OUT")/graph-parity.md" \
  LIBREYOLO_GRAPH_TRAINING_PARITY_OUT="$(realpath "$OUT")/graph-training-parity.md" \
  ctest --preset gpu-host --output-on-failure ${GPU_CHECK_CTEST_ARGS:-} 2>&1 | tee "$OUT/ctest.log"
status=${PIPESTATUS[0]}
if [[ ${GPU_CHECK_PARITY:-on} != off ]]; then
  scripts/gpu-parity.sh || status=1
fi
exit "$status"
