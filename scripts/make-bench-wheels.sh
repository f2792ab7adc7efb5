#!/usr/bin/env bash
# The Python packages the GPU host lacks for the same-run LibreYOLO comparisons (bench/*.py), as
# wheels in .whl/ (ignored by git), carried with .devkit: LibreYOLO 1.6.0, pycocotools, mss,
# torchvision 0.26.0 (torch 2.11's; LibreYOLO's D-FINE and DEIM import it). The
# LibreYOLO wheel goes without the files no benchmark reads (the CLIP and SigLIP2 tokenizer
# vocabularies, the sample photographs), so that the tree, the kit and the wheels fit in what one
# device call carries.
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-python3}"
rm -rf .whl && mkdir -p .whl
"$PY" -m pip download -q libreyolo==1.6.0 --no-deps -d .whl
"$PY" -m pip download -q pycocotools mss torchvision==0.26.0 --no-deps --only-binary=:all: --python-version 3.12 \
  --platform manylinux2014_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux_2_28_x86_64 \
  --platform any -d .whl
"$PY" - .whl/libreyolo-1.6.0-py3-none-any.whl <<'PY'
import os, sys, zipfile
path = sys.argv[1]
unread = ("siglip2_tokenizer.model", "bpe_simple_vocab_16e6.txt.gz", "libreyolo/assets/")
slim = path + ".slim"
with zipfile.ZipFile(path) as src, zipfile.ZipFile(slim, "w", zipfile.ZIP_DEFLATED) as dst:
    for item in src.infolist():
        if not any(u in item.filename for u in unread):
            dst.writestr(item, src.read(item.filename))
os.replace(slim, path)
PY
du -sh .whl
