#!/usr/bin/env bash
# CPU predict latency of YOLOv9-t at 640: LibreYOLO Studio against LibreYOLO Python, same machine,
# same run, same weights (the parity fixture's random weights), same image, both on all CPU threads.
# Writes docs/bench-cpu-predict.md.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-30}"
WEIGHTS=tests/fixtures/yolo9t_parity/weights.safetensors
IMAGE=resources/samples/shapes.png
PY="$(scripts/setup-parity-venv.sh)"
scripts/build.sh >/dev/null
ours="$(build/bin/bench_predict_latency model=$WEIGHTS source=$IMAGE imgsz=640 runs=$RUNS warmup=5 device=cpu --json)"
theirs="$("$PY" bench/libreyolo_predict_latency.py weights=$WEIGHTS source=$IMAGE imgsz=640 runs=$RUNS warmup=5 --json)"
"$PY" - "$ours" "$theirs" "$RUNS" <<'PY'
import datetime, json, os, platform, subprocess, sys
ours, theirs, runs = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), platform.processor())
rows = [ours, theirs]
lines = [
    "# CPU predict latency: YOLOv9-t, 640, batch 1",
    "",
    f"Measured {datetime.date.today()} on {cpu}, {os.cpu_count()} cores, by `scripts/bench_cpu_predict.sh` (RUNS={runs}).",
    "Median of the timed runs after 5 warm-up runs. Same random weights (tests/fixtures/yolo9t_parity), same image",
    "(resources/samples/shapes.png, 640x427), conf 0.25, iou 0.45; both sides use all CPU threads.",
    "pre = letterbox + normalise of the decoded image; infer = network forward; post = candidates, NMS, scale back;",
    "end-to-end adds decoding the PNG file.",
    "",
    "| implementation | pre ms | infer ms | post ms | end-to-end ms | boxes |",
    "|---|---:|---:|---:|---:|---:|",
]
for r in rows:
    lines.append(f"| {r['impl']} | {r['pre_ms']:.2f} | {r['infer_ms']:.2f} | {r['post_ms']:.2f} | {r['end_to_end_ms']:.2f} | {r['boxes']} |")
lines += ["", f"Speed-up end-to-end: {theirs['end_to_end_ms'] / ours['end_to_end_ms']:.2f}x "
          f"(inference {theirs['infer_ms'] / ours['infer_ms']:.2f}x).", ""]
open("docs/bench-cpu-predict.md", "w").write("\n".join(lines))
print("\n".join(lines))
PY
