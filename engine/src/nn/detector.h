#pragma once
// The network interface every detection family implements.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "graphs/forward_plan.h"
#include "libreyolo/errors.h"

namespace libreyolo::onnx {
class Graph;
}

namespace libreyolo::nn {

// One output of an exported graph: the value that holds it, LibreYOLO's name for it ("output",
// "pred_logits", ...) and its sizes after the batch axis.
struct OnnxOutput {
    std::string value;
    std::string name;
    std::vector<int64_t> sizes;
};

class DetectorImpl : public torch::nn::Module {
public:
    // images: (B, 3, H, W) in [0, 1]. Returns (B, 4 + nc, anchors): xyxy boxes in input pixels,
    // then per-class scores after sigmoid.
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    virtual int num_classes() const = 0;
    // The forward as CUDA graphs capture it: by default one capturable stage, the whole forward.
    // A family with a stage a graph cannot record overrides this with its split at a verified
    // seam; the stages run in order must compute exactly forward().
    virtual graphs::ForwardPlan forward_plan() {
        return graphs::single_stage_plan([this](const torch::Tensor& images) { return forward(images); });
    }
    // The forward followed by the candidate selection of the score threshold conf, for the fused
    // predict path on a GPU: the packed candidates of kernels/decode_topk_slot.h, in one plan that a
    // graph records whole. Empty for a family whose output is not a DFL decode.
    virtual graphs::ForwardPlan candidate_plan(float /*conf*/) { return {}; }
    // The network as ONNX nodes (onnx/onnx_graph.h) reading `images`, (B, 3, height, width): returns
    // the graph's outputs as LibreYOLO's exporter names them (forward()'s tensor as "output" for the
    // YOLO families; "pred_logits" and "pred_boxes" for the DETRs). Called on the fused copy
    // (BatchNorm folded, branches merged). Families without an exporter say so.
    virtual std::vector<OnnxOutput> emit_onnx(onnx::Graph& /*graph*/, const std::string& /*images*/, int64_t /*height*/,
                                              int64_t /*width*/) {
        throw NotSupported("ONNX export: this family has no exporter yet");
    }
};

using Detector = std::shared_ptr<DetectorImpl>;

}  // namespace libreyolo::nn
