#!/usr/bin/env python3
"""Where a graphed forward's GPU time goes: LibreYOLO 1.6.0's network (random init, 80 classes) with
every Conv's BatchNorm folded, as the fused path runs it, captured into one CUDA graph and replayed
under the profiler. Per dtype (float32, float16) and memory format (NCHW, channels-last NHWC): the
replay's median time (CUDA events), the kernels per forward and their summed GPU time, grouped by
what they compute (convolution, bias/activation, concatenation, layout transposes, decode and
other element-wise work).

  python bench/profile_forward_kernels.py [model=yolo9-t] [imgsz=640] [batch=1] [runs=200] [--json]

It reads LibreYOLO's Python network, so it needs LibreYOLO's wheel (scripts/make-bench-wheels.sh).
"""
import collections
import json
import statistics

import torch
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile

from bench_args import parse_bench_args
from kernel_categories import category
from libreyolo.models.yolo9.model import LibreYOLO9


def fold_batch_norms(module: nn.Module) -> int:
    """Folds each `conv` + `bn` pair of a LibreYOLO Conv into the convolution, as our fused copy does."""
    folded = 0
    for m in module.modules():
        conv, bn = getattr(m, "conv", None), getattr(m, "bn", None)
        if isinstance(conv, nn.Conv2d) and isinstance(bn, nn.BatchNorm2d):
            m.conv = torch.nn.utils.fusion.fuse_conv_bn_eval(conv, bn)
            m.bn = nn.Identity()
            folded += 1
    return folded


def profile_config(net, x, runs: int) -> dict:
    stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream), torch.no_grad():
        for _ in range(3):
            net(x)
    torch.cuda.current_stream().wait_stream(stream)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph), torch.no_grad():
        net(x)
    for _ in range(20):
        graph.replay()
    times = []
    for _ in range(runs):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        graph.replay()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    replays = 5
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(replays):
            graph.replay()
        torch.cuda.synchronize()
    kernels = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    by_category = collections.defaultdict(lambda: [0, 0.0])
    by_name = collections.defaultdict(lambda: [0, 0.0])
    for e in kernels:
        us = e.time_range.elapsed_us()
        by_category[category(e.name)][0] += 1
        by_category[category(e.name)][1] += us
        by_name[e.name][0] += 1
        by_name[e.name][1] += us
    top = sorted(by_name.items(), key=lambda kv: -kv[1][1])[:8]
    return {
        "graph_ms": statistics.median(times),
        "kernels": len(kernels) / replays,
        "kernel_ms": sum(v[1] for v in by_category.values()) / replays / 1000,
        "categories": {k: [v[0] / replays, v[1] / replays / 1000] for k, v in by_category.items()},
        "top": [[name[:90], v[0] / replays, v[1] / replays / 1000] for name, v in top],
    }


def main() -> None:
    args, as_json = parse_bench_args({"model": "yolo9-t", "imgsz": "640", "batch": "1", "runs": "200"})
    size = args["model"].split("-")[1]
    imgsz, batch, runs = int(args["imgsz"]), int(args["batch"]), int(args["runs"])
    for dtype in (torch.float32, torch.float16):
        for channels_last in (False, True):
            wrapper = LibreYOLO9(None, size, nb_classes=80, device="cuda")
            net = wrapper.model.eval()
            folded = fold_batch_norms(net)
            fmt = torch.channels_last if channels_last else torch.contiguous_format
            net = net.to(dtype=dtype, memory_format=fmt)
            x = torch.rand(batch, 3, imgsz, imgsz, device="cuda", dtype=dtype).contiguous(memory_format=fmt)
            row = {"model": args["model"], "batch": batch, "dtype": str(dtype).replace("torch.", ""),
                   "layout": "NHWC" if channels_last else "NCHW", "folded": folded}
            row.update(profile_config(net, x, runs))
            print(json.dumps(row) if as_json else row, flush=True)


if __name__ == "__main__":
    main()
