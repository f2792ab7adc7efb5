#!/usr/bin/env bash
# The kit for the GPU host (see README "GPU host"): shared/device/make-kit.sh's Debian packages, plus
# the ones this project needs beyond them (the gloo headers that c10d's ProcessGroupGloo.hpp names).
#   scripts/make-devkit.sh [.devkit]      then carry .devkit; there: eval "$(bash .devkit/use-kit.sh)"
set -euo pipefail
cd "$(dirname "$0")/.."
dest=${1:-.devkit}
bash ../shared/device/make-kit.sh "$dest"
( cd "$dest/debs" && apt-get download libgloo-dev >/dev/null 2>&1 )
ls "$dest/debs" | grep -q '^libgloo-dev_' || { echo "make-devkit: libgloo-dev could not be downloaded" >&2; exit 1; }
du -sh "$dest"
