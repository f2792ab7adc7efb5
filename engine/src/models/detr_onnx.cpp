#include "models/detr_onnx.h"

#include "onnx/layers.h"

namespace libreyolo::models {

std::string conv_norm_layer(onnx::Graph& g, const ConvNormLayerImpl& layer, const std::string& name,
                            const std::string& x) {
    std::string y = onnx::conv2d(g, *layer.conv, name + ".conv", x);
    if (!layer.folded()) y = onnx::batch_norm(g, *layer.norm, name + ".norm", y);
    switch (layer.activation()) {
        case Activation::ReLU:
            return onnx::relu(g, y, name + ".act");
        case Activation::SiLU:
            return onnx::silu(g, y, name + ".act");
        case Activation::None:
            break;
    }
    return y;
}

namespace {

std::string rep_vgg_block(onnx::Graph& g, const RepVggBlockImpl& block, const std::string& name, const std::string& x) {
    return onnx::silu(g,
                      g.op("Add",
                           {conv_norm_layer(g, *block.conv1, name + ".conv1", x),
                            conv_norm_layer(g, *block.conv2, name + ".conv2", x)},
                           name + ".sum"),
                      name + ".act");
}

}  // namespace

std::string csp_rep_layer(onnx::Graph& g, const CSPRepLayerImpl& layer, const std::string& name, const std::string& x) {
    std::string a = conv_norm_layer(g, *layer.conv1, name + ".conv1", x);
    for (std::size_t i = 0; i < layer.bottlenecks->size(); ++i)
        a = rep_vgg_block(g, *layer.bottlenecks->ptr<RepVggBlockImpl>(i), name + ".bottlenecks." + std::to_string(i),
                          a);
    const std::string y = g.op("Add", {a, conv_norm_layer(g, *layer.conv2, name + ".conv2", x)}, name + ".sum");
    return layer.conv3 ? conv_norm_layer(g, *layer.conv3, name + ".conv3", y) : y;
}

std::string transformer_encoder_layer(onnx::Graph& g, const TransformerEncoderLayerImpl& layer, const std::string& name,
                                      const std::string& tokens, const std::string& pos, int64_t length) {
    const std::string q = g.op("Add", {tokens, pos}, name + ".with_pos");
    const std::string attended = layer.self_attn->emit_onnx(g, name + ".self_attn", q, q, tokens, length, length);
    const std::string x =
        onnx::layer_norm(g, *layer.norm1, name + ".norm1", g.op("Add", {tokens, attended}, name + ".residual1"));
    const std::string ffn =
        onnx::linear(g, *layer.linear2, name + ".linear2",
                     onnx::gelu(g, onnx::linear(g, *layer.linear1, name + ".linear1", x), name + ".gelu"));
    return onnx::layer_norm(g, *layer.norm2, name + ".norm2", g.op("Add", {x, ffn}, name + ".residual2"));
}

std::string mlp(onnx::Graph& g, const MLPImpl& mlp, const std::string& name, const std::string& x) {
    std::string y = x;
    const auto& linears = mlp.linears();
    for (std::size_t i = 0; i < linears.size(); ++i) {
        const std::string path = name + ".layers." + std::to_string(i);
        y = onnx::linear(g, *linears[i], path, y);
        if (i + 1 == linears.size()) break;
        y = mlp.activation() == HeadActivation::ReLU ? onnx::relu(g, y, path + ".act")
                                                     : onnx::silu(g, y, path + ".act");
    }
    return y;
}

std::string inverse_sigmoid(onnx::Graph& g, const std::string& x, const std::string& name, double eps) {
    const std::string clipped =
        g.op("Clip", {x, g.weight(name + ".zero", torch::tensor(0.0f)), g.weight(name + ".one", torch::tensor(1.0f))},
             name + ".clipped");
    const std::string floor = g.weight(name + ".eps", torch::tensor(static_cast<float>(eps)));
    const std::string numerator = g.op("Max", {clipped, floor}, name + ".numerator");
    const std::string denominator =
        g.op("Max",
             {g.op("Sub", {g.weight(name + ".one_minus", torch::tensor(1.0f)), clipped}, name + ".complement"), floor},
             name + ".denominator");
    return g.op("Log", {g.op("Div", {numerator, denominator}, name + ".ratio")}, name);
}

}  // namespace libreyolo::models
