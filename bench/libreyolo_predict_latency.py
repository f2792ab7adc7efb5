#!/usr/bin/env python3
"""LibreYOLO (Python) counterpart of bench_predict_latency: the same stages, timed the same way.

  python bench/libreyolo_predict_latency.py weights=W.safetensors source=IMG imgsz=640 runs=30 warmup=5 [--json]

pre   = LibreYOLO's preprocess_numpy on the decoded RGB image + torch.from_numpy (letterbox, /255)
infer = LibreYOLO9Model forward in eval mode under torch.inference_mode
post  = LibreYOLO's yolo9 postprocess (candidates, NMS, scale back)
end-to-end = decode the file (cv2) + the three stages.
The weights are loaded into LibreYOLO's own LibreYOLO9Model, so both sides run the same numbers.
"""
import json
import statistics
import time

import cv2
import torch
from safetensors.torch import load_file

import libreyolo
from bench_args import parse_bench_args
from libreyolo.models.yolo9.nn import LibreYOLO9Model
from libreyolo.postprocess.yolo9 import postprocess
from libreyolo.preprocess.yolo9 import preprocess_numpy


def main() -> None:
    args, as_json = parse_bench_args({"weights": "", "source": "", "imgsz": "640", "runs": "30", "warmup": "5",
                                      "conf": "0.25"})
    imgsz, runs, warmup, conf = int(args["imgsz"]), int(args["runs"]), int(args["warmup"]), float(args["conf"])

    model = LibreYOLO9Model(config="t", nb_classes=80)
    model.load_state_dict(load_file(args["weights"]))
    model.eval()

    pre, infer, post, total = [], [], [], []
    boxes = 0
    for i in range(warmup + runs):
        t0 = time.perf_counter()
        bgr = cv2.imread(args["source"], cv2.IMREAD_COLOR)
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        t1 = time.perf_counter()
        chw, _ratio = preprocess_numpy(rgb, imgsz)
        x = torch.from_numpy(chw).unsqueeze(0)
        t2 = time.perf_counter()
        with torch.inference_mode():
            out = model(x)
        t3 = time.perf_counter()
        result = postprocess(out, conf_thres=conf, iou_thres=0.45, input_size=imgsz,
                             original_size=(rgb.shape[1], rgb.shape[0]), max_det=300)
        t4 = time.perf_counter()
        if i < warmup:
            continue
        pre.append((t2 - t1) * 1e3)
        infer.append((t3 - t2) * 1e3)
        post.append((t4 - t3) * 1e3)
        total.append((t4 - t0) * 1e3)
        boxes = result["num_detections"]

    row = {"impl": f"LibreYOLO {libreyolo.__version__} (torch {torch.__version__})", "model": "yolo9-t",
           "imgsz": imgsz, "device": "cpu", "runs": runs, "boxes": boxes,
           "pre_ms": statistics.median(pre), "infer_ms": statistics.median(infer),
           "post_ms": statistics.median(post), "end_to_end_ms": statistics.median(total)}
    if as_json:
        print(json.dumps(row))
    else:
        print(row)


if __name__ == "__main__":
    main()
