#pragma once
// An ONNX graph under construction, written by the network's own modules from their parameters:
// each module adds its nodes and initializers under its state_dict name (backbone.conv0.conv, ...)
// so that a reader of the file can follow it back to the checkpoint. No protobuf type leaks out of
// this header (onnx/model_proto.h holds them).
#include <torch/torch.h>

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "onnx/model_proto.h"

namespace libreyolo::onnx {

class Graph {
public:
    // opset: the default domain's version the nodes are written for; float_type: the type of the
    // network's values (float32, or float16 for a half export), which weight() stores.
    explicit Graph(int opset, torch::Dtype float_type = torch::kFloat32);
    ~Graph();
    Graph(const Graph&) = delete;
    Graph& operator=(const Graph&) = delete;

    int opset() const { return opset_; }
    torch::Dtype float_type() const { return float_type_; }

    // Declares a graph input; returns its name.
    std::string input(const std::string& name, torch::Dtype dtype, const std::vector<Dim>& shape);
    // Declares value as a graph output (of this dtype and shape).
    void output(const std::string& value, torch::Dtype dtype, const std::vector<Dim>& shape);
    // A constant (weights, shapes, indices), stored as an initializer named after name (made unique).
    std::string constant(const std::string& name, const torch::Tensor& value);
    // A constant that meets the network's values (weights, biases, anchor points), stored in
    // float_type().
    std::string weight(const std::string& name, const torch::Tensor& value);
    // A node of op_type from the default domain; returns its outputs, named <name>, or <name>:k when
    // there are several (the names made unique).
    std::vector<std::string> node(const std::string& op_type, const std::vector<std::string>& inputs,
                                  const std::string& name, int outputs = 1,
                                  const std::vector<Attribute>& attributes = {});
    // The single output of such a node.
    std::string op(const std::string& op_type, const std::vector<std::string>& inputs, const std::string& name,
                   const std::vector<Attribute>& attributes = {});

    // The model's metadata_props (key → value, in insertion order).
    void metadata(const std::string& key, const std::string& value);

    // Checks the model with ONNX's checker (throws libreyolo::FormatError naming the problem) and
    // returns its serialised bytes.
    std::string serialize_checked(const std::string& producer_version) const;

private:
    std::string unique(const std::string& name);

    std::unique_ptr<ModelProto> proto_;
    std::set<std::string> names_;
    int opset_;
    torch::Dtype float_type_;
};

// x · sigmoid(x): SiLU, which the ONNX opsets before 22 do not have as one operator.
std::string silu(Graph& g, const std::string& x, const std::string& name);

}  // namespace libreyolo::onnx
