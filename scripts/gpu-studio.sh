#!/usr/bin/env bash
# The studio beside a GPU, in one call on the GPU host (docs/testing.md, "GPU host"):
#   eval "$(bash .devkit/use-kit.sh)"; scripts/gpu-studio.sh
# Builds the studio and the CUDA NMS plugin (preset gpu-host-studio; Qt Widgets, QCustomPlot and a
# font come in the kit), then saves each page on the offscreen platform, with the CUDA graph mode
# on so that the demo's prediction is captured and replayed: $OUT/<page>.png and its log. Then
# tests/ui/test_studio_gpu starts a --cuda-graph training run from the Train page and saves the Train
# and Graphs pages once its graph replays: $OUT/h200-train.png, $OUT/h200-graphs-training.png.
set -uo pipefail
cd "$(dirname "$0")/.."
OUT="${OUT:-build-gpu-studio/out}"
mkdir -p "$OUT"
kit=${KIT_PREFIX:?run eval "\$(bash .devkit/use-kit.sh)" first}
# Fontconfig's own configuration points at /usr/share/fonts; the kit's font is elsewhere.
work=$(mktemp -d)
cat > "$work/fonts.conf" <<CONF
<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig><dir>$kit/share/fonts</dir><cachedir>$work/fontconfig</cachedir></fontconfig>
CONF
# The studio's settings (QSettings) for these runs only: predictions through CUDA graphs.
mkdir -p "$work/config/LibreYOLO"
printf '[predict]\ncuda_graph=true\n' > "$work/config/LibreYOLO/LibreYOLO Studio.conf"
export FONTCONFIG_FILE="$work/fonts.conf" XDG_CONFIG_HOME="$work/config" QT_QPA_PLATFORM=offscreen
export QT_PLUGIN_PATH="$kit/lib/x86_64-linux-gnu/qt6/plugins"
cmake --preset gpu-host-studio -DCMAKE_INCLUDE_PATH="$kit/include" -DLIBREYOLO_BUILD_TESTS=ON \
  > "$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build --preset gpu-host-studio --target libreyolo-studio libreyolo_cuda_nms test_studio_gpu -- -j"$(nproc)" \
  > "$OUT/build.log" 2>&1 || { grep -E "error|Error" "$OUT/build.log" | head -30; exit 1; }
status=0
for page in predict graphs kernels; do
  timeout 300 build-gpu-studio/bin/libreyolo-studio --device cuda --page "$page" --screenshot "$OUT/$page.png" \
    > "$OUT/$page.log" 2>&1
  rc=$?
  echo "$page: exit $rc"
  [ $rc -eq 0 ] || { tail -5 "$OUT/$page.log"; status=1; }
done
LIBREYOLO_SCREENSHOT_DIR="$(realpath "$OUT")" timeout 600 build-gpu-studio/bin/test_studio_gpu > "$OUT/test_studio_gpu.log" 2>&1
rc=$?
echo "test_studio_gpu: exit $rc"
[ $rc -eq 0 ] || { tail -20 "$OUT/test_studio_gpu.log"; status=1; }
exit $status
