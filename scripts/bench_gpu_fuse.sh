#!/usr/bin/env bash
# The fused inference path (fuse=true: BatchNorm folded, NHWC, conv_bias_act) on the GPU host after
# scripts/gpu-check.sh built build-gpu/: forward eager and CUDA-graph replay, fuse off and on, the
# kernels per replay, and end-to-end predict per image, for YOLOv9-t and -c and RT-DETR-r18, float32
# and float16, batch 1 and 8 (bench_graph_inference). The fused rows twice: conv_bias_act through
# the registry's choice (cuDNN runtime fusion where it applies) and through its reference
# (LIBREYOLO_KERNELS=reference: LibTorch's convolution, then the activation), the measurement that
# chose the route. LibreYOLO 1.6.0's predict with cuda_graph=True in the same run when its wheel is
# importable (scripts/make-bench-wheels.sh). Writes $OUT/fuse-bench.md (copied to docs/ by hand).
# MODELS (yolo9-t,yolo9-c,rtdetr-r18), REFERENCE_PASS=0 (skip the reference route's rows),
# AUTOTUNE_PASS=0 (skip the untimed heuristic engine's rows), PROFILE_MODELS ("yolo9-t yolo9-c"; empty skips the profile)
# and TIMELINE_MODELS (yolo9-t,rtdetr-r18; empty skips the kernel timeline) shorten a run; TIMELINE_BATCHES
# ("1"; e.g. "1 8") the batch sizes the timeline profiles.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
MODELS="${MODELS:-yolo9-t,yolo9-c,rtdetr-r18}"
mkdir -p "$OUT"
build-gpu/bin/bench_graph_inference models="$MODELS" batches=1,8 e2e_runs=100 --json \
  > "$OUT/fuse-bench.jsonl" 2>"$OUT/fuse-bench.log"
: > "$OUT/fuse-bench-reference.jsonl"
if [[ ${REFERENCE_PASS:-1} == 1 ]]; then
  LIBREYOLO_KERNELS=reference build-gpu/bin/bench_graph_inference models="$MODELS" batches=1,8 e2e_runs=100 --json \
    > "$OUT/fuse-bench-reference.jsonl" 2>>"$OUT/fuse-bench.log"
fi
# cuDNN's fused engines as its heuristic ranks them (the first, untimed), against the default: the
# fastest of the first few, timed per shape (LIBREYOLO_CUDNN_AUTOTUNE).
: > "$OUT/fuse-bench-heuristic.jsonl"
if [[ ${AUTOTUNE_PASS:-1} == 1 ]]; then
  LIBREYOLO_CUDNN_AUTOTUNE=1 build-gpu/bin/bench_graph_inference models="$MODELS" dtypes=float16 batches=1,8 \
    e2e_runs=20 --json > "$OUT/fuse-bench-heuristic.jsonl" 2>>"$OUT/fuse-bench.log"
fi
# Where a graphed forward's GPU time goes, kernel by kernel (bench/forward_kernel_timeline.cpp), fuse on
# and off: TIMELINE_MODELS (yolo9-t,rtdetr-r18; empty skips it).
: > "$OUT/timeline.jsonl"
if [[ -n ${TIMELINE_MODELS-yolo9-t,rtdetr-r18} ]]; then
  for batch in ${TIMELINE_BATCHES:-1}; do
    for fuse in 1 0; do
      build-gpu/bin/bench_forward_kernel_timeline models="${TIMELINE_MODELS-yolo9-t,rtdetr-r18}" batch=$batch \
        fuse=$fuse --json >> "$OUT/timeline.jsonl" 2>>"$OUT/fuse-bench.log"
    done
  done
  PYTHONPATH=bench "$PY" bench/kernel_timeline.py "$OUT/timeline.jsonl" --top 20 > "$OUT/timeline.md" || true
fi
# What each graph launches: the captured graphs of yolo9-t float16 batch 1 (fuse off, then on; the
# forward, then the end-to-end predict) written as Graphviz files and summed by kernel category.
rm -rf "$OUT/graph-dot"
LIBREYOLO_GRAPH_DOT="$OUT/graph-dot" build-gpu/bin/bench_graph_inference models=yolo9-t dtypes=float16 batches=1 \
  replays=5 warmup=2 e2e_runs=1 > /dev/null 2>>"$OUT/fuse-bench.log"
