#!/usr/bin/env bash
# The device call copies the working tree, the kit and the wheels, 64 MiB at most. The GPU round
# runs the `gpu` tests alone (GPU_CHECK_CTEST_ARGS="-L gpu" scripts/gpu-check.sh), which read none
# of the fixtures below, so they can stay behind for the call:
#   scripts/device-fixtures.sh hide     before the device call
#   scripts/device-fixtures.sh restore  after it (the CPU tests need them)
set -euo pipefail
cd "$(dirname "$0")/.."
parked="${LIBREYOLO_PARKED_FIXTURES:-${HOME:-/root}/.cache/libreyolo-studio/parked-fixtures}"
only_cpu_tests_read=(yolox_parity yolox_loss pt_checkpoints pt_pretrained dfine_loss dfine_model dfine_backbone
  dfine_encoder rtdetr_model rtdetr_model_416 rtdetr_loss rtdetr_parts yolox_train coco_map onnx_export)
case "${1:-}" in
  hide)
    mkdir -p "$parked"
    for d in "${only_cpu_tests_read[@]}"; do
      [[ -e tests/fixtures/$d ]] && mv "tests/fixtures/$d" "$parked/"
    done
    ;;
  restore)
    for d in "${only_cpu_tests_read[@]}"; do
      [[ -e $parked/$d ]] && mv "$parked/$d" tests/fixtures/
    done
    ;;
  *)
    echo "usage: $0 hide|restore" >&2
    exit 2
    ;;
esac
git status --short tests/fixtures
