#!/usr/bin/env bash
# Distributed scaling on a host with several GPUs (the nvidia-h200-x2 kind), after scripts/gpu-check.sh
# built build-gpu/: YOLOv9-t trained from scratch on 1 GPU and on GPUS GPUs with the same global batch,
# data and seed, AMP on. Writes $OUT/distributed.md: epoch time, images/s, scaling efficiency
# (throughput on N GPUs / (N · throughput on 1)) and the final mAP of each run.
#   GPUS=2 EPOCHS=10 BATCH=64 N=2000 IMGSZ=640 scripts/bench_gpu_distributed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
GPUS="${GPUS:-2}" EPOCHS="${EPOCHS:-10}" BATCH="${BATCH:-64}" N="${N:-2000}" IMGSZ="${IMGSZ:-640}"
PY="${PYTHON:-python3}"
CLI=build-gpu/bin/libreyolo
WORK="$(mktemp -d)"
mkdir -p "$OUT"
have=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
if (( have < GPUS )); then echo "bench_gpu_distributed: $GPUS GPUs needed, $have here" >&2; exit 1; fi
"$CLI" synth out="$WORK/shapes" n="$N" imgsz="$IMGSZ" seed=0 format=bmp > /dev/null
devices=$(seq -s, 0 $((GPUS - 1)))
for run in "1:0" "$GPUS:$devices"; do
  gpus=${run%%:*}
  "$CLI" train data="$WORK/shapes/data.yaml" model=yolo9-t pretrained=false epochs="$EPOCHS" batch="$BATCH" imgsz="$IMGSZ" \
    device="${run#*:}" workers=8 project="$WORK/runs" name="gpus$gpus" > "$OUT/train-$gpus-gpus.log" 2>&1
done
"$PY" - "$WORK/runs" "$GPUS" "$EPOCHS" "$BATCH" "$IMGSZ" "$WORK/shapes" > "$OUT/distributed.md" <<'PY'
import csv, datetime, os, statistics, subprocess, sys
runs, gpus, epochs, batch, imgsz, data = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5], sys.argv[6]
images = len(os.listdir(os.path.join(data, "images", "train")))
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                     text=True).stdout.splitlines()[0]
rows = {}
for g in (1, gpus):
    table = list(csv.DictReader(open(os.path.join(runs, f"gpus{g}", "results.csv"))))
    seconds = statistics.median(float(r["time"]) for r in table[1:] or table)  # the first epoch warms up
    rows[g] = (seconds, images / seconds, float(table[-1]["metrics/mAP50-95(B)"]))
print("# Distributed training: scaling over GPUs\n")
print(f"Measured {datetime.date.today()} on {gpus}× {gpu} by `scripts/bench_gpu_distributed.sh`: YOLOv9-t from "
      f"scratch on {images} synthetic images at {imgsz}, global batch {batch}, {epochs} epochs, AMP, the same seed "
      "and data for both runs. Epoch time: the median over epochs after the first, validation (rank 0) included.\n")
print("| GPUs | epoch s | images/s | scaling efficiency | final mAP50-95 |\n|---:|---:|---:|---:|---:|")
for g, (s, ips, m) in rows.items():
    print(f"| {g} | {s:.1f} | {ips:.0f} | {ips / (g * rows[1][1]):.0%} | {m:.4f} |")
PY
cat "$OUT/distributed.md"
