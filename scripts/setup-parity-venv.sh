#!/usr/bin/env bash
# A scratch venv with LibreYOLO's own Python package (libreyolo==1.6.0, torch 2.11.0), for the
# parity fixtures (scripts/fixtures/) and the side-by-side benchmarks (bench/*.py).
# Lives at $LIBREYOLO_PARITY_VENV (default ~/.cache/libreyolo-studio/parity-venv); tests never need it.
set -euo pipefail
VENV="${LIBREYOLO_PARITY_VENV:-$HOME/.cache/libreyolo-studio/parity-venv}"
if [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" -c "import libreyolo, torch; assert libreyolo.__version__ == '1.6.0'" 2>/dev/null; then
  echo "$VENV/bin/python"
  exit 0
fi
mkdir -p "$(dirname "$VENV")"
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check libreyolo==1.6.0 torch==2.11.0 torchvision==0.26.0 onnx==1.23.2 onnxruntime==1.32.0 >&2
echo "$VENV/bin/python"
