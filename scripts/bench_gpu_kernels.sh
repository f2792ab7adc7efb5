#!/usr/bin/env bash
# The kernel registry's accelerated implementations against their references, on the GPU host
# after scripts/gpu-check.sh built build-gpu/. Writes $OUT/kernels-bench.md (copied to docs/ by hand)
# and $OUT/attention-parts.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
mkdir -p "$OUT"
build-gpu/bin/bench_kernels --json > "$OUT/kernels-bench.jsonl"
build-gpu/bin/libreyolo kernels > "$OUT/kernels-report.txt"
# The attention rows twice more (their spread), then where the layer's eager time goes, launch by
# launch (docs/kernels-bench.md).
{
  for i in 1 2; do echo "repeat $i:"; build-gpu/bin/bench_kernels kernels=attention runs=200; done
  build-gpu/bin/bench_attention_parts batch=1
  build-gpu/bin/bench_attention_parts batch=8
} > "$OUT/attention-parts.txt"
"$PY" - "$OUT/kernels-bench.jsonl" "$OUT/kernels-report.txt" > "$OUT/kernels-bench.md" <<'PY'
import datetime, json, subprocess, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                     text=True).stdout.strip().splitlines()[0]
targets = {"fake_quant_fp8": 5.0, "nms": 5.0, "attention": 1.77}
out = [
    "# Kernel registry: accelerated implementations against their references",
    "",
    f"Measured {datetime.date.today()} on one {gpu}, LibTorch {rows[0]['libtorch']}, by",
    "`scripts/bench_gpu_kernels.sh` (`bench_kernels`, after `scripts/gpu-check.sh` built build-gpu/).",
    "Median of 50 runs after 10 warm-up runs. fake_quant_fp8: the reference is its torch operations",
    "on the same GPU tensors, timed with CUDA events like the CUDA kernel; each output is checked",
    "equal to the reference's. nms: the portable NMS gets host tensors (as prediction gave it before",
    "the CUDA plugin) and is timed with the host clock; the CUDA plugin gets device tensors, CUDA",
    "events; the kept indices are checked equal. attention: one AIFI-shaped layer (query = key =",
    "src + pos, value = src, in- and out-projections included; batch-first float16 tensors, as the",
    "model's AIFI layer gets them under float16 autocast), manual equation (reference) against",
    "SDPA on two modules with the same weights, timed in alternation run after run, launched eagerly",
    "(an inference forward: autograd off) and replayed from a CUDA graph (what a graphed model runs:",
    "GPU work without the host's launch cost). ms_deform_attn: RT-DETR-r18's decoder",
    "at 640 (300 queries, three levels of 8,400 cells, 8 heads of 32 channels, 4 points a level), the",
    "grid_sample reference against the CUDA kernels, forward alone and forward + backward; the CUDA",
    "forward is checked within 1e-5 of the reference's.",
    "",
    "| kernel | input | accelerated implementation | reference ms | accelerated ms | speed-up | target | met |",
    "|---|---|---|---:|---:|---:|---:|---|",
]
for r in rows:
    t = targets.get(r["kernel"])
    target, met = (f"{t:g}x", "yes" if r["speedup"] >= t else "no") if t else ("–", "–")
    out.append(f"| {r['kernel']} | {r['shape']} | {r['impl']} | {r['reference_ms']:.3f} | {r['accelerated_ms']:.3f} | "
               f"{r['speedup']:.1f}x | {target} | {met} |")
out += ["", "`libreyolo kernels` on that machine:", "", "```", open(sys.argv[2]).read().rstrip(), "```"]
print("\n".join(out))
PY
cat "$OUT/kernels-bench.md"
