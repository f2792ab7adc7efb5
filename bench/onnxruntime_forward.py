#!/usr/bin/env python3
"""Forward latency of exported ONNX files under ONNX Runtime's CUDA provider: the input and the
outputs bound on the GPU (IOBinding, no host copies), median wall-clock time of `runs` calls after
`warmup` (ONNX Runtime's CUDA provider returns from a run when the GPU has finished it).

    onnxruntime_forward.py model=a.onnx,b.onnx batches=1,8 [runs=200] [warmup=30] [--json]

A file with a fixed batch runs at that batch only; a dynamic one at every batch asked for.
"""
import json
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort
import torch

from bench_args import parse_bench_args


def main() -> None:
    args, json_out = parse_bench_args({"model": "", "batches": "1,8", "runs": "200", "warmup": "30"})
    if hasattr(ort, "preload_dlls"):
        ort.preload_dlls()  # CUDA and cuDNN from the nvidia wheels beside torch
    runs, warmup = int(args["runs"]), int(args["warmup"])
    for path in filter(None, args["model"].split(",")):
        session = ort.InferenceSession(path, providers=["CUDAExecutionProvider"])
        if session.get_providers()[0] != "CUDAExecutionProvider":
            sys.exit(f"{path}: ONNX Runtime did not take the CUDA provider: {session.get_providers()}")
        image = session.get_inputs()[0]
        fixed = image.shape[0] if isinstance(image.shape[0], int) else None
        half = image.type == "tensor(float16)"
        dtype = torch.float16 if half else torch.float32
        for batch in [int(b) for b in args["batches"].split(",")]:
            if fixed is not None and batch != fixed:
                continue
            x = torch.rand((batch, 3, image.shape[2], image.shape[3]), device="cuda").to(dtype)
            binding = session.io_binding()
            binding.bind_input(image.name, "cuda", 0, np.float16 if half else np.float32, list(x.shape), x.data_ptr())
            for out in session.get_outputs():
                binding.bind_output(out.name, "cuda")
            times = []
            for i in range(warmup + runs):
                torch.cuda.synchronize()
                start = time.perf_counter()
                session.run_with_iobinding(binding)
                torch.cuda.synchronize()
                if i >= warmup:
                    times.append((time.perf_counter() - start) * 1000.0)
            ms = statistics.median(times)
            row = {"kind": "onnxruntime", "model": path, "dtype": str(dtype).replace("torch.", ""), "batch": batch,
                   "forward_ms": round(ms, 4), "onnxruntime": ort.__version__}
            if json_out:
                print(json.dumps(row), flush=True)
            else:
                print(f"{path} {row['dtype']} batch {batch}: {ms:.3f} ms (ONNX Runtime {ort.__version__}, CUDA)",
                      flush=True)


if __name__ == "__main__":
    main()
