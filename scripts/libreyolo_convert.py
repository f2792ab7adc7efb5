#!/usr/bin/env python3
"""Convert a LibreYOLO .pt checkpoint into .safetensors for LibreYOLO Studio.

usage: libreyolo_convert.py IN.pt OUT.safetensors

The checkpoint is read with torch.load(weights_only=True): a LibreYOLO checkpoint is a dict of
tensors, strings and numbers, so no pickled code is ever run. The state dict becomes the tensors;
LibreYOLO's checkpoint fields (schema_version, libreyolo_version, model_family, size, task, nc,
names, imgsz) become safetensors metadata, names as a JSON object {"0": "person", ...}.
A bare state dict (no wrapper) is accepted too; the engine then reads the architecture from the
tensor shapes. YOLOv9's PGI auxiliary branch (aux.*, aux_head.*) exists only while training and is
left out, as LibreYOLO itself leaves it out of inference. The output is written to a temporary file and renamed, so it is never partial.
"""
import json
import os
import sys
import tempfile

FIELDS = ("schema_version", "libreyolo_version", "model_family", "size", "task", "nc", "imgsz")


def fail(message: str) -> None:
    print(f"error: {message}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    if len(sys.argv) != 3:
        fail("usage: libreyolo_convert.py IN.pt OUT.safetensors")
    source, target = sys.argv[1], sys.argv[2]
    try:
        import torch
        from safetensors.torch import save_file
    except ImportError as exc:
        fail(f"this Python ({sys.executable}) lacks torch or safetensors: {exc}; run scripts/setup.sh")

    try:
        checkpoint = torch.load(source, map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many kinds for corrupt or hostile pickles
        fail(f"{source}: cannot read as a LibreYOLO checkpoint: {exc}")

    if isinstance(checkpoint, dict) and isinstance(checkpoint.get("model"), dict):
        state = checkpoint["model"]
        meta = {k: str(checkpoint[k]) for k in FIELDS if checkpoint.get(k) is not None}
        names = checkpoint.get("names")
        if isinstance(names, (list, tuple)):
            names = dict(enumerate(names))
        if isinstance(names, dict):
            meta["names"] = json.dumps({str(int(k)): str(v) for k, v in names.items()})
        family = meta.get("model_family", "")
        if family in ("LibreYOLO9", "yolov9"):
            meta["model_family"] = "yolo9"
    elif isinstance(checkpoint, dict) and all(torch.is_tensor(v) for v in checkpoint.values()):
        state, meta = checkpoint, {}
    else:
        fail(f"{source}: not a LibreYOLO checkpoint (expected a dict with a 'model' state dict)")

    aux = [k for k in state if k.startswith(("aux.", "aux_head."))]
    if aux:
        print(f"leaving out {len(aux)} tensors of the training-only PGI branch (aux.*, aux_head.*)", file=sys.stderr)
    tensors = {}
    for key, value in state.items():
        if key in aux:
            continue
        if not torch.is_tensor(value):
            fail(f"{source}: state dict entry '{key}' is not a tensor")
        tensors[key] = value.detach().contiguous()
    meta["format"] = "pt"

    directory = os.path.dirname(os.path.abspath(target))
    os.makedirs(directory, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".convert-", suffix=".safetensors", dir=directory)
    os.close(fd)
    try:
        save_file(tensors, temp, metadata=meta)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temp, 0o666 & ~umask)  # mkstemp makes it private; the result is an ordinary file
        os.replace(temp, target)
    except Exception as exc:
        os.unlink(temp)
        fail(f"{target}: cannot write: {exc}")
    print(f"wrote {len(tensors)} tensors to {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
