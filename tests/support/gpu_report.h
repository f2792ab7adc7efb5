#pragma once
// The line that dates a GPU test's markdown report: "Run <date> on one <GPU>, LibTorch <version>,
// by `tests/gpu/<test>` (`scripts/gpu-check.sh`)."
#include <ATen/cuda/CUDAContext.h>

#include <ctime>
#include <string>

#include "libreyolo/version.h"

namespace libreyolo::testing {

inline std::string gpu_run_line(const std::string& test) {
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%d", std::gmtime(&now));
    return std::string("Run ") + date + " on one " + at::cuda::getCurrentDeviceProperties()->name + ", LibTorch " +
           torch_version() + ", by `tests/gpu/" + test + "` (`scripts/gpu-check.sh`).\n";
}

}  // namespace libreyolo::testing
