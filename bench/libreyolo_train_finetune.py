#!/usr/bin/env python3
"""LibreYOLO (Python) side of the training-graph fine-tune: YOLOv9-t from the weights in a
.safetensors file (the studio's demo model; LibreYOLO's own state_dict names), trained with
LibreYOLO's trainer, cuda_graph off or on. Prints the wall time of train() and the results.csv path.

  python bench/libreyolo_train_finetune.py weights=FILE data=YAML epochs=10 batch=8 imgsz=640 \
      workers=8 cuda_graph=true project=DIR [--json]

The PGI auxiliary branch is off (aux_weight=0) so both sides train the same network.
"""
import json
import os
import struct
import time

import torch

import libreyolo
from bench_args import parse_bench_args
from libreyolo.models.yolo9.model import LibreYOLO9

DTYPES = {"F32": torch.float32, "F16": torch.float16, "I64": torch.int64, "I32": torch.int32}


def read_safetensors(path: str) -> dict:
    """The tensors of a .safetensors file (the format is a length-prefixed JSON header + raw data)."""
    with open(path, "rb") as f:
        blob = f.read()
    (header_len,) = struct.unpack("<Q", blob[:8])
    header = json.loads(blob[8:8 + header_len])
    data = blob[8 + header_len:]
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        start, end = entry["data_offsets"]
        raw = bytearray(data[start:end])
        tensors[name] = torch.frombuffer(raw, dtype=DTYPES[entry["dtype"]]).reshape(entry["shape"]).clone()
    return tensors


def main() -> None:
    args, as_json = parse_bench_args({"weights": "", "data": "", "epochs": "10", "batch": "8", "imgsz": "640",
                                      "workers": "8", "cuda_graph": "false", "project": "", "seed": "0"})
    import yaml
    names = yaml.safe_load(open(args["data"]))["names"]
    model = LibreYOLO9(None, "t", nb_classes=len(names), device="cuda")
    missing, unexpected = model.model.load_state_dict(read_safetensors(args["weights"]), strict=False)
    if unexpected or [k for k in missing if "aux" not in k]:
        raise SystemExit(f"weights do not fit LibreYOLO's yolo9-t: missing {missing}, unexpected {unexpected}")
    name = "graph" if args["cuda_graph"] == "true" else "eager"
    started = time.perf_counter()
    model.train(data=args["data"], epochs=int(args["epochs"]), batch=int(args["batch"]), imgsz=int(args["imgsz"]),
                device="cuda", workers=int(args["workers"]), project=args["project"], name=name, exist_ok=True,
                aux_weight=0.0, seed=int(args["seed"]), amp=True, cuda_graph=args["cuda_graph"] == "true")
    seconds = time.perf_counter() - started
    row = {"impl": f"LibreYOLO {libreyolo.__version__} (torch {torch.__version__})",
           "cuda_graph": args["cuda_graph"] == "true", "wall_seconds": seconds,
           "results": os.path.join(args["project"], name, "results.csv")}
    print(json.dumps(row) if as_json else row)


if __name__ == "__main__":
    main()
