#pragma once
// LibreYOLO's anchor-free decode of a DFL head (YOLOv9's DDetect): per anchor, four distances as
// the expectation of a softmax over reg_max bins, the box left-top-right-bottom of the anchor's
// cell centre times the level's stride, and sigmoid class scores.
#include <torch/torch.h>

#include <vector>

namespace libreyolo::kernels {

// The anchor points (1, 2, A): cell centres in level units; their strides (1, A); the bins'
// values (1, 1, reg_max, 1). In the levels' dtype and on their device, computed as LibreYOLO
// computes them (an integer range, cast, + 0.5), so that float16 rounds the same way.
struct DflAnchors {
    torch::Tensor points, strides, project;
};

// levels: the head's maps (B, 4·reg_max + nc, H, W), one per stride.
DflAnchors dfl_anchors(const std::vector<torch::Tensor>& levels, const std::vector<double>& strides, int64_t reg_max);

// (B, 4 + nc, A): xyxy in input pixels, then the sigmoid scores; the levels' anchors in order, each
// level's row-major. Computed in the levels' dtype.
torch::Tensor dfl_decode(const std::vector<torch::Tensor>& levels, const DflAnchors& anchors, int64_t reg_max,
                         int64_t nc);

}  // namespace libreyolo::kernels
