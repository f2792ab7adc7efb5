#pragma once
// The network interface every detection family implements.
#include <torch/torch.h>

namespace libreyolo::models {

class DetectorImpl : public torch::nn::Module {
public:
    // images: (B, 3, H, W) in [0, 1]. Returns (B, 4 + nc, anchors): xyxy boxes in input pixels,
    // then per-class scores after sigmoid.
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    virtual int num_classes() const = 0;
};

using Detector = std::shared_ptr<DetectorImpl>;

}  // namespace libreyolo::models
