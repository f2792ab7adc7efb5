#!/usr/bin/env bash
# Tracking frames per second on the GPU host after build-gpu/ is built (target bench_track_fps):
# a 1280x720 stream of moving shapes in host memory, each frame through Model::track with the demo
# model (YOLOv9-t) and ByteTrack, eager against CUDA graph against the fused path with a graph, in
# float32 and float16. Writes $OUT/track-bench.md (copied to docs/ by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
build-gpu/bin/bench_track_fps --json "$@" > "$OUT/track-bench.jsonl" 2> "$OUT/track-bench.log"
PYTHONPATH=bench "$PY" - "$OUT/track-bench.jsonl" > "$OUT/track-bench.md" <<'PY'
import json, sys
from bench_tables import measured_line
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
out = ["# Tracking a 1280x720 stream: frames per second", "",
       measured_line("scripts/bench_gpu_track.sh") + ".",
       f"{rows[0]['frames']} frames of {rows[0]['width']}x{rows[0]['height']} pixels (ten moving shapes, rendered into",
       "host memory beforehand), each through `Model::track` with persist: upload, letterbox, forward, NMS,",
       "ByteTrack with LibreYOLO's defaults, results on the host. The demo model (YOLOv9-t trained on the",
       "synthetic shapes), input 640. Wall clock over the frames after 30 warm-up frames (the graph captured",
       "among them: every frame has one size, so one capture serves the stream).", "",
       "| model | dtype | mode | FPS | median ms per frame | ÷ eager | boxes per frame | ids |",
       "|---|---|---|---:|---:|---:|---:|---:|"]
eager = {r["dtype"]: r["fps"] for r in rows if r["mode"] == "eager"}
for r in rows:
    out.append(f"| {r['model']} | {r['dtype']} | {r['mode']} | {r['fps']:.1f} | {r['median_frame_ms']:.2f} | "
               f"{r['fps'] / eager[r['dtype']]:.2f}x | {r['boxes_per_frame']:.1f} | {r['ids']} |")
print("\n".join(out))
PY
cat "$OUT/track-bench.md"
