#!/usr/bin/env bash
# The fused inference path (PredictOptions::fuse: BatchNorm folded into the convolutions) on the
# GPU host after scripts/gpu-check.sh built build-gpu/: forward eager and CUDA-graph replay, fuse
# off and on, and end-to-end predict per image, for YOLOv9-t and -c and RT-DETR-r18, float32 and
# float16, batch 1 and 8 (bench_graph_inference). Writes $OUT/fuse-bench.md (copied to docs/ by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
build-gpu/bin/bench_graph_inference models=yolo9-t,yolo9-c,rtdetr-r18 batches=1,8 e2e_runs=100 --json \
  > "$OUT/fuse-bench.jsonl" 2>"$OUT/fuse-bench.log"
PYTHONPATH=bench "$PY" - "$OUT/fuse-bench.jsonl" > "$OUT/fuse-bench.md" <<'PY'
import json, sys
from bench_tables import measured_line
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = ["# Fused inference (BatchNorm folded): benchmark", "",
       measured_line("scripts/bench_gpu_fuse.sh"),
       "(after `scripts/gpu-check.sh` built build-gpu/). Random-init weights, 80 classes, input 640.", "",
       "## Forward pass", "",
       "GPU time of one forward call, CUDA events, median of 200 calls after 20 warm-up calls; `graph`",
       "replays the forward's CUDA graph (predict's cuda_graph on). Fused: the inference copy with each",
       "BatchNorm folded into its convolution's weight and bias.", "",
       "| model | dtype | batch | eager ms | graph ms | fused eager ms | fused graph ms | fused graph vs graph |",
       "|---|---|---:|---:|---:|---:|---:|---:|"]
for r in (r for r in rows if r.get("kind") == "forward"):
    out.append(f"| {r['model']} | {r['dtype']} | {r['batch']} | {r['eager_ms']:.3f} | {r['graph_ms']:.3f} | "
               f"{r['fused_eager_ms']:.3f} | {r['fused_graph_ms']:.3f} | {r['graph_ms'] / r['fused_graph_ms']:.2f}x |")
out += ["", "## End-to-end predict, one 640x480 image in host memory", "",
        "Wall clock per call (letterbox, forward, NMS, scaling), median of 100 after 20 warm-up calls.", "",
        "| model | dtype | fuse | cuda_graph | end-to-end ms | pre ms | forward ms | post ms |",
        "|---|---|---|---|---:|---:|---:|---:|"]
for r in (r for r in rows if r.get("kind") == "predict"):
    out.append(f"| {r['model']} | {r['dtype']} | {str(r['fuse']).lower()} | {r['cuda_graph']} | "
               f"{r['end_to_end_ms']:.3f} | {r['pre_ms']:.3f} | {r['infer_ms']:.3f} | {r['post_ms']:.3f} |")
print("\n".join(out))
PY
