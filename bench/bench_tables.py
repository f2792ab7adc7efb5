"""Markdown tables the bench_gpu_*.sh scripts share: the header of a dated record and the forward
table of bench_graph_inference's rows."""
import datetime
import subprocess

import torch


def measured_line(script: str) -> str:
    """"Measured <date> on one <GPU>, torch <version>, by `<script>`"."""
    gpu = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout.strip().splitlines()[0]
    return f"Measured {datetime.date.today()} on one {gpu}, torch {torch.__version__}, by `{script}`"


def forward_table(rows: list) -> list:
    """The forward rows (kind "forward") as a section: how they were timed, then the table."""
    out = ["GPU time of one forward call, bracketed by CUDA events, median of 200 calls after 20 warm-up calls.",
           "`graph` is what predict does with cuda_graph on: copy into the static input, replay, copy the",
           "output out. Capture includes three warm-up passes; pool is the memory the capture added.", "",
           "| model | dtype | batch | eager ms | graph ms | speed-up | capture ms | pool MiB |",
           "|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in (r for r in rows if r.get("kind") == "forward"):
        out.append(f"| {r['model']} | {r['dtype']} | {r['batch']} | {r['eager_ms']:.3f} | {r['graph_ms']:.3f} | "
                   f"{r['eager_ms'] / r['graph_ms']:.2f}x | {r['capture_ms']:.0f} | {r['pool_mib']:.1f} |")
    return out
