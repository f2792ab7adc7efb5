#pragma once
// The network D-FINE and DEIM share, as LibreYOLO composes it (libreyolo/models/dfine/nn.py
// LibreDFINEModel, models/deim/nn.py LibreDEIMModel): HGNetv2 backbone, hybrid encoder, D-FINE
// decoder, under LibreYOLO's prefixes backbone., encoder., decoder. The two families' networks
// differ only in the decoder's activation (D-FINE ReLU, DEIM SiLU) and in which backbone stages
// training freezes; their sizes are LibreYOLO's SIZE_CONFIGS n, s, m, l, x at 640.
#include <torch/torch.h>

#include <string>

#include "models/dfine_network/decoder.h"
#include "models/dfine_network/hgnetv2.h"
#include "models/dfine_network/hybrid_encoder.h"
#include "nn/detector.h"

namespace libreyolo::models::dfine_network {

enum class Variant { DFINE, DEIM };

struct NetworkOptions {
    HGNetv2Options backbone;
    HybridEncoderOptions encoder;
    DecoderOptions decoder;
};

// LibreYOLO's settings for a size (n, s, m, l, x) of either family, num_classes outputs. Throws
// UnknownModel naming the size and the known ones.
NetworkOptions network_options(Variant variant, const std::string& size, int64_t num_classes);

// LibreYOLO's denoising settings for both families: 100 queries, label noise 0.5, box noise 1,
// negative sizes turned positive.
DenoisingOptions denoising_options();

class DFINENetworkImpl : public nn::DetectorImpl {
public:
    explicit DFINENetworkImpl(const NetworkOptions& options);
    // images (B, 3, H, W) in [0, 1], H and W multiples of 32. The eval layer's logits and boxes
    // (cx, cy, w, h in [0, 1]).
    DecoderOutput forward_queries(const torch::Tensor& images);
    // The detector layout, one column per query: (B, 4 + nc, num_queries), xyxy in input pixels
    // (LibreYOLO's box_cxcywh_to_xyxy: negative sizes count as 0), then the sigmoid class scores.
    torch::Tensor forward(const torch::Tensor& images) override;
    // The training forward (every decoder layer, denoising queries from targets).
    TrainingOutput forward_train(const torch::Tensor& images, const std::vector<DetrTarget>& targets,
                                 const DenoisingOptions& denoising = denoising_options());
    // The backbone and the encoder as one module (not registered: the state_dict keeps
    // LibreYOLO's keys), the part of training whose shapes do not depend on the ground truth.
    torch::nn::Module& feature_extractor() { return *features_; }
    int num_classes() const override { return static_cast<int>(options_.decoder.num_classes); }
    const NetworkOptions& options() const { return options_; }

    HGNetv2 backbone{nullptr};
    HybridEncoder encoder{nullptr};
    DFINETransformer decoder{nullptr};

private:
    NetworkOptions options_;
    std::shared_ptr<torch::nn::Module> features_;
};
TORCH_MODULE(DFINENetwork);

}  // namespace libreyolo::models::dfine_network
