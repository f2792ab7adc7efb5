#pragma once
// RT-DETR (detect) as LibreYOLO composes it (libreyolo/models/rtdetr/nn.py RTDETRModel): PResNet
// backbone, hybrid encoder, decoder head, under LibreYOLO's prefixes backbone., encoder., decoder.
// Sizes and their settings are LibreYOLO's RTDETR_CONFIGS (r18, r34, r50), built as for training
// from scratch (BatchNorm, not frozen).
#include <torch/torch.h>

#include <string>

#include "models/rtdetr/decoder.h"
#include "models/rtdetr/hybrid_encoder.h"
#include "models/rtdetr/presnet.h"
#include "nn/detector.h"

namespace libreyolo::models::rtdetr {

struct RTDETRSize {
    int depth;
    double expansion;
    int64_t decoder_layers;
};

// Throws UnknownModel naming the size and the known ones.
const RTDETRSize& rtdetr_size(const std::string& size);

class RTDETRModelImpl : public nn::DetectorImpl {
public:
    RTDETRModelImpl(const std::string& size, int64_t num_classes);
    // images (B, 3, H, W) in [0, 1], H and W multiples of 32 with at least num_queries cells over the
    // three maps. Returns the eval layer's logits and boxes (cx, cy, w, h in [0, 1]).
    DecoderOutput forward_queries(const torch::Tensor& images);
    // The detector layout, one column per query: (B, 4 + nc, num_queries), xyxy in input pixels,
    // then the sigmoid class scores.
    torch::Tensor forward(const torch::Tensor& images) override;
    // The training forward (every decoder layer, denoising queries from targets).
    TrainingOutput forward_train(const torch::Tensor& images, const std::vector<DetrTarget>& targets,
                                 const DenoisingOptions& denoising = {});
    int num_classes() const override { return static_cast<int>(num_classes_); }
    // LibreYOLO's export: pred_logits (B, Q, nc), the eval layer's class logits, and pred_boxes
    // (B, Q, 4), cx cy w h in [0, 1].
    std::vector<nn::OnnxOutput> emit_onnx(onnx::Graph& g, const std::string& images, int64_t height,
                                          int64_t width) override;
    // The backbone and the encoder as one module (not registered: the state_dict keeps
    // LibreYOLO's keys), the part of training whose shapes do not depend on the ground truth.
    torch::nn::Module& feature_extractor() { return *features_; }
    const std::string& size() const { return size_; }

    PResNet backbone{nullptr};
    HybridEncoder encoder{nullptr};
    RTDETRTransformer decoder{nullptr};

private:
    std::string size_;
    int64_t num_classes_;
    std::shared_ptr<torch::nn::Module> features_;
};
TORCH_MODULE(RTDETRModel);

}  // namespace libreyolo::models::rtdetr
