#!/usr/bin/env bash
# The randomised cross-parity harness in its CUDA modes (docs/testing.md, "Randomised cross-parity"),
# on the GPU host after build-gpu/ holds the CLI (scripts/gpu-check.sh ends with this script):
# LibreYOLO 1.6.0 from .whl/ (scripts/make-bench-wheels.sh) in a scratch folder, every family and
# size, modes cuda, cuda-graph and cuda-fuse-half against LibreYOLO's own CUDA output, with the floor
# (LibreYOLO's CPU against its CUDA) measured per row. GPU_PARITY_SEEDS: seeds to run (default one,
# drawn afresh), GPU_PARITY_SIZES: smallest, all (default) or a list, GPU_PARITY_MODES: the modes (default
# all three). Rows and logs go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
SITE=/tmp/libreyolo-site
mkdir -p "$OUT"
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl
status=0
run=0
for seed in ${GPU_PARITY_SEEDS:-drawn}; do
  run=$((run + 1))
  args=()
  [[ $seed != drawn ]] && args=(--seed "$seed")
  PYTHONPATH="$SITE" "$PY" scripts/parity/cross_check.py "${args[@]}" --sizes "${GPU_PARITY_SIZES:-all}" \
    --modes "${GPU_PARITY_MODES:-cuda,cuda-graph,cuda-fuse-half}" --no-loss --cli build-gpu/bin/libreyolo \
    --json "$OUT/parity-cuda-$run.json" 2>&1 | grep --line-buffered -v "| INFO \|| WARNING " | tee -a "$OUT/parity-cuda.log"
  ((PIPESTATUS[0] == 0)) || status=1
done
exit "$status"
