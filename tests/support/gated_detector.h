#pragma once
// A detector with a stage that a CUDA graph cannot record, to prove the seam machinery: per image
// its gate reads a feature statistic back to the host (.item(), a device-to-host sync) and picks
// one of two branches by its value (data-dependent control flow). It declares the split
// stem (captured) | gate (eager) | head (captured). forward() is written straight, not through
// the plan, so that "the stages in order equal forward()" is something a test can check.
#include <torch/torch.h>

#include "models/conv_bn_silu.h"
#include "nn/detector.h"

namespace libreyolo::testing {

class GatedDetectorImpl : public nn::DetectorImpl {
public:
    explicit GatedDetectorImpl(int nc = 4) : nc_(nc) {
        using models::Conv;
        using models::ConvOptions;
        stem = register_module("stem", torch::nn::Sequential(Conv(ConvOptions(3, 16, 3).stride(2)),
                                                             Conv(ConvOptions(16, 32, 3).stride(2))));
        bright = register_module("bright", Conv(ConvOptions(32, 32, 3)));
        dark = register_module("dark", Conv(ConvOptions(32, 32, 1)));
        head = register_module("head", torch::nn::Conv2d(torch::nn::Conv2dOptions(32, 4 + nc, 1)));
    }

    torch::Tensor forward(const torch::Tensor& images) override { return predict(gate(stem->forward(images))); }
    int num_classes() const override { return nc_; }

    graphs::ForwardPlan forward_plan() override {
        using graphs::TensorList;
        return {
            {"stem", true, [this](const TensorList& in) -> TensorList { return {stem->forward(in.at(0))}; }},
            {"gate", false, [this](const TensorList& in) -> TensorList { return {gate(in.at(0))}; }},
            {"head", true, [this](const TensorList& in) -> TensorList { return {predict(in.at(0))}; }},
        };
    }

    // The per-image statistic the gate compares with threshold.
    torch::Tensor levels(const torch::Tensor& features) const { return features.mean({1, 2, 3}); }

    double threshold = 0;
    int bright_taken = 0, dark_taken = 0;

    torch::nn::Sequential stem{nullptr};
    models::Conv bright{nullptr}, dark{nullptr};
    torch::nn::Conv2d head{nullptr};

private:
    torch::Tensor gate(const torch::Tensor& features) {
        std::vector<torch::Tensor> out;
        for (std::int64_t i = 0; i < features.size(0); ++i) {
            const torch::Tensor one = features.narrow(0, i, 1);
            if (levels(one).item<double>() > threshold) {
                ++bright_taken;
                out.push_back(bright->forward(one));
            } else {
                ++dark_taken;
                out.push_back(dark->forward(one));
            }
        }
        return torch::cat(out);
    }
    torch::Tensor predict(const torch::Tensor& features) { return head->forward(features).flatten(2); }

    int nc_;
};

}  // namespace libreyolo::testing
