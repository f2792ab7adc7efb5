#!/usr/bin/env bash
# GPU training throughput of YOLOv9-t at 640, batch 16, AMP: LibreYOLO Studio against LibreYOLO
# Python in the same run, on the same synthetic dataset, from scratch, two epochs each, the second
# timed (data loading in, validation out). Runs on the GPU host after scripts/gpu-check.sh built
# build-gpu/; LibreYOLO's wheel and the dependencies the host lacks travel in .whl/ (see README,
# "GPU host"). Writes $OUT/bench-gpu-train.md (copied to docs/ by hand, with the run's date).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
BIN=build-gpu/bin
mkdir -p "$OUT"
SITE=/tmp/libreyolo-site
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$BIN/libreyolo" synth out="$WORK/shapes" n=800 imgsz=640 seed=1 format=bmp >/dev/null
DATA="$WORK/shapes/data.yaml"
COMMON=(data="$DATA" imgsz=640 batch=16 workers=8 device=cuda)
{
  "$BIN/bench_train_throughput" "${COMMON[@]}" amp=true project="$WORK/runs" --json 2>"$OUT/bench-train-ours-amp.log"
  "$BIN/bench_train_throughput" "${COMMON[@]}" amp=false project="$WORK/runs" --json 2>"$OUT/bench-train-ours-fp32.log"
  PYTHONPATH="$SITE" "$PY" bench/libreyolo_train_throughput.py "${COMMON[@]}" amp=true aux_weight=0 --json \
    2>"$OUT/bench-train-libreyolo-amp.log" | tail -1 || true
  PYTHONPATH="$SITE" "$PY" bench/libreyolo_train_throughput.py "${COMMON[@]}" amp=true aux_weight=0.25 --json \
    2>"$OUT/bench-train-libreyolo-amp-aux.log" | tail -1 || true
} > "$OUT/bench-train.jsonl"
"$PY" - "$OUT/bench-train.jsonl" > "$OUT/bench-gpu-train.md" <<'PY'
import datetime, json, subprocess, sys
import torch
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                     text=True).stdout.strip().splitlines()[0]
lines = [
    "# GPU training throughput: YOLOv9-t, imgsz 640, batch 16",
    "",
    f"Measured {datetime.date.today()} on one {gpu}, torch {torch.__version__}, by `scripts/bench_gpu_train.sh`",
    "(after `scripts/gpu-check.sh` built build-gpu/). Same synthetic dataset for every row",
    "(`libreyolo synth n=800 imgsz=640 seed=1 format=bmp`: 640 train images as BMP, which both",
    "read), from scratch, 8 data-loading workers, two epochs; the second epoch is timed (data loading",
    "included, validation off). Rows with `aux 0` train the same network on both sides (LibreYOLO's",
    "PGI auxiliary branch off); LibreYOLO's own default, `aux_weight=0.25`, is the last row.",
    "",
    "| implementation | precision | aux | epoch 2 s | images/s |",
    "|---|---|---|---:|---:|",
]
for r in rows:
    precision = "AMP (float16)" if r["amp"] else "float32"
    aux = r.get("aux_weight", 0)
    lines.append(f"| {r['impl']} | {precision} | {aux:g} | {r['epoch_seconds']:.2f} | {r['images'] / r['epoch_seconds']:.1f} |")
ours = next(r for r in rows if r["impl"].startswith("libreyolo-studio") and r["amp"])
theirs = next(r for r in rows if r["impl"].startswith("LibreYOLO") and r.get("aux_weight", 0) == 0)
lines += ["", f"Speed-up at AMP, same network: {theirs['epoch_seconds'] / ours['epoch_seconds']:.2f}x.", ""]
print("\n".join(lines))
PY
cat "$OUT/bench-gpu-train.md"
