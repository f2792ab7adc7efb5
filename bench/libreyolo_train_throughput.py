#!/usr/bin/env python3
"""LibreYOLO (Python) counterpart of bench_train_throughput: YOLOv9-t from scratch for two epochs;
the second epoch's time from LibreYOLO's results.csv ('time' column), data loading included.

  python bench/libreyolo_train_throughput.py data=YAML imgsz=320 batch=16 workers=2 device=cpu \
      [amp=false] [aux_weight=0] [--json]

By default the PGI auxiliary branch is switched off (aux_weight=0) so both sides train the same
network (LibreYOLO's own default is 0.25). Validation is off (eval_interval=0) because LibreYOLO's
"time" of an epoch includes its validation; bench_train_throughput leaves validation out too.
"""
import csv
import json
import os
import tempfile

import torch

import libreyolo
from bench_args import parse_bench_args
from libreyolo.models.yolo9.model import LibreYOLO9


def main() -> None:
    args, as_json = parse_bench_args({"data": "", "imgsz": "320", "batch": "16", "workers": "2", "device": "cpu",
                                      "amp": "false", "aux_weight": "0"})
    import yaml
    names = yaml.safe_load(open(args["data"]))["names"]
    project = tempfile.mkdtemp(prefix="libreyolo-bench-")
    model = LibreYOLO9(None, "t", nb_classes=len(names), device=args["device"])
    model.train(data=args["data"], epochs=2, batch=int(args["batch"]), imgsz=int(args["imgsz"]),
                device=args["device"], workers=int(args["workers"]), project=project, name="bench",
                exist_ok=True, pretrained=False, aux_weight=float(args["aux_weight"]), eval_interval=0,
                amp=args["amp"] == "true")
    rows = list(csv.DictReader(open(os.path.join(project, "bench", "results.csv"))))
    seconds = float(rows[1]["time"])
    images = len(os.listdir(os.path.join(os.path.dirname(os.path.abspath(args["data"])), "images", "train")))
    row = {"impl": f"LibreYOLO {libreyolo.__version__} (torch {torch.__version__})", "imgsz": int(args["imgsz"]),
           "batch": int(args["batch"]), "device": args["device"], "amp": args["amp"] == "true",
           "aux_weight": float(args["aux_weight"]), "epoch_seconds": seconds, "images": images}
    print(json.dumps(row) if as_json else row)


if __name__ == "__main__":
    main()
