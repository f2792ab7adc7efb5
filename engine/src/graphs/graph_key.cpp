#include "graphs/graph_key.h"

#include "core/shape_text.h"
#include "libreyolo/errors.h"

namespace libreyolo::graphs {

std::string GraphKey::shape() const {
    return shape_text({batch, channels, height, width});
}

std::string dtype_name(torch::Dtype dtype) {
    switch (dtype) {
        case torch::kFloat32:
            return "float32";
        case torch::kFloat16:
            return "float16";
        case torch::kBFloat16:
            return "bfloat16";
        case torch::kUInt8:
            return "uint8";
        default:
            return std::string(c10::toString(dtype));
    }
}

std::string GraphKey::dtype_name() const {
    return graphs::dtype_name(dtype);
}

GraphKey key_of(const torch::Tensor& input, const std::string& task) {
    if (input.dim() != 4) throw InvalidArgument("cuda_graph: the input must be (B, C, H, W)");
    return {input.size(0),       input.size(1),        input.size(2), input.size(3),
            input.scalar_type(), input.device().str(), task};
}

}  // namespace libreyolo::graphs
