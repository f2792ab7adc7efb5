#!/usr/bin/env bash
# README command (a): install what is missing, build, launch the studio on its built-in demo.
# Without a display it runs on a virtual one (Xvfb) and saves a screenshot instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Only the CLI and the studio (with the engine they link); scripts/test.sh builds the rest.
scripts/build.sh libreyolo libreyolo-studio
if [[ -n "${DISPLAY:-}" || -n "${WAYLAND_DISPLAY:-}" ]]; then
  exec build/bin/libreyolo-studio "$@"
fi
shot="build/studio-demo.png"
echo "[studio] no display: running on Xvfb and saving the window to $shot"
xvfb-run -a build/bin/libreyolo-studio --screenshot "$shot" "$@"
echo "[studio] wrote $shot"
