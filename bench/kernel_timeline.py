#!/usr/bin/env python3
"""Where a graphed forward's GPU time goes, from bench_forward_kernel_timeline's --json rows: per model,
the replay's span, the time some kernel runs and the time the GPU waits between dependent kernels,
the kernels by category (count, summed µs, median µs) and the longest kernels.

  python bench/kernel_timeline.py <rows.jsonl> [--top 15]   (Markdown on stdout)
"""
import collections
import json
import statistics
import sys

from kernel_categories import category


def main() -> int:
    args = sys.argv[1:]
    top = 15
    if "--top" in args:
        i = args.index("--top")
        top = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    rows = [json.loads(l) for l in open(args[0]) if l.strip().startswith("{")]
    summaries = [r for r in rows if r["kind"] == "summary"]
    out = ["| model | dtype | batch | fuse | kernels | span µs | kernel µs (summed) | busy µs | idle µs | streams |",
           "|---|---|---:|---|---:|---:|---:|---:|---:|---:|"]
    for s in summaries:
        out.append(f"| {s['model']} | {s['dtype']} | {s['batch']} | {str(s['fuse']).lower()} | {s['kernels']} | "
                   f"{s['span_us']:.1f} | {s['kernel_us']:.1f} | {s['busy_us']:.1f} | {s['idle_us']:.1f} | "
                   f"{s['streams']} |")
    for s in summaries:
        run = (s["model"], s["dtype"], s["batch"], s["fuse"])
        kernels = [r for r in rows if r["kind"] == "kernel" and
                   (r["model"], r.get("dtype", s["dtype"]), r.get("batch", s["batch"]), r["fuse"]) == run]
        by = collections.defaultdict(list)
        for k in kernels:
            by[category(k["name"])].append(k["us"])
        out += ["", f"{s['model']} {s['dtype']} batch {s['batch']}, fuse={str(s['fuse']).lower()}: kernels by category", "",
                "| category | count | summed µs | median µs |", "|---|---:|---:|---:|"]
        for cat, us in sorted(by.items(), key=lambda kv: -sum(kv[1])):
            out.append(f"| {cat} | {len(us)} | {sum(us):.1f} | {statistics.median(us):.2f} |")
        out += ["", "| longest kernels | µs | offset µs | stream |", "|---|---:|---:|---:|"]
        for k in sorted(kernels, key=lambda k: -k["us"])[:top]:
            out.append(f"| {k['name'][:110]} | {k['us']:.2f} | {k['offset_us']:.1f} | {k['stream']} |")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