PYTHONPATH=bench "$PY" bench/graph_dot_kernels.py "$OUT/graph-dot" --json > "$OUT/graph-kernels.jsonl" || true
: > "$OUT/fuse-bench-libreyolo.jsonl"
: > "$OUT/profile-forward.jsonl"
SITE=/tmp/libreyolo-site
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl 2>/dev/null || true
if PYTHONPATH="$SITE" "$PY" -c 'import libreyolo' 2>/dev/null; then
  for dtype in float32 float16; do
    PYTHONPATH="$SITE:bench" "$PY" bench/libreyolo_graph_predict.py model=yolo9-t dtype=$dtype runs=100 --json \
      >> "$OUT/fuse-bench-libreyolo.jsonl" 2>>"$OUT/fuse-bench.log" || true
  done
  # Where a graphed forward's GPU time goes, by kernel category (LibreYOLO's network, BN folded).
  for model in ${PROFILE_MODELS-yolo9-t yolo9-c}; do
    PYTHONPATH="$SITE:bench" "$PY" bench/profile_forward_kernels.py model=$model --json \
      >> "$OUT/profile-forward.jsonl" 2>>"$OUT/fuse-bench.log" || true
  done
fi
PYTHONPATH=bench "$PY" - "$OUT" > "$OUT/fuse-bench.md" <<'PY'
import json, os, sys
from bench_tables import measured_line
out_dir = sys.argv[1]
def rows(name):
    path = os.path.join(out_dir, name)
    return [json.loads(l) for l in open(path) if l.strip().startswith("{")] if os.path.exists(path) else []
fused, ref, ly = rows("fuse-bench.jsonl"), rows("fuse-bench-reference.jsonl"), rows("fuse-bench-libreyolo.jsonl")
heuristic = rows("fuse-bench-heuristic.jsonl")
key = lambda r: (r["model"], r["dtype"], r.get("batch"), r.get("fuse"), r.get("cuda_graph"), r.get("pixels"),
                 r.get("candidates"))
