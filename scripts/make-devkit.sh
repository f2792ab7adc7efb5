#!/usr/bin/env bash
# The kit for the GPU test host (docs/testing.md, "GPU host"), which has CUDA, LibTorch and a compiler but no
# package registry: the Debian packages it lacks (Qt 6 Core/Test with moc, OpenCV core+imgproc,
# yaml-cpp, nlohmann-json, TBB, the gloo headers c10d's ProcessGroupGloo.hpp names, and their
# runtime needs; for the studio, Qt 6 Widgets with its offscreen platform, lrelease, QCustomPlot,
# the OpenGL headers Qt's CMake files ask for, and a font) downloaded as .deb files, with
# scripts/use-devkit.sh to unpack them there.
#   scripts/make-devkit.sh [--no-gui] [.devkit]   then carry .devkit; there: eval "$(bash .devkit/use-kit.sh)"
# --no-gui leaves out the studio's packages: enough for scripts/gpu-check.sh, not for gpu-studio.sh
# (the device copies at most 64 MiB: the tree and the kit together).
# .devkit/ is ignored by git.
set -euo pipefail
cd "$(dirname "$0")/.."
gui=1
if [[ ${1:-} == --no-gui ]]; then gui=0; shift; fi
dest=${1:-.devkit}
rm -rf "$dest/debs"
mkdir -p "$dest/debs"
pkgs=(
  libqt6core6 libqt6test6 qt6-base-dev qt6-base-dev-tools qmake6 qmake6-bin libqt6concurrent6
  libicu72 libdouble-conversion3 libb2-1 libpcre2-16-0 libmd4c0
  libopencv-core406 libopencv-imgproc406 libopencv-core-dev libopencv-imgproc-dev
  libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15 libtbb-dev
  nlohmann-json3-dev libyaml-cpp0.7 libyaml-cpp-dev libgloo-dev
  libglib2.0-0 libglx0 libglvnd0 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0
)
gui_pkgs=(
  libqt6gui6 libqt6widgets6 libqt6printsupport6 libqt6dbus6 libqt6opengl6 libqt6openglwidgets6 libqt6xml6
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools libqcustomplot2.1-qt6 libqcustomplot-dev
  libgl-dev libglx-dev libopengl-dev libegl-dev libgles-dev libgl1 libegl1 libopengl0 libgles2
  libfontconfig1 fontconfig-config fonts-dejavu-core libfreetype6 libharfbuzz0b libgraphite2-3
  libpng16-16 libbrotli1 libxkbcommon0 libmd4c0 libdbus-1-3 libexpat1
)
if ((gui)); then pkgs+=("${gui_pkgs[@]}"); fi
apt-get update -qq >/dev/null 2>&1 || true
( cd "$dest/debs" && apt-get download "${pkgs[@]}" >/dev/null ) ||
  { echo "make-devkit: apt-get download failed for one of: ${pkgs[*]}" >&2; exit 1; }
# The cuDNN frontend's headers (conv_bias_act's cuDNN fusion), from its PyPI wheel: only include/.
frontend_version=$(sed -n 's/^CUDNN_FRONTEND_VERSION=//p' scripts/setup.sh)
rm -rf "$dest/cudnn-frontend" && mkdir -p "$dest/cudnn-frontend"
python3 -m pip download -q "nvidia-cudnn-frontend==$frontend_version" --no-deps --only-binary=:all: \
  --python-version 3.12 --platform manylinux_2_28_x86_64 -d "$dest/cudnn-frontend" ||
  { echo "make-devkit: could not download nvidia-cudnn-frontend==$frontend_version" >&2; exit 1; }
python3 - "$dest/cudnn-frontend" <<'PY'
import glob, sys, zipfile
dest = sys.argv[1]
wheel = glob.glob(dest + "/*.whl")[0]
with zipfile.ZipFile(wheel) as z:
    z.extractall(dest, [n for n in z.namelist() if n.startswith("include/")])
PY
rm -f "$dest"/cudnn-frontend/*.whl
cp scripts/use-devkit.sh "$dest/use-kit.sh"
chmod +x "$dest/use-kit.sh"
du -sh "$dest"
