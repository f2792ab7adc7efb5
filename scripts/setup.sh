#!/usr/bin/env bash
# Installs what LibreYOLO Studio needs and is missing; fast when everything is present.
#   Debian packages: Qt 6, QCustomPlot (Qt 6 build), the four OpenCV modules the engine links (not
#   libopencv-dev, which pulls in every module with VTK and GDAL; cmake/LibreyoloOpenCV.cmake finds
#   them without its CMake file), yaml-cpp, nlohmann-json, gloo headers, ONNX and protobuf (ONNX
#   export), ninja, ccache, Xvfb
#   A Python venv outside the repo with torch==2.11.0 (LibTorch for CMake), numpy, safetensors,
#   onnxruntime (the tests run exported files with it).
# The venv lives at $LIBREYOLO_VENV (default ~/.cache/libreyolo-studio/venv).
set -euo pipefail

TORCH_VERSION="${LIBREYOLO_TORCH_VERSION:-2.11.0}"
# The header-only cuDNN frontend (the fused convolutions of fuse=true on NVIDIA GPUs) is installed beside torch.
CUDNN_FRONTEND_VERSION=1.32.0
ONNXRUNTIME_VERSION=1.32.0  # the tests run exported ONNX files with it (CPU)
VENV="${LIBREYOLO_VENV:-${HOME:-/root}/.cache/libreyolo-studio/venv}"
DEBIAN_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
  libqcustomplot-dev libqcustomplot2.1-qt6
  libopencv-core-dev libopencv-imgproc-dev libopencv-imgcodecs-dev libopencv-videoio-dev
  libyaml-cpp-dev nlohmann-json3-dev libcurl4-openssl-dev libgloo-dev libonnx-dev libprotobuf-dev
  xvfb xauth python3-venv
)

log() { printf '[setup] %s\n' "$*"; }

missing=()
for pkg in "${DEBIAN_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done
if ((${#missing[@]})); then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  log "installing Debian packages: ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

venv_ok() {
  [[ -x "$VENV/bin/python" ]] && "$VENV/bin/python" - "$TORCH_VERSION" <<'PY' 2>/dev/null
import os, sys, torch, numpy, safetensors, onnxruntime
frontend = os.path.join(os.path.dirname(torch.__file__), "..", "include", "cudnn_frontend.h")
sys.exit(0 if torch.__version__.split("+")[0] == sys.argv[1] and os.path.exists(frontend) else 1)
PY
}

if ! venv_ok; then
  PYTHON="${LIBREYOLO_BASE_PYTHON:-$(command -v python3)}"
  log "creating venv $VENV with torch==$TORCH_VERSION (this downloads LibTorch once)"
  mkdir -p "$(dirname "$VENV")"
  [[ -x "$VENV/bin/python" ]] || "$PYTHON" -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "torch==$TORCH_VERSION" numpy safetensors "onnxruntime==$ONNXRUNTIME_VERSION"
  # Only its headers are read: its Python side's dependencies (CUTLASS DSL, TVM FFI) are not wanted.
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check --no-deps \
    "nvidia-cudnn-frontend==$CUDNN_FRONTEND_VERSION"
  venv_ok || { log "torch $TORCH_VERSION is not importable from $VENV"; exit 1; }
fi
log "ready: venv $VENV (torch $("$VENV/bin/python" -c 'import torch; print(torch.__version__)'))"
