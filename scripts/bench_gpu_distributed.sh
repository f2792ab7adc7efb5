#!/usr/bin/env bash
# Distributed scaling on a host with two GPUs (the nvidia-h200-x2 kind), after scripts/gpu-check.sh
# built build-gpu/ (the CLI is all it runs: `ninja -C build-gpu libreyolo` is enough). Writes
# $OUT/distributed.md (copied to docs/distributed.md by hand) and $OUT/distributed-runs.tar.gz (each
# run's log, results.csv and distributed.json). EPOCHS and N shorten it.
#   1. Throughput: MODELS (yolo9-t yolo9-s) from scratch at IMGSZ (640), AMP, each global batch of
#      BATCHES (16 32), on one GPU and on all of DEVICES (0,1): epoch time (the median of the epochs
#      before the last; only the last validates), images/s and scaling efficiency (images/s on N GPUs
#      / (N x images/s on one)); for the multi-GPU runs, each rank's share of its step time spent
#      waiting for the gradient all-reduce after backward, its peak memory (distributed.json) and the
#      weights' SHA-256 that every rank printed. Distributed runs train eager, as LibreYOLO's do: the
#      --cuda-graph run of the first model and batch shows what the trainer says of it.
#   2. The demo recipe (scripts/demo/make_demo_model.sh: synthetic shapes, seed 0, imgsz 416, batch 32)
#      for DEMO_EPOCHS (5) epochs: twice on one GPU (seeds 0 and 1: the run-to-run spread) and once on
#      all of DEVICES (seed 0): the final mAP50-95 of each, and whether the multi-GPU one lies within
#      the spread of the two one-GPU runs around their mean.
# A dry run of the script on a CPU (every step, tiny sizes, gloo between two processes):
#   DEVICES=cpu,cpu ONE=cpu BIN=build/bin IMGSZ=64 N=24 BATCHES=8 MODELS=yolo9-t EPOCHS=3 \
#     DEMO_EPOCHS=1 DEMO_N=24 DEMO_IMGSZ=64 DEMO_BATCH=8 scripts/bench_gpu_distributed.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
BIN="${BIN:-build-gpu/bin}"
DEVICES="${DEVICES:-0,1}" ONE="${ONE:-0}"
MODELS="${MODELS:-yolo9-t yolo9-s}" BATCHES="${BATCHES:-16 32}"
EPOCHS="${EPOCHS:-4}" N="${N:-2000}" IMGSZ="${IMGSZ:-640}" WORKERS="${WORKERS:-8}"
DEMO_EPOCHS="${DEMO_EPOCHS:-5}" DEMO_N="${DEMO_N:-700}" DEMO_IMGSZ="${DEMO_IMGSZ:-416}" DEMO_BATCH="${DEMO_BATCH:-32}"
PY="${PYTHON:-python3}"
CLI="$BIN/libreyolo"
IFS=, read -r -a device_list <<< "$DEVICES"
gpus=${#device_list[@]}
if [[ $DEVICES != cpu* ]]; then
  have=$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)
  if ((have < gpus)); then echo "bench_gpu_distributed: $gpus GPUs needed, $have here" >&2; exit 1; fi
fi
WORK="$(mktemp -d)"
RUNS="$OUT/runs"
mkdir -p "$RUNS"
export NCCL_NVLS_ENABLE=0  # NVLink multicast stays off on the lent machines

"$CLI" synth out="$WORK/shapes" n="$N" imgsz="$IMGSZ" seed=0 format=bmp > /dev/null
"$CLI" synth out="$WORK/demo" n="$DEMO_N" imgsz="$DEMO_IMGSZ" seed=0 format=bmp > /dev/null

# train NAME DEVICE ARGS...: one run, its log and files kept under $RUNS/NAME.
train() {
  local name=$1 device=$2
  shift 2
  "$CLI" train pretrained=false amp=true device="$device" workers="$WORKERS" project="$WORK/runs" name="$name" \
    exist_ok=true "$@" > "$RUNS/$name.log" 2>&1 || { echo "bench_gpu_distributed: run $name failed:" >&2; tail -20 "$RUNS/$name.log" >&2; exit 1; }
  mkdir -p "$RUNS/$name"
  cp "$WORK/runs/$name/results.csv" "$RUNS/$name/"
  [[ ! -f $WORK/runs/$name/distributed.json ]] || cp "$WORK/runs/$name/distributed.json" "$RUNS/$name/"
}

first=1
for model in $MODELS; do
  for batch in $BATCHES; do
    common=(data="$WORK/shapes/data.yaml" model="$model" batch="$batch" imgsz="$IMGSZ" seed=0 eval_interval=1000)
    train "$model-b$batch-1" "$ONE" "${common[@]}" epochs="$EPOCHS"
    train "$model-b$batch-$gpus" "$DEVICES" "${common[@]}" epochs="$EPOCHS"
    if ((first)); then
      train "$model-b$batch-$gpus-graph" "$DEVICES" "${common[@]}" epochs=1 --cuda-graph
      first=0
    fi
  done
done
demo=(data="$WORK/demo/data.yaml" model=yolo9-t epochs="$DEMO_EPOCHS" batch="$DEMO_BATCH" imgsz="$DEMO_IMGSZ"
  eval_interval=5)
train demo-1-seed0 "$ONE" "${demo[@]}" seed=0
train demo-1-seed1 "$ONE" "${demo[@]}" seed=1
train "demo-$gpus-seed0" "$DEVICES" "${demo[@]}" seed=0

