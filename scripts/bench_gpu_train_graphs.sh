#!/usr/bin/env bash
# CUDA graphs in training, on the GPU host after scripts/gpu-check.sh built build-gpu/:
#  1. step time eager vs graph replaying one real batch (bench_train_graph_step: yolo9 t and s,
#     batch 2/8/16, 640, AMP), with peak memory and the network's share of a step;
#     LibreYOLO 1.6.0's own trainer loop timed the same way (bench/libreyolo_train_graph_step.py);
#  2. an end-to-end fine-tune of YOLOv9-t from the demo model's weights on a fresh synthetic set,
#     eager vs --cuda-graph, same seed (`libreyolo train`), and LibreYOLO 1.6.0's trainer with
#     cuda_graph False/True on the same data and weights.
# Writes $OUT/graph-training-bench.md (copied to docs/ by hand).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu/out}"
PY="${PYTHON:-python3}"
BIN=build-gpu/bin
EPOCHS="${EPOCHS:-10}"
mkdir -p "$OUT"
SITE=/tmp/libreyolo-site
[[ -d "$SITE/libreyolo" ]] || "$PY" -m pip install -q --no-index --no-deps --target "$SITE" .whl/*.whl
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
"$BIN/libreyolo" synth out="$WORK/shapes" n=400 imgsz=640 seed=7 format=bmp >/dev/null
DATA="$WORK/shapes/data.yaml"
WEIGHTS=resources/models/yolo9t-shapes.safetensors

"$BIN/bench_train_graph_step" data="$DATA" --json > "$OUT/train-graph-step.jsonl" 2>"$OUT/train-graph-step.log"
PYTHONPATH="$SITE:bench" "$PY" bench/libreyolo_train_graph_step.py data="$DATA" sizes=t batches=2,8,16 \
  project="$WORK/libreyolo-step" --json > "$OUT/libreyolo-graph-step.jsonl" 2>"$OUT/libreyolo-graph-step.log" || true

finetune_ours() {  # name, extra flags
  local start end
  start=$(date +%s.%N)
  "$BIN/libreyolo" train model="$WEIGHTS" data="$DATA" epochs="$EPOCHS" batch=8 imgsz=640 workers=8 device=cuda \
    seed=0 project="$WORK/ours" name="$1" "${@:2}" > "$OUT/finetune-ours-$1.log" 2>&1
  end=$(date +%s.%N)
  echo "{\"impl\": \"libreyolo-studio\", \"cuda_graph\": $([[ $1 == graph ]] && echo true || echo false), \"wall_seconds\": $("$PY" -c "print($end - $start)"), \"results\": \"$WORK/ours/$1/results.csv\"}"
}
{
  finetune_ours eager
  finetune_ours graph --cuda-graph
  for g in false true; do
    PYTHONPATH="$SITE:bench" "$PY" bench/libreyolo_train_finetune.py weights="$WEIGHTS" data="$DATA" epochs="$EPOCHS" \
      batch=8 imgsz=640 workers=8 cuda_graph=$g project="$WORK/libreyolo" --json 2>"$OUT/finetune-libreyolo-$g.log" \
      | tail -1 || echo "{\"impl\": \"LibreYOLO 1.6.0\", \"cuda_graph\": $g, \"failed\": true}"
  done
} > "$OUT/finetune.jsonl"
grep -h "cuda_graph" "$OUT"/finetune-ours-graph.log > "$OUT/finetune-ours-graph-lines.txt" || true

"$PY" - "$OUT/train-graph-step.jsonl" "$OUT/finetune.jsonl" "$EPOCHS" "$OUT/libreyolo-graph-step.jsonl" > "$OUT/graph-training-bench.md" <<'PY'
import csv, datetime, json, subprocess, sys
import torch
steps = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
runs = [json.loads(l) for l in open(sys.argv[2]) if l.strip()]
gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                     text=True).stdout.strip().splitlines()[0]
out = [
    "# CUDA graphs for training: benchmark",
    "",
    f"Measured {datetime.date.today()} on one {gpu}, torch {torch.__version__}, by",
    "`scripts/bench_gpu_train_graphs.sh` (after `scripts/gpu-check.sh` built build-gpu/).",
    "",
    "## Step time",
    "",
    "`bench_train_graph_step`: one real batch (synthetic shapes at 640 through the training loader)",
    "replayed, so data loading is out of the loop; a step is forward (float16 autocast), loss, scaled",
    "backward, GradScaler, SGD and EMA. Fastest of 24 steps after 5 warm-up steps, CUDA events.",
    "`network` is the eager network's own forward and backward, the ceiling of what a graph can",
    "save; peak is the CUDA caching allocator's peak allocation of each arm (the graph arm includes",
    "its capture).",
    "",
    "| model | batch | eager step ms | graph step ms | speed-up | network ms | network share | eager peak MiB | graph peak MiB | capture ms |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
]
for r in steps:
    out.append(f"| {r['model']} | {r['batch']} | {r['eager_step_ms']:.2f} | {r['graph_step_ms']:.2f} | "
               f"{r['eager_step_ms'] / r['graph_step_ms']:.2f}x | {r['network_ms']:.2f} | "
               f"{100 * r['network_ms'] / r['eager_step_ms']:.0f} % | {r['eager_peak_mib']:.0f} | "
               f"{r['graph_peak_mib']:.0f} ({100 * (r['graph_peak_mib'] / r['eager_peak_mib'] - 1):+.0f} %) | "
               f"{r['capture_ms']:.0f} |")
theirs = {}
for line in open(sys.argv[4]):
    if line.strip():
        r = json.loads(line)
        theirs[(r["model"], r["batch"], r["cuda_graph"])] = r
out += [
    "",
    "### Against LibreYOLO Python's step",
    "",
    "`bench/libreyolo_train_graph_step.py`: LibreYOLO 1.6.0's own trainer loop (`_train_epoch`, set up",
    "by its `train()`, validation skipped) fed one batch of its own loader already on the GPU, eager",
    "and with `cuda_graph=True` (its `make_graphed_callables` manager); a step is the interval between",
    "two batch requests (CUDA events; its loop reads the loss back every step). Fastest of 24 after 5",
    "warm-up steps, as ours. Its step also holds its per-step loss read-back and LR update.",
    "",
    "| model | batch | LibreYOLO eager ms | LibreYOLO graph ms | ours eager ms | ours graph ms | ours graph vs LibreYOLO graph |",
    "|---|---:|---:|---:|---:|---:|---:|",
]
for r in steps:
    e, g = theirs.get((r["model"], r["batch"], False)), theirs.get((r["model"], r["batch"], True))
    if not e or not g:
        continue
    captured = "" if g.get("captured") else " (not captured)"
    out.append(f"| {r['model']} | {r['batch']} | {e['step_ms']:.2f} | {g['step_ms']:.2f}{captured} | "
               f"{r['eager_step_ms']:.2f} | {r['graph_step_ms']:.2f} | {g['step_ms'] / r['graph_step_ms']:.2f}x |")
if not theirs:
    out.append("| LibreYOLO's step failed: see libreyolo-graph-step.log | | | | | | |")
out += [
    "",
    "## End-to-end fine-tune",
    "",
    f"YOLOv9-t from the demo model's weights, {sys.argv[3]} epochs on a fresh synthetic set (`libreyolo synth",
    "n=400 imgsz=640 seed=7 format=bmp`: 320 train images), batch 8, 640, AMP, 8 loader workers, seed 0,",
    "validation every epoch; wall time of the whole run. Ours: `libreyolo train` with and without",
    "`--cuda-graph`; LibreYOLO 1.6.0: its trainer with `cuda_graph=False/True` (aux_weight 0, same",
    "weights). Losses are each trainer's own `train/loss` column (LibreYOLO's scale differs from ours).",
    "",
    "| implementation | cuda_graph | wall s | speed-up | final mAP50-95 | loss per epoch |",
    "|---|---|---:|---:|---:|---|",
]
base = {}
for r in runs:
    if r.get("failed"):
        out.append(f"| {r['impl']} | {r['cuda_graph']} | failed (see finetune-libreyolo-*.log) | | | |")
        continue
    rows = list(csv.DictReader(open(r["results"])))
    losses = ", ".join(f"{float(x['train/loss']):.4f}" for x in rows)
    final = float(rows[-1]["current_metric"]) if rows[-1].get("current_metric") else float("nan")
    key = r["impl"].split()[0]
    speed = ""
    if not r["cuda_graph"]:
        base[key] = r["wall_seconds"]
    elif key in base:
        speed = f"{base[key] / r['wall_seconds']:.2f}x"
    out.append(f"| {r['impl']} | {str(r['cuda_graph']).lower()} | {r['wall_seconds']:.1f} | {speed} | {final:.4f} | {losses} |")
print("\n".join(out))
PY
cat "$OUT/graph-training-bench.md"
