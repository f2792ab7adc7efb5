#!/usr/bin/env bash
# Reproduces resources/models/yolo9t-shapes.safetensors (docs/demo-model.md):
#   1. render the synthetic dataset with our `libreyolo synth` (seed 0),
#   2. train YOLOv9-t on it with LibreYOLO 1.6.0's own trainer (a GPU makes this minutes),
#   3. import the best checkpoint with `libreyolo convert`.
# Run from the repo root after scripts/build.sh. DEVICE=cpu works too, slowly (~95 s an epoch on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
DATA="${DATA:-.demodata/shapes}"
WORK="${WORK:-.demodata/train}"
PY="${PYTHON:-$(scripts/setup-parity-venv.sh)}"
[[ -f "$DATA/data.yaml" ]] || build/bin/libreyolo synth out="$DATA" n=700 imgsz=416 seed=0
"$PY" scripts/demo/train_demo_model.py "$DATA/data.yaml" "$WORK" epochs="${EPOCHS:-80}" imgsz=416 batch=32 device="${DEVICE:-0}"
build/bin/libreyolo convert "$WORK/best.pt" resources/models/yolo9t-shapes.safetensors
