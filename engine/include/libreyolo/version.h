#pragma once
#include <string>

namespace libreyolo {

std::string version();        // this engine, e.g. "0.1.0"
std::string torch_version();  // the LibTorch it was built against, e.g. "2.11.0"
std::string cuda_version();   // the CUDA that LibTorch was built with, or "none"

}  // namespace libreyolo
