#!/usr/bin/env bash
# CPU training throughput of YOLOv9-t at imgsz 320, batch 16: LibreYOLO Studio against LibreYOLO
# Python in the same run, on the same synthetic dataset (160 train images, seed 1), from scratch,
# two epochs each, the second timed (data loading in, validation out). Writes docs/bench-cpu-train.md.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="$(scripts/setup-parity-venv.sh)"
scripts/build.sh >/dev/null
WORK="$(mktemp -d)"
build/bin/libreyolo synth out="$WORK/shapes" n=200 imgsz=320 seed=1 >/dev/null
ours="$(build/bin/bench_train_throughput data="$WORK/shapes/data.yaml" imgsz=320 batch=16 workers=2 device=cpu project="$WORK/runs" --json 2>/dev/null)"
theirs="$("$PY" bench/libreyolo_train_throughput.py data="$WORK/shapes/data.yaml" imgsz=320 batch=16 workers=2 device=cpu --json 2>/dev/null | tail -1)"
"$PY" - "$ours" "$theirs" <<'PY'
import datetime, json, os, platform, sys
rows = [json.loads(a) for a in sys.argv[1:3]]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
lines = [
    "# CPU training throughput: YOLOv9-t, imgsz 320, batch 16",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {os.cpu_count()} cores, by `scripts/bench_cpu_train.sh`.",
    "Same synthetic dataset (`libreyolo synth n=200 imgsz=320 seed=1`: 160 train images), from scratch,",
    "2 data-loading workers, float32, two epochs; the second epoch is timed (data loading included,",
    "validation off on both sides). LibreYOLO runs with its PGI auxiliary branch off (`aux_weight=0`) so that both",
    "sides train the same network; otherwise both use their YOLOv9 defaults (mosaic, HSV, flip, EMA).",
    "",
    "| implementation | epoch 2 s | images/s |",
    "|---|---:|---:|",
]
for r in rows:
    lines.append(f"| {r['impl']} | {r['epoch_seconds']:.2f} | {r['images'] / r['epoch_seconds']:.2f} |")
ours, theirs = rows
lines += ["", f"Speed-up: {theirs['epoch_seconds'] / ours['epoch_seconds']:.2f}x.", "",
          "The GPU counterpart (H200, 640, batch 16, AMP) is [bench-gpu-train.md](bench-gpu-train.md).", ""]
open("docs/bench-cpu-train.md", "w").write("\n".join(lines))
print("\n".join(lines))
PY
rm -rf "$WORK"