ref_by = {key(r): r for r in ref}
heuristic_by = {key(r): r for r in heuristic}
out = ["# Fused inference (fuse=true): benchmark", "",
       measured_line("scripts/bench_gpu_fuse.sh"),
       "(after `scripts/gpu-check.sh` built build-gpu/). Random-init weights, 80 classes, input 640.", "",
       "## Forward pass", "",
       "GPU time of one forward call, CUDA events, median of 200 calls after 20 warm-up calls; `graph`",
       "replays the forward's CUDA graph. Fused: the inference copy (BatchNorm folded, RepConvN merged,",
       "channels-last), its convolutions through conv_bias_act: `ref` its reference (LibTorch's",
       "convolution, then the activation; LIBREYOLO_KERNELS=reference), `cudnn` the registry's choice",
       "(cuDNN runtime fusion for float16 NHWC). Kernels: kernel nodes in one replay of the graph.", "",
       "`cudnn, heuristic`: cuDNN's first-ranked fused engine (LIBREYOLO_CUDNN_AUTOTUNE=1); `cudnn`: the",
       "fastest of its first four, timed per shape when the shape is first seen (the default).",
       "`one stream`: the same graph captured with the independent branches (YOLOv9's towers, RepNCSP's",
       "shortcut, ADown's halves) one after another instead of on side streams.", "",
       "First call: wall clock of the first fused forward of the batch size, which builds cuDNN's",
       "engines for its shapes (and, at the first batch size, the fused copy).", "",
       "| model | dtype | batch | eager ms | graph ms | fused graph ms (ref) | fused graph ms (cudnn, heuristic) | fused graph ms (cudnn, one stream) | fused graph ms (cudnn) | kernels | fused kernels (ref) | fused kernels (cudnn) | graph / fused graph | fused first call ms (heuristic) | fused first call ms |",
       "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
nan = float("nan")
for r in (r for r in fused if r.get("kind") == "forward"):
    f, h = ref_by.get(key(r), {}), heuristic_by.get(key(r), {})
    out.append(f"| {r['model']} | {r['dtype']} | {r['batch']} | {r['eager_ms']:.3f} | {r['graph_ms']:.3f} | "
               f"{f.get('fused_graph_ms', nan):.3f} | {h.get('fused_graph_ms', nan):.3f} | "
               f"{r.get('fused_graph_one_stream_ms', nan):.3f} | {r['fused_graph_ms']:.3f} | "
               f"{r['kernels']} | {f.get('fused_kernels', '')} | {r['fused_kernels']} | "
               f"{r['graph_ms'] / r['fused_graph_ms']:.2f}x | {h.get('fused_first_ms', nan):.0f} | "
               f"{r.get('fused_first_ms', nan):.0f} |")
out += ["", "## End-to-end predict, one 640x480 image in host memory", "",
        "Wall clock per call (letterbox, forward, NMS, scaling), median of 100 after 20 warm-up calls;",
        "LibreYOLO 1.6.0's predict on the same pixels (bench/libreyolo_graph_predict.py) in the same run.", "",
        "Preprocessing on the `host` (OpenCV's letterbox, then the 8-bit canvas uploaded) or on the",
        "`device` (the 8-bit image uploaded through a page-locked buffer, the letterbox slot recorded in",
        "the fused path's graph; its time then counts in forward). Candidates: selected in the fused",
        "forward (`graph`: decode_topk, YOLOv9) or by postprocessing from the decoded output (`post`,",
        "LIBREYOLO_FUSED_CANDIDATES=0; the only route without fuse and for the other families).", "",
        "| model | dtype | fuse | cuda_graph | preprocessing | candidates | conv_bias_act | end-to-end ms | pre ms | forward ms | post ms |",
        "|---|---|---|---|---|---|---|---:|---:|---:|---:|"]
for route, table in (("registry", fused), ("reference", ref)):
    for r in (r for r in table if r.get("kind") == "predict"):
        if route == "reference" and not r["fuse"]:
            continue
        out.append(f"| {r['model']} | {r['dtype']} | {str(r['fuse']).lower()} | {r['cuda_graph']} | "
                   f"{r.get('pixels', 'host')} | {r.get('candidates', 'post')} | {route if r['fuse'] else '-'} | "
                   f"{r['end_to_end_ms']:.3f} | "
                   f"{r['pre_ms']:.3f} | {r['infer_ms']:.3f} | {r['post_ms']:.3f} |")
for r in ly:
    result = f"{r['end_to_end_ms']:.3f}" if "end_to_end_ms" in r else r.get("error", "")
    out.append(f"| LibreYOLO 1.6.0 {r['model']} | {r['dtype']} | - | {str(r['cuda_graph']).lower()} | - | - | - | "
               f"{result} | | | |")
dots = rows("graph-kernels.jsonl")
if dots:
    out += ["", "## What the graphs launch", "",
            "yolo9-t, float16, batch 1: the kernel nodes of each captured graph by category, read from the",
            "graphs themselves (LIBREYOLO_GRAPH_DOT, bench/graph_dot_kernels.py). In capture order: the forward",
            "with fuse off, with fuse on, then end-to-end predict's graphs (fuse off, on).", "",
            "| graph | kernels | by category | most frequent |", "|---|---:|---|---|"]
    for r in dots:
        cats = "; ".join(f"{k} {v}" for k, v in sorted(r["categories"].items(), key=lambda kv: -kv[1]))
        top = "; ".join(f"{n} ×{c}" for n, c in r["top"][:4])
        out.append(f"| {r['graph']} | {r['kernels']} | {cats} | {top} |")
prof = rows("profile-forward.jsonl")
if prof:
    out += ["", "## Where a graphed forward's GPU time goes", "",
            "LibreYOLO 1.6.0's network (BatchNorm folded, RepConvN unmerged), captured and replayed under the",
            "profiler (bench/profile_forward_kernels.py), batch 1: kernels per replay and their GPU time by category.", "",
            "| model | dtype | layout | graph ms | kernels | kernel ms | by category (count, ms) |",
            "|---|---|---|---:|---:|---:|---|"]
    for r in prof:
        cats = "; ".join(f"{k} {v[0]:.0f}, {v[1]:.3f}" for k, v in sorted(r["categories"].items(), key=lambda kv: -kv[1][1]))
        out.append(f"| {r['model']} | {r['dtype']} | {r['layout']} | {r['graph_ms']:.3f} | {r['kernels']:.0f} | "
                   f"{r['kernel_ms']:.3f} | {cats} |")
print("\n".join(out))
PY
