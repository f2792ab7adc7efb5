#pragma once
// BatchNorm folded into the convolution before it, the inference form of a conv + BN pair:
// per output channel s = γ / √(running_var + ε), weight · s and (bias − running_mean) · s + β,
// computed in float64 and stored in the weight's dtype. A folded block skips its BatchNorm, so the
// convolution's bias add is the whole of it (one kernel fewer per block, and cuDNN / oneDNN add the
// bias inside the convolution). Folding is for an inference copy of a network (Model's fuse path):
// it changes the weights, so training and the eager contract never see it.
#include <torch/torch.h>

namespace libreyolo::nn {

// A block that can fold its BatchNorm (models' Conv and RT-DETR's ConvNormLayer).
class BatchNormFoldable {
public:
    virtual ~BatchNormFoldable() = default;
    virtual void fold_batch_norm() = 0;
};

// A block of parallel convolution branches that, once their BatchNorms are folded, add up to one
// convolution (YOLOv9's RepConvN: a 3x3 and a 1x1 on the same input, LibreYOLO's fuse_convs).
class BranchMergeable {
public:
    virtual ~BranchMergeable() = default;
    virtual void merge_branches() = 0;
};

// Writes the folded weight into conv and sets its bias (a plain tensor, not a parameter).
void fold_into_conv(torch::nn::Conv2dImpl& conv, const torch::nn::BatchNorm2dImpl& bn);

// A folded 3x3 convolution and a folded 1x1 one on the same input (stride 1, paddings 1 and 0) as
// one 3x3 convolution: the 1x1 kernel padded to 3x3 and added, the biases summed, in float64 and
// stored in the 3x3 weight's dtype (RepVGG's re-parameterisation).
struct MergedBranches {
    torch::Tensor weight, bias;
};
MergedBranches merge_3x3_and_1x1(const torch::nn::Conv2dImpl& k3, const torch::nn::Conv2dImpl& k1);

// Folds every BatchNormFoldable block of net, then merges every BranchMergeable one; returns how
// many BatchNorms it folded.
int fold_batch_norms(torch::nn::Module& net);

}  // namespace libreyolo::nn
