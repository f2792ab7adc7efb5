#pragma once
// ONNX's protobuf classes behind an interface without them, and without LibTorch: LibTorch ships
// protobuf headers of its own, which shadow the system's, so model_proto.cpp is compiled apart
// (libreyolo_onnx_proto) with Debian's protobuf and ONNX only.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace libreyolo::onnx {

// ONNX's TensorProto.DataType values.
enum class ElementType : int32_t { Float = 1, UInt8 = 2, Int32 = 6, Int64 = 7, Bool = 9, Float16 = 10 };

// A dimension of a graph input or output: a size, or a symbolic name ("batch").
using Dim = std::variant<int64_t, std::string>;

struct Attribute {
    std::string name;
    std::variant<int64_t, float, std::string, std::vector<int64_t>, std::vector<float>> value;
};

class ModelProto {
public:
    explicit ModelProto(int opset);
    ~ModelProto();
    ModelProto(const ModelProto&) = delete;
    ModelProto& operator=(const ModelProto&) = delete;

    void add_input(const std::string& name, ElementType type, const std::vector<Dim>& shape);
    void add_output(const std::string& name, ElementType type, const std::vector<Dim>& shape);
    // data: the tensor's bytes, little-endian, row-major.
    void add_initializer(const std::string& name, ElementType type, const std::vector<int64_t>& dims, const void* data,
                         std::size_t bytes);
    void add_node(const std::string& op_type, const std::string& name, const std::vector<std::string>& inputs,
                  const std::vector<std::string>& outputs, const std::vector<Attribute>& attributes);
    void add_metadata(const std::string& key, const std::string& value);
    // Runs ONNX's checker (throws std::runtime_error with its message) and serialises.
    std::string serialize_checked(const std::string& producer_version) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// What a written file declares, read back (for tests and `libreyolo info` on a .onnx file).
struct ModelSummary {
    struct Value {
        std::string name;
        int32_t type = 0;
        std::vector<std::string> dims;  // sizes as text, or the symbolic name
    };
    std::vector<Value> inputs, outputs;
    std::map<std::string, std::string> metadata;
    std::map<std::string, std::string> initializers;  // name → raw bytes
    int64_t opset = 0;
};

// Throws std::runtime_error when bytes is not an ONNX model.
ModelSummary read_model_summary(const std::string& bytes);

}  // namespace libreyolo::onnx
