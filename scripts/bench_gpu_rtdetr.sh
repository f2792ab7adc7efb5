#!/usr/bin/env bash
# RT-DETR on the GPU host after scripts/gpu-check.sh built build-gpu/: RT-DETR-r18's forward eager
# against CUDA graph replay at batch 1 and 8 (float32 and float16) and end-to-end predict with
# cuda_graph off/on (bench_graph_inference). Writes $OUT/rtdetr-bench.md (copied to docs/ by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
build-gpu/bin/bench_graph_inference models=rtdetr-r18 batches=1,8 --json > "$OUT/rtdetr-bench.jsonl"
"$PY" - "$OUT/rtdetr-bench.jsonl" > "$OUT/rtdetr-bench.md" <<'PY'
import datetime, json, subprocess, sys
import torch
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                     text=True).stdout.strip().splitlines()[0]
out = ["# RT-DETR: benchmark", "",
       f"Measured {datetime.date.today()} on one {gpu}, torch {torch.__version__}, by `scripts/bench_gpu_rtdetr.sh`",
       "(after `scripts/gpu-check.sh` built build-gpu/). RT-DETR-r18 with random-init weights (80 classes),",
       "input 640; ms_deform_attn through the kernel registry (its CUDA kernels for float32, the",
       "grid_sample reference for float16).", "",
       "## Predict: forward, eager against CUDA graph", "",
       "GPU time of one forward call, bracketed by CUDA events, median of 200 calls after 20 warm-up calls.",
       "`graph` is what predict does with cuda_graph on: copy into the static input, replay, copy the",
       "output out. Capture includes three warm-up passes; pool is the memory the capture added.", "",
       "| model | dtype | batch | eager ms | graph ms | speed-up | capture ms | pool MiB |",
       "|---|---|---:|---:|---:|---:|---:|---:|"]
for r in (r for r in rows if r.get("kind") == "forward"):
    out.append(f"| {r['model']} | {r['dtype']} | {r['batch']} | {r['eager_ms']:.3f} | {r['graph_ms']:.3f} | "
               f"{r['eager_ms'] / r['graph_ms']:.2f}x | {r['capture_ms']:.0f} | {r['pool_mib']:.1f} |")
out += ["", "## End-to-end predict, one image", "",
        "One in-memory 640x480 image per call (resize, forward, top-k, scaling back; results on the host),",
        "wall clock, median of 200 calls after 20.", "",
        "| model | dtype | cuda_graph | ms per image |", "|---|---|---|---:|"]
for r in (r for r in rows if r.get("kind") == "predict"):
    out.append(f"| {r['model']} | {r['dtype']} | {r['cuda_graph']} | {r['end_to_end_ms']:.3f} |")
print("\n".join(out))
PY
cat "$OUT/rtdetr-bench.md"
