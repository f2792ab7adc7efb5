#!/usr/bin/env python3
"""What the captured CUDA graphs launch: reads the Graphviz files an engine run wrote with
LIBREYOLO_GRAPH_DOT=<folder> (one per captured graph, "<n>-<shape>-<dtype>.dot", in capture order)
and prints, per graph, its kernel nodes by category and the most frequent kernels.

  python bench/graph_dot_kernels.py <folder> [--json]
"""
import collections
import glob
import json
import os
import re
import subprocess
import sys

from kernel_categories import category

# A node statement: "graph_1_node_0"[style="bold" shape="octagon" label="0\n<function>\n<<<grid>>>"];
# kernel nodes are the octagons, their label's second line the (mangled) function.
NODE = re.compile(r'"graph_\d+_node_\d+"\[([^\]]*?)label="((?:[^"\\]|\\.)*)"', re.S)


def kernel_names(text: str) -> list:
    names = []
    for attributes, label in NODE.findall(text):
        if 'shape="octagon"' not in attributes:
            continue
        lines = [l.strip() for l in label.splitlines() if l.strip()]
        names.append(lines[1] if len(lines) > 1 else label)
    return demangled(names)


def demangled(names: list) -> list:
    """Readable names where binutils' c++filt is installed, else the mangled ones."""
    try:
        out = subprocess.run(["c++filt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
        readable = out.splitlines()
        return readable if len(readable) == len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names


def short(name: str) -> str:
    """The function's name without its template arguments and parameters."""
    head = re.sub(r"\(.*", "", name)
    depth, kept = 0, []
    for ch in head:
        depth += ch == "<"
        if depth == 0:
            kept.append(ch)
        depth -= ch == ">"
    return re.sub(r"^void ", "", "".join(kept))[-70:]


def summary(path: str) -> dict:
    names = kernel_names(open(path, errors="replace").read())
    by_category = collections.Counter(category(n) for n in names)
    top = collections.Counter(short(n) for n in names).most_common(10)
    return {"graph": os.path.basename(path)[:-4], "kernels": len(names), "categories": dict(by_category), "top": top}


def main() -> None:
    folder, as_json = sys.argv[1], "--json" in sys.argv
    paths = sorted(glob.glob(os.path.join(folder, "*.dot")), key=lambda p: int(os.path.basename(p).split("-")[0]))
    for p in paths:
        row = summary(p)
        print(json.dumps(row) if as_json else row)


if __name__ == "__main__":
    main()
