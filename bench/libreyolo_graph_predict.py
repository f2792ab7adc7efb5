#!/usr/bin/env python3
"""LibreYOLO (Python) counterpart of bench_graph_inference's end-to-end rows: a model (random
init, 80 classes; YOLOv9-t unless told) predicting one in-memory 640x480 image at imgsz (640)
on CUDA, with cuda_graph False and True; the median wall time of `runs` calls after
`warmup`.

  python bench/libreyolo_graph_predict.py [model=yolo9-t|yolox-s|dfine-n|deim-s|...] [dtype=float32|float16] \
      [imgsz=640] [runs=200] [warmup=20] [--json]

float16 converts LibreYOLO's network with .half(); a configuration LibreYOLO refuses is reported
as an error row instead of a time.
"""
import json
import statistics
import time

import numpy as np
import torch

import libreyolo
from bench_args import parse_bench_args
from libreyolo.models.deim.model import LibreDEIM
from libreyolo.models.dfine.model import LibreDFINE
from libreyolo.models.yolo9.model import LibreYOLO9
from libreyolo.models.yolox.model import LibreYOLOX

FAMILIES = {"yolo9": LibreYOLO9, "yolox": LibreYOLOX, "dfine": LibreDFINE, "deim": LibreDEIM}


def main() -> None:
    args, as_json = parse_bench_args({"model": "yolo9-t", "dtype": "float32", "imgsz": "640", "runs": "200",
                                      "warmup": "20"})
    family, size = args["model"].split("-")
    imgsz = int(args["imgsz"])
    runs, warmup = int(args["runs"]), int(args["warmup"])
    # The same pixels as bench_graph_inference's in-memory image.
    pixels = (np.arange(640 * 480 * 3, dtype=np.int64) * 7919 % 251).astype(np.uint8).reshape(480, 640, 3)
    for cuda_graph in (False, True):
        model = FAMILIES[family](None, size, nb_classes=80, device="cuda")
        model.model.eval()
        if args["dtype"] == "float16":
            model.model.half()
        row = {"impl": f"LibreYOLO {libreyolo.__version__} (torch {torch.__version__})", "size": size,
               "model": args["model"],
               "dtype": args["dtype"], "cuda_graph": cuda_graph}
        try:
            times = []
            for i in range(warmup + runs):
                t0 = time.perf_counter()
                model(pixels, imgsz=imgsz, conf=0.25, cuda_graph=cuda_graph, color_format="rgb")
                torch.cuda.synchronize()
                if i >= warmup:
                    times.append((time.perf_counter() - t0) * 1000)
            row["end_to_end_ms"] = statistics.median(times)
        except Exception as e:  # noqa: BLE001 - the row says what LibreYOLO refused
            row["error"] = f"{type(e).__name__}: {e}"[:200]
        print(json.dumps(row) if as_json else row, flush=True)


if __name__ == "__main__":
    main()
