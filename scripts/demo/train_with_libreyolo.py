#!/usr/bin/env python3
"""The demo model's recipe run by LibreYOLO's own YOLOv9-t trainer, for comparison with ours
(docs/demo-model.md; the first demo model was made this way, before our trainer existed).

    libreyolo synth out=.demodata/shapes n=700 imgsz=416 seed=0
    python scripts/demo/train_with_libreyolo.py .demodata/shapes/data.yaml OUT_DIR [epochs=80 imgsz=416 batch=32 device=0]
    libreyolo convert OUT_DIR/best.pt OUT_DIR/best.safetensors

Needs a Python with libreyolo==1.6.0 (scripts/setup-parity-venv.sh makes one; on the GPU host the
wheel travels along). The recipe is LibreYOLO's defaults, from scratch (no pretrained weights), seed 0.
Writes OUT_DIR/best.pt (LibreYOLO checkpoint), OUT_DIR/results.csv and OUT_DIR/metrics.json.
"""
import json
import os
import shutil
import sys
import tempfile

import yaml


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    data_yaml, out_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    opts = {"epochs": "80", "imgsz": "416", "batch": "32", "device": "0", "workers": "8"}
    for arg in sys.argv[3:]:
        key, _, value = arg.partition("=")
        if key not in opts:
            sys.exit(f"unknown option {key!r}")
        opts[key] = value
    os.makedirs(out_dir, exist_ok=True)

    # The dataset may have been rendered on another machine: point `path` at where it is now.
    with open(data_yaml) as f:
        config = yaml.safe_load(f)
    config["path"] = os.path.dirname(data_yaml)
    fd, local_yaml = tempfile.mkstemp(suffix=".yaml")
    with os.fdopen(fd, "w") as f:
        yaml.safe_dump(config, f)

    from libreyolo.models.yolo9.model import LibreYOLO9

    model = LibreYOLO9(None, "t", nb_classes=len(config["names"]), device=opts["device"])
    project = os.path.join(out_dir, "runs")
    results = model.train(data=local_yaml, epochs=int(opts["epochs"]), batch=int(opts["batch"]),
                          imgsz=int(opts["imgsz"]), device=opts["device"], workers=int(opts["workers"]),
                          seed=0, project=project, name="demo", exist_ok=True, pretrained=False)
    run = os.path.join(project, "demo")
    shutil.copy(os.path.join(run, "weights", "best.pt"), os.path.join(out_dir, "best.pt"))
    if os.path.exists(os.path.join(run, "results.csv")):
        shutil.copy(os.path.join(run, "results.csv"), os.path.join(out_dir, "results.csv"))
    summary = {k: v for k, v in results.items() if isinstance(v, (int, float, str))}
    with open(os.path.join(out_dir, "metrics.json"), "w") as f:
        json.dump({"options": opts, "results": summary}, f, indent=1)
    print(json.dumps(summary))


if __name__ == "__main__":
    main()
