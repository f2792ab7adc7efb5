#include "onnx/onnx_graph.h"

#include "libreyolo/errors.h"

namespace libreyolo::onnx {
namespace {

ElementType element_type(torch::Dtype dtype) {
    switch (dtype) {
        case torch::kFloat32:
            return ElementType::Float;
        case torch::kFloat16:
            return ElementType::Float16;
        case torch::kInt64:
            return ElementType::Int64;
        case torch::kInt32:
            return ElementType::Int32;
        case torch::kUInt8:
            return ElementType::UInt8;
        case torch::kBool:
            return ElementType::Bool;
        default:
            throw NotSupported(std::string("ONNX export: tensors of dtype ") + c10::toString(dtype));
    }
}

}  // namespace

Graph::Graph(int opset, torch::Dtype float_type)
    : proto_(std::make_unique<ModelProto>(opset)), opset_(opset), float_type_(float_type) {}

Graph::~Graph() = default;

std::string Graph::unique(const std::string& name) {
    std::string candidate = name;
    for (int i = 1; !names_.insert(candidate).second; ++i) candidate = name + "_" + std::to_string(i);
    return candidate;
}

std::string Graph::input(const std::string& name, torch::Dtype dtype, const std::vector<Dim>& shape) {
    const std::string n = unique(name);
    proto_->add_input(n, element_type(dtype), shape);
    return n;
}

void Graph::output(const std::string& value, torch::Dtype dtype, const std::vector<Dim>& shape) {
    proto_->add_output(value, element_type(dtype), shape);
}

std::string Graph::constant(const std::string& name, const torch::Tensor& value) {
    const std::string n = unique(name);
    // raw_data is little-endian, as LibTorch's CPU tensors are on every platform it builds for.
    const torch::Tensor t = value.detach().to(torch::kCPU).contiguous();
    proto_->add_initializer(n, element_type(t.scalar_type()), t.sizes().vec(), t.data_ptr(),
                            static_cast<std::size_t>(t.numel() * t.element_size()));
    return n;
}

std::string Graph::weight(const std::string& name, const torch::Tensor& value) {
    return constant(name, value.detach().to(torch::kCPU, float_type_));
}

std::vector<std::string> Graph::node(const std::string& op_type, const std::vector<std::string>& inputs,
                                     const std::string& name, int outputs, const std::vector<Attribute>& attributes) {
    std::vector<std::string> names;
    for (int k = 0; k < outputs; ++k) names.push_back(unique(outputs == 1 ? name : name + ":" + std::to_string(k)));
    proto_->add_node(op_type, unique(name + "/" + op_type), inputs, names, attributes);
    return names;
}

std::string Graph::op(const std::string& op_type, const std::vector<std::string>& inputs, const std::string& name,
                      const std::vector<Attribute>& attributes) {
    return node(op_type, inputs, name, 1, attributes).front();
}

void Graph::metadata(const std::string& key, const std::string& value) {
    proto_->add_metadata(key, value);
}

std::string Graph::serialize_checked(const std::string& producer_version) const {
    try {
        return proto_->serialize_checked(producer_version);
    } catch (const std::exception& e) {
        throw FormatError(std::string("ONNX export: the ONNX checker refuses the graph: ") + e.what());
    }
}

std::string silu(Graph& g, const std::string& x, const std::string& name) {
    return g.op("Mul", {x, g.op("Sigmoid", {x}, name + ".sigmoid")}, name + ".silu");
}

}  // namespace libreyolo::onnx
