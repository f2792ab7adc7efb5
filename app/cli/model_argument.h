#pragma once
// The model= key as every command reads it: a checkpoint file, or a model name that means
// LibreYOLO's pretrained weights (found in ./weights/ or the cache, else downloaded with a
// progress bar on a terminal), unless pretrained=false asks for the bare architecture.
#include <string>
#include <vector>

#include "args.h"
#include "libreyolo/model.h"
#include "libreyolo/pretrained.h"

namespace libreyolo::cli {

// The keys that go with model=: pretrained (true: a name's published weights; false: random weights)
// and download (false: never touch the network, as LIBREYOLO_OFFLINE=1).
const std::vector<std::string>& model_argument_keys();

// PretrainedOptions from the environment and download=, reporting a download on the terminal.
PretrainedOptions pretrained_options(const Arguments& args);

// Whether model names a model ("yolo9-t", LibreYOLO's "LibreYOLO9t.pt") rather than a file here.
bool is_model_name(const std::string& model);
// The architecture a model name stands for: "LibreYOLO9t.pt" → "LibreYOLO9t" (parse_model_name reads both).
std::string architecture_name(const std::string& name);

// Whether pretrained= asks for pretrained weights (true unless pretrained=false).
bool wants_pretrained(const Arguments& args);

// model= (or fallback) loaded on device: a file, a name's pretrained weights, or with
// pretrained=false the bare architecture (a file's own, with its nc) with one warning.
Model load_model_argument(const Arguments& args, const std::string& fallback, const std::string& device);

}  // namespace libreyolo::cli
