// ONNX's protobuf classes where the build found no ONNX (Debian's libonnx-dev and
// libprotobuf-dev): exporting says so before a graph is started.
#include <stdexcept>

#include "libreyolo/errors.h"
#include "onnx/model_proto.h"

namespace libreyolo::onnx {

struct ModelProto::Impl {};

ModelProto::ModelProto(int) {
    throw NotSupported(
        "ONNX export: this build has no ONNX support (install libonnx-dev and libprotobuf-dev, then rebuild)");
}
ModelProto::~ModelProto() = default;
void ModelProto::add_input(const std::string&, ElementType, const std::vector<Dim>&) {}
void ModelProto::add_output(const std::string&, ElementType, const std::vector<Dim>&) {}
void ModelProto::add_initializer(const std::string&, ElementType, const std::vector<int64_t>&, const void*,
                                 std::size_t) {}
void ModelProto::add_node(const std::string&, const std::string&, const std::vector<std::string>&,
                          const std::vector<std::string>&, const std::vector<Attribute>&) {}
void ModelProto::add_metadata(const std::string&, const std::string&) {}
std::string ModelProto::serialize_checked(const std::string&) const {
    return {};
}
ModelSummary read_model_summary(const std::string&) {
    throw std::runtime_error("this build has no ONNX support");
}

}  // namespace libreyolo::onnx
