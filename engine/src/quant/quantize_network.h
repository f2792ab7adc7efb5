#pragma once
// Which convolutions of a network a quantization recipe touches, found by qualified module name
// (LibreYOLO's keep_high_precision substring rule), and the quant manifest as JSON.
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "libreyolo/quantize.h"
#include "quant/quant_conv2d.h"

namespace libreyolo::quant {

// Always kept in float, whatever the keep list: YOLOv9's DFL is a fixed integral operator.
inline const std::vector<std::string> kAlwaysKeepHighPrecision = {"dfl"};

struct NamedConv {
    std::string name;  // "backbone.conv1.conv"
    std::shared_ptr<QuantConv2dImpl> module;
};

// True when name contains one of keep's (non-empty) patterns or an always-kept one.
bool keeps_high_precision(const std::string& name, const std::vector<std::string>& keep);

// The network's QuantConv2d modules that keep does not exclude, in named_modules() order.
std::vector<NamedConv> selectable_convs(torch::nn::Module& root, const std::vector<std::string>& keep);

// The ones currently prepared (quantized).
std::vector<NamedConv> prepared_convs(torch::nn::Module& root);

// The manifest as the JSON object LibreYOLO stores under a checkpoint's "quant" key, and back.
// Parsing throws FormatError naming source and the field at fault.
std::string manifest_json(const QuantInfo& info);
QuantInfo parse_manifest(const std::string& json, const std::string& source);

}  // namespace libreyolo::quant