train_images=$(find "$WORK/shapes/images/train" -type f | wc -l)
"$PY" - "$RUNS" "$gpus" "$DEVICES" "$MODELS" "$BATCHES" "$EPOCHS" "$IMGSZ" "$train_images" "$DEMO_EPOCHS" "$DEMO_IMGSZ" "$DEMO_BATCH" > "$OUT/distributed.md.tmp" <<'PY'
import csv, datetime, json, os, re, statistics, subprocess, sys
runs, gpus, devices, models, batches, epochs, imgsz, images, demo_epochs, demo_imgsz, demo_batch = sys.argv[1:]
gpus = int(gpus)
def rows(name):
    return list(csv.DictReader(open(os.path.join(runs, name, "results.csv"))))
def epoch_seconds(name):
    table = rows(name)
    timed = table[1:-1] or table[:-1] or table  # after the first epoch, before the validating last
    return statistics.median(float(r["time"]) for r in timed)
def record(name):
    path = os.path.join(runs, name, "distributed.json")
    return json.load(open(path)) if os.path.exists(path) else None
def log(name):
    return open(os.path.join(runs, name + ".log")).read()
def digests(name):
    return sorted(set(re.findall(r"weights sha256 ([0-9a-f]{64})", log(name))))
if devices.startswith("cpu"):
    where = f"{gpus} CPU processes (a dry run of the script, gloo)"
    torch_line = ""
else:
    names = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                           text=True).stdout.splitlines()
    where = f"{gpus}x {names[0]}"
    torch_line = subprocess.run([sys.executable, "-c", "import torch; print(torch.__version__)"], capture_output=True,
                                text=True).stdout.strip()
images = int(images)  # the training split's images, each seen once an epoch
out = ["# Distributed training: scaling over GPUs", "",
       f"Measured {datetime.date.today()} on {where}" + (f", torch {torch_line}" if torch_line else "") +
       ", by `scripts/bench_gpu_distributed.sh`.", "",
       f"## Throughput: from scratch at {imgsz}, AMP, {epochs} epochs of the synthetic shapes (seed 0)", "",
       "Epoch time: the median of the epochs after the first and before the last (only the last validates).",
       "Scaling efficiency: images/s on N GPUs / (N x images/s on one). All-reduce wait: the share of a rank's",
       "step time (start of the step to its numbers on the host) spent waiting for the gradient all-reduce after",
       "backward (on CUDA: timing events on the compute stream around the wait). Peak memory: the caching",
       "allocator's peak allocated bytes of each rank's GPU (the process's peak resident set on a CPU).", "",
       "| model | global batch | GPUs | epoch s | images/s | scaling efficiency | all-reduce wait (per rank) | peak memory GiB (per rank) | weights identical |",
       "|---|---:|---:|---:|---:|---:|---|---|---|"]
for model in models.split():
    for batch in batches.split():
        one = epoch_seconds(f"{model}-b{batch}-1")
        for g in (1, gpus):
            name = f"{model}-b{batch}-{g}"
            s = epoch_seconds(name)
            rate = images / s
            rec = record(name)
            wait = mem = same = "-"
            if rec:
                wait = ", ".join(f"{r['allreduce_wait_fraction']:.1%}" for r in rec["ranks"])
                mem = ", ".join(f"{r['peak_memory_bytes'] / 2**30:.2f}" for r in rec["ranks"])
                d = digests(name)
                same = f"yes ({d[0][:12]}…, {log(name).count('weights sha256 ' + d[0])} ranks)" if len(d) == 1 else "NO"
            out.append(f"| {model} | {batch} | {g} | {s:.2f} | {rate:.0f} | {(rate / (g * images / one)):.0%} | "
                       f"{wait} | {mem} | {same} |")
graph_runs = [d for d in sorted(os.listdir(runs)) if d.endswith("-graph")]
for name in graph_runs:
    said = [l.split("train: ", 1)[-1] for l in log(name).splitlines() if "cuda_graph:" in l]
    out += ["", f"`--cuda-graph` on {gpus} ranks ({name}): " + (said[0] if said else "the trainer said nothing of the graph")]
one_a, one_b = (float(rows(f"demo-1-seed{s}")[-1]["metrics/mAP50-95(B)"]) for s in (0, 1))
multi = float(rows(f"demo-{gpus}-seed0")[-1]["metrics/mAP50-95(B)"])
mean, spread = (one_a + one_b) / 2, abs(one_a - one_b)
out += ["", f"## The demo recipe, {demo_epochs} epochs", "",
        f"scripts/demo/make_demo_model.sh's data and options (YOLOv9-t, synthetic shapes, imgsz {demo_imgsz}, batch",
        f"{demo_batch}), {demo_epochs} epochs: twice on one GPU (seeds 0 and 1) and once on {gpus} (seed 0); final mAP50-95.", "",
        "| run | mAP50-95 |", "|---|---:|",
        f"| 1 GPU, seed 0 | {one_a:.4f} |", f"| 1 GPU, seed 1 | {one_b:.4f} |", f"| {gpus} GPUs, seed 0 | {multi:.4f} |", "",
        f"{gpus} GPUs against the one-GPU mean {mean:.4f}: {multi - mean:+.4f}; the one-GPU runs' spread is {spread:.4f}: "
        + ("within it." if abs(multi - mean) <= spread else "OUTSIDE it."), ""]
print("\n".join(out))
PY
mv "$OUT/distributed.md.tmp" "$OUT/distributed.md"
# One archive: a device call brings back only a few files.
tar -czf "$OUT/distributed-runs.tar.gz" -C "$OUT" runs && rm -rf "$RUNS" "$WORK"
cat "$OUT/distributed.md"
