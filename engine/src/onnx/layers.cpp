#include "onnx/layers.h"

#include <cmath>

#include "libreyolo/errors.h"

namespace libreyolo::onnx {
namespace {

std::vector<int64_t> pair_of(const torch::ExpandingArray<2>& v) {
    return {(*v)[0], (*v)[1]};
}

}  // namespace

std::string int64s(Graph& g, const std::string& name, const std::vector<int64_t>& values) {
    return g.constant(name, torch::tensor(values, torch::kInt64));
}

std::string slice(Graph& g, const std::string& x, int64_t axis, int64_t begin, int64_t end, const std::string& name) {
    return g.op(
        "Slice",
        {x, int64s(g, name + ".starts", {begin}), int64s(g, name + ".ends", {end}), int64s(g, name + ".axes", {axis})},
        name);
}

std::string upsample_nearest2x(Graph& g, const std::string& x, const std::string& name) {
    const std::string scales = g.constant(name + ".scales", torch::tensor({1.0f, 1.0f, 2.0f, 2.0f}));
    return g.op("Resize", {x, "", scales}, name,
                {{"mode", std::string("nearest")},
                 {"coordinate_transformation_mode", std::string("asymmetric")},
                 {"nearest_mode", std::string("floor")}});
}

std::string conv2d(Graph& g, const torch::nn::Conv2dImpl& conv, const std::string& name, const std::string& x) {
    const auto& o = conv.options;
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&o.padding());
    if (!padding) throw NotSupported("ONNX export: " + name + " pads by a mode, not by sizes");
    std::vector<std::string> inputs{x, g.weight(name + ".weight", conv.weight)};
    if (conv.bias.defined()) inputs.push_back(g.weight(name + ".bias", conv.bias));
    const std::vector<int64_t> pad = pair_of(*padding);
    return g.op("Conv", inputs, name,
                {{"kernel_shape", std::vector<int64_t>{conv.weight.size(2), conv.weight.size(3)}},
                 {"strides", pair_of(o.stride())},
                 {"pads", std::vector<int64_t>{pad[0], pad[1], pad[0], pad[1]}},
                 {"dilations", pair_of(o.dilation())},
                 {"group", o.groups()}});
}

std::string batch_norm(Graph& g, const torch::nn::BatchNorm2dImpl& bn, const std::string& name, const std::string& x) {
    return g.op("BatchNormalization",
                {x, g.weight(name + ".weight", bn.weight), g.weight(name + ".bias", bn.bias),
                 g.weight(name + ".running_mean", bn.running_mean), g.weight(name + ".running_var", bn.running_var)},
                name, {{"epsilon", static_cast<float>(bn.options.eps())}});
}

std::string linear(Graph& g, const torch::nn::LinearImpl& linear, const std::string& name, const std::string& x) {
    const std::string y = g.op("MatMul", {x, g.weight(name + ".weight_t", linear.weight.t().contiguous())}, name);
    return linear.bias.defined() ? g.op("Add", {y, g.weight(name + ".bias", linear.bias)}, name + ".add_bias") : y;
}

std::string layer_norm(Graph& g, const torch::nn::LayerNormImpl& norm, const std::string& name, const std::string& x) {
    return g.op("LayerNormalization", {x, g.weight(name + ".weight", norm.weight), g.weight(name + ".bias", norm.bias)},
                name, {{"axis", int64_t{-1}}, {"epsilon", static_cast<float>(norm.options.eps())}});
}

std::string gelu(Graph& g, const std::string& x, const std::string& name) {
    const std::string scaled =
        g.op("Mul", {x, g.weight(name + ".inv_sqrt2", torch::tensor(float(M_SQRT1_2)))}, name + ".scaled");
    const std::string one_plus =
        g.op("Add", {g.op("Erf", {scaled}, name + ".erf"), g.weight(name + ".one", torch::tensor(1.0f))},
             name + ".one_plus");
    return g.op("Mul", {g.op("Mul", {x, g.weight(name + ".half", torch::tensor(0.5f))}, name + ".half_x"), one_plus},
                name);
}

std::string relu(Graph& g, const std::string& x, const std::string& name) {
    return g.op("Relu", {x}, name);
}

}  // namespace libreyolo::onnx
