#!/usr/bin/env bash
# D-FINE and DEIM on the GPU host after scripts/gpu-check.sh built build-gpu/, with LibreYOLO 1.6.0
# measured in the same run (its wheel from scripts/make-bench-wheels.sh, carried in .whl/):
#  1. the forward, eager against CUDA graph replay, batch 1 and 8, float32 and float16, and
#     end-to-end predict with cuda_graph off/on (bench_graph_inference);
#  2. LibreYOLO's end-to-end predict with cuda_graph False/True (bench/libreyolo_graph_predict.py);
#  3. the training step eager against --cuda-graph, AMP (bench_train_step), and LibreYOLO's own
#     trainer step eager and graphed (bench/libreyolo_train_graph_step.py).
# n and s of both families, 640, random-init weights. Writes $OUT/dfine-bench.md (copied to docs/
# by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
BIN=build-gpu/bin
MODELS="${MODELS:-dfine-n,dfine-s,deim-n,deim-s}"
mkdir -p "$OUT"
SITE=/tmp/libreyolo-site
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
# OURS_JSONL: our rows from an earlier run (this one then measures LibreYOLO alone, on DATA).
if [[ -z "${OURS_JSONL:-}" ]]; then
  "$BIN/libreyolo" synth out="$WORK/shapes" n=64 imgsz=640 seed=7 format=bmp >/dev/null
  DATA="$WORK/shapes/data.yaml"
  {
    "$BIN/bench_graph_inference" models="$MODELS" batches=1,8 --json
    "$BIN/bench_train_step" data="$DATA" models="$MODELS" batches=8 amp=true --json
  } > "$OUT/dfine-bench.jsonl" 2>"$OUT/dfine-bench.log"
else
  cp "$OURS_JSONL" "$OUT/dfine-bench.jsonl"
fi
for model in ${MODELS//,/ }; do
  for dtype in float32 float16; do
    PYTHONPATH="$SITE:bench" "$PY" bench/libreyolo_graph_predict.py model="$model" dtype="$dtype" --json \
      2>>"$OUT/dfine-bench-libreyolo.log" || true
  done
done > "$OUT/dfine-bench-libreyolo.jsonl"
for model in ${MODELS//,/ }; do
  PYTHONPATH="$SITE:bench" "$PY" bench/libreyolo_train_graph_step.py data="$DATA" family="${model%-*}" \
    sizes="${model#*-}" batches=8 project="$WORK/libreyolo-step" --json 2>>"$OUT/dfine-bench-libreyolo.log" || true
done >> "$OUT/dfine-bench-libreyolo.jsonl"
PYTHONPATH=bench "$PY" - "$OUT/dfine-bench.jsonl" "$OUT/dfine-bench-libreyolo.jsonl" > "$OUT/dfine-bench.md" <<'PY'
import json, sys
from bench_tables import forward_table, measured_line
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
theirs = [json.loads(l) for l in open(sys.argv[2]) if l.strip().startswith("{")]
out = ["# D-FINE and DEIM: benchmark", "",
       measured_line("scripts/bench_gpu_dfine.sh"),
       "(after `scripts/gpu-check.sh` built build-gpu/), LibreYOLO 1.6.0 in the same run. Random-init weights",
       "(80 classes, or the synthetic set's 6 for training), input 640; the decoder's deformable attention",
       "through the ms_deform_attn slot.", "",
       "## Predict: forward, eager against CUDA graph", "",
       ] + forward_table(rows)
out += ["", "## End-to-end predict, one image", "",
        "One in-memory 640x480 image per call (stretch, forward, top-k, scaling back; results on the host),",
        "wall clock, median of 200 calls after 20 (fuse off); LibreYOLO's `model(image, cuda_graph=...)` the same",
        "way.", "",
        "| model | dtype | ours, graph off | ours, graph on | LibreYOLO, graph off | LibreYOLO, cuda_graph=True | LibreYOLO ÷ ours, graph on |",
        "|---|---|---:|---:|---:|---:|---:|"]
def find(rs, **k):
    for r in rs:
        if all(r.get(a) == b for a, b in k.items()):
            return r
    return {}
for r in (r for r in rows if r.get("kind") == "predict" and r["cuda_graph"] == "false" and not r["fuse"]):
    on = find(rows, kind="predict", model=r["model"], dtype=r["dtype"], cuda_graph="true", fuse=False)
    ly_off = find(theirs, model=r["model"], dtype=r["dtype"], cuda_graph=False)
    ly_on = find(theirs, model=r["model"], dtype=r["dtype"], cuda_graph=True)
    cell = lambda x: f"{x['end_to_end_ms']:.3f}" if "end_to_end_ms" in x else ("fails" if "error" in x else "-")
    ratio = (f"{ly_on['end_to_end_ms'] / on['end_to_end_ms']:.2f}"
             if "end_to_end_ms" in ly_on and "end_to_end_ms" in on else "-")
    out.append(f"| {r['model']} | {r['dtype']} | {cell(r)} | {cell(on)} | {cell(ly_off)} | {cell(ly_on)} | {ratio} |")
out += ["", "## Training step, AMP, batch 8", "",
        "Ours: one real batch (synthetic shapes at 640) replayed through the trainer's own recipe (forward,",
        "matching on the host, loss, scaled backward, clipping, GradScaler, AdamW), wall clock with the device",
        "synchronised, median of 20 steps after 6; with --cuda-graph the backbone and encoder replay from CUDA",
        "graphs, the decoder and the loss stay eager. LibreYOLO: its own trainer loop on one device batch of",
        "its loader, fastest step of 24 after 5 (bench/libreyolo_train_graph_step.py).", "",
        "| model | ours eager ms | ours graph ms | LibreYOLO eager ms | LibreYOLO graph ms | LibreYOLO ÷ ours, graph on | our graph status |",
        "|---|---:|---:|---:|---:|---:|---|"]
for r in (r for r in rows if r.get("kind") == "train_step"):
    ly_off = find(theirs, model=r["model"], cuda_graph=False, batch=r["batch"])
    ly_on = find(theirs, model=r["model"], cuda_graph=True, batch=r["batch"])
    ms = lambda x: f"{x['step_ms']:.1f}" if "step_ms" in x else "-"
    ratio = f"{ly_on['step_ms'] / r['graph_ms']:.2f}" if "step_ms" in ly_on else "-"
    out.append(f"| {r['model']} | {r['eager_ms']:.1f} | {r['graph_ms']:.1f} | {ms(ly_off)} | {ms(ly_on)} | {ratio} | {r['graph']} |")
print("\n".join(out))
PY
cat "$OUT/dfine-bench.md"
