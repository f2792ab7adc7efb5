#include "models/dfine_network/dfine_network.h"

#include "libreyolo/errors.h"

namespace libreyolo::models::dfine_network {

NetworkOptions network_options(Variant variant, const std::string& size, int64_t num_classes) {
    if (size != "n" && size != "s" && size != "m" && size != "l" && size != "x")
        throw UnknownModel(std::string(variant == Variant::DFINE ? "dfine" : "deim") + ": unknown size '" + size +
                           "' (n, s, m, l, x)");
    NetworkOptions o;
    o.backbone = hgnetv2_options_for_size(size);
    o.encoder = hybrid_encoder_options_for_size(size);
    DecoderOptions& d = o.decoder;
    d.num_classes = num_classes;
    if (size == "n") {
        d.hidden_dim = 128;
        d.dim_feedforward = 512;
        d.feat_channels = {128, 128};
        d.feat_strides = {16, 32};
        d.num_points = {6, 6};
        d.num_layers = 3;
    } else {
        d.num_layers = size == "s" ? 3 : size == "m" ? 4 : 6;
    }
    if (size == "x") {
        d.feat_channels = {384, 384, 384};
        d.reg_scale = 8.0;
    }
    if (variant == Variant::DEIM) {
        d.activation = HeadActivation::SiLU;
        // DEIM trains n, s and m with nothing frozen (LibreYOLO's deim SIZE_CONFIGS: freeze_at -1).
        if (size == "n" || size == "s" || size == "m") {
            o.backbone.freeze_at = -1;
            o.backbone.freeze_stem_only = false;
        }
    }
    return o;
}

DenoisingOptions denoising_options() {
    DenoisingOptions o;
    o.num_denoising = 100;
    o.label_noise_ratio = 0.5;
    o.box_noise_scale = 1.0;
    o.positive_sizes = true;
    return o;
}

DFINENetworkImpl::DFINENetworkImpl(const NetworkOptions& options) : options_(options) {
    backbone = register_module("backbone", HGNetv2(options.backbone));
    HybridEncoderOptions e = options.encoder;
    if (e.in_channels != backbone->out_channels())
        throw InvalidArgument("dfine: the encoder takes " + std::to_string(e.in_channels.size()) +
                              " maps whose channels differ from the backbone's outputs");
    encoder = register_module("encoder", HybridEncoder(e));
    decoder = register_module("decoder", DFINETransformer(options.decoder));
    features_ = std::make_shared<torch::nn::Module>("DFINEFeatures");
    features_->register_module("backbone", backbone.ptr());
    features_->register_module("encoder", encoder.ptr());
}

DecoderOutput DFINENetworkImpl::forward_queries(const torch::Tensor& images) {
    return decoder(encoder(backbone(images)));
}

TrainingOutput DFINENetworkImpl::forward_train(const torch::Tensor& images, const std::vector<DetrTarget>& targets,
                                               const DenoisingOptions& denoising) {
    return decoder->forward_train(encoder(backbone(images)), targets, denoising);
}

torch::Tensor DFINENetworkImpl::forward(const torch::Tensor& images) {
    const DecoderOutput out = forward_queries(images);
    const std::vector<torch::Tensor> c = out.boxes.unbind(-1);  // cx, cy, w, h
    const torch::Tensor half_w = 0.5 * c[2].clamp_min(0.0), half_h = 0.5 * c[3].clamp_min(0.0);
    const double width = static_cast<double>(images.size(3)), height = static_cast<double>(images.size(2));
    const torch::Tensor xyxy = torch::stack(
        {(c[0] - half_w) * width, (c[1] - half_h) * height, (c[0] + half_w) * width, (c[1] + half_h) * height}, 1);
    return torch::cat({xyxy, out.logits.sigmoid().transpose(1, 2)}, 1);
}

}  // namespace libreyolo::models::dfine_network
