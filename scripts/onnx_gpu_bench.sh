#!/usr/bin/env bash
# The ONNX deployment record on the GPU host (docs/onnx-export.md): an exported YOLOv9-t run by
# ONNX Runtime's CUDA provider beside the engine's own forward (CUDA graph, and the fused fast
# path), float32 and float16, batch 1 and 8, in one run.
#   eval "$(bash .devkit/use-kit.sh)"; ORT_WHEEL=onnxruntime_gpu-*.whl ONNX_DIR=dir scripts/onnx_gpu_bench.sh
# ONNX_DIR holds yolo9-t.onnx and yolo9-t_fp16.onnx (`libreyolo export model=yolo9-t
# pretrained=false [half=true]`: a dynamic batch); ORT_WHEEL is onnxruntime-gpu for CUDA 13
# (its CUDA and cuDNN come from the nvidia wheels beside torch). Results go to $OUT.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
{
  echo "date: $(date -u +%F)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null
  "$PY" -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null
} | tee "$OUT/environment.txt"
SITE=/tmp/onnxruntime-gpu
"$PY" -m pip install -q --no-index --no-deps --no-compile --target "$SITE" "$ORT_WHEEL" || exit 1
PYTHONPATH="$SITE:bench" "$PY" bench/onnxruntime_forward.py \
  model="$ONNX_DIR/yolo9-t.onnx,$ONNX_DIR/yolo9-t_fp16.onnx" batches=1,8 --json \
  > "$OUT/onnxruntime.jsonl" 2> "$OUT/onnxruntime.log" || { tail -20 "$OUT/onnxruntime.log"; exit 1; }
cat "$OUT/onnxruntime.jsonl"
cmake --preset gpu-host -DCMAKE_CUDA_ARCHITECTURES=90 > "$OUT/configure.log" 2>&1 || { tail -40 "$OUT/configure.log"; exit 1; }
cmake --build build-gpu --target bench_graph_inference -- -j"$(nproc)" > "$OUT/build.log" 2>&1 ||
  { grep -E "error" "$OUT/build.log" | head -40; exit 1; }
build-gpu/bin/bench_graph_inference models=yolo9-t dtypes=float32,float16 batches=1,8 e2e_runs=50 --json \
  > "$OUT/engine.jsonl" 2> "$OUT/engine.log"
status=$?
cat "$OUT/engine.jsonl"
exit "$status"
