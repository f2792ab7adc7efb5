#!/usr/bin/env bash
# CUDA graphs for prediction on the GPU host: bench_graph_inference (forward eager vs graph per
# size, batch and dtype; end-to-end predict with cuda_graph off/on) and, in the same run,
# LibreYOLO Python 1.6.0's end-to-end predict with cuda_graph False/True. Runs after
# scripts/gpu-check.sh built build-gpu/; LibreYOLO's wheel travels in .whl/. Writes
# $OUT/graph-inference-bench.md (committed as docs/graph-inference-bench.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
SITE=/tmp/libreyolo-site
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl
{
  build-gpu/bin/bench_graph_inference --json 2>"$OUT/bench-graphs-ours.log"
  for dtype in float32 float16; do
    PYTHONPATH="$SITE" "$PY" bench/libreyolo_graph_predict.py dtype=$dtype --json 2>>"$OUT/bench-graphs-libreyolo.log" || true
  done
} > "$OUT/bench-graphs.jsonl"
PYTHONPATH=bench "$PY" - "$OUT/bench-graphs.jsonl" > "$OUT/graph-inference-bench.md" <<'PY'
import json, sys
from bench_tables import forward_table, measured_line
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
e2e = [r for r in rows if r.get("kind") == "predict"]
theirs = [r for r in rows if "impl" in r]
out = ["# CUDA graphs for prediction: benchmark", "",
       measured_line("scripts/bench_gpu_graphs.sh"),
       "(after `scripts/gpu-check.sh` built build-gpu/). YOLOv9 with random-init weights (80 classes), input 640.", "",
       "## Forward pass", "",
       ] + forward_table(rows)
out += ["", "## End-to-end predict, one image", "",
        "One in-memory 640x480 image per call (letterbox, forward, NMS, scaling back; results on the host),",
        "wall clock, median of 200 calls after 20. LibreYOLO runs its own predict on the same pixels.", "",
        "| implementation | model | dtype | cuda_graph | ms per image |", "|---|---|---|---|---:|"]
for r in e2e:
    out.append(f"| libreyolo-studio | {r['model']} | {r['dtype']} | {r['cuda_graph']} | {r['end_to_end_ms']:.3f} |")
for r in theirs:
    value = f"{r['end_to_end_ms']:.3f}" if "end_to_end_ms" in r else f"error: {r['error']}"
    out.append(f"| {r['impl']} | yolo9-{r['size']} | {r['dtype']} | {str(r['cuda_graph']).lower()} | {value} |")
print("\n".join(out))
PY
cat "$OUT/graph-inference-bench.md"
