#!/usr/bin/env bash
# Reproduces resources/models/yolo9t-shapes.safetensors (docs/demo-model.md) with our own trainer:
#   1. render the synthetic dataset with `libreyolo synth` (seed 0),
#   2. train YOLOv9-t on it from scratch with `libreyolo train` (LibreYOLO's recipe, seed 0),
#   3. copy the best checkpoint (EMA weights) into resources/ and its results.csv into docs/.
# Run from the repo root after scripts/build.sh. On the GPU host (no image codecs there):
#   BIN=build-gpu/bin FORMAT=bmp scripts/demo/make_demo_model.sh
# DEVICE=cpu works too, slowly (about 100 s an epoch on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN="${BIN:-build/bin}"
DATA="${DATA:-.demodata/shapes}"
WORK="${WORK:-.demodata/train}"
[[ -f "$DATA/data.yaml" ]] || "$BIN/libreyolo" synth out="$DATA" n=700 imgsz=416 seed=0 format="${FORMAT:-jpg}"
"$BIN/libreyolo" train model=yolo9-t pretrained=false data="$DATA/data.yaml" epochs="${EPOCHS:-80}" imgsz=416 batch=32 \
  device="${DEVICE:-cuda}" workers=8 seed=0 eval_interval=5 project="$WORK" name=demo exist_ok=true
cp "$WORK/demo/weights/best.safetensors" resources/models/yolo9t-shapes.safetensors
cp "$WORK/demo/results.csv" docs/demo-model-training.csv
