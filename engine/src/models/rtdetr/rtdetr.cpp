#include "models/rtdetr/rtdetr.h"

#include <map>

#include "libreyolo/errors.h"

namespace libreyolo::models::rtdetr {

const RTDETRSize& rtdetr_size(const std::string& size) {
    static const std::map<std::string, RTDETRSize> sizes = {
        {"r18", {18, 0.5, 3}}, {"r34", {34, 0.5, 4}}, {"r50", {50, 1.0, 6}}};
    const auto it = sizes.find(size);
    if (it == sizes.end()) throw UnknownModel("rtdetr: unknown size '" + size + "' (r18, r34, r50)");
    return it->second;
}

RTDETRModelImpl::RTDETRModelImpl(const std::string& size, int64_t num_classes)
    : size_(size), num_classes_(num_classes) {
    const RTDETRSize& s = rtdetr_size(size);
    backbone = register_module("backbone", PResNet(s.depth));
    HybridEncoderOptions e;
    e.in_channels = backbone->out_channels();
    e.expansion = s.expansion;
    encoder = register_module("encoder", HybridEncoder(e));
    DecoderOptions d;
    d.num_classes = num_classes;
    d.num_layers = s.decoder_layers;
    decoder = register_module("decoder",
                              RTDETRTransformer(d, std::array<int64_t, 3>{e.hidden_dim, e.hidden_dim, e.hidden_dim}));
    features_ = std::make_shared<torch::nn::Module>("RTDETRFeatures");
    features_->register_module("backbone", backbone.ptr());
    features_->register_module("encoder", encoder.ptr());
}

DecoderOutput RTDETRModelImpl::forward_queries(const torch::Tensor& images) {
    return decoder(encoder(backbone(images)));
}

TrainingOutput RTDETRModelImpl::forward_train(const torch::Tensor& images, const std::vector<DetrTarget>& targets,
                                              const DenoisingOptions& denoising) {
    return decoder->forward_train(encoder(backbone(images)), targets, denoising);
}

torch::Tensor RTDETRModelImpl::forward(const torch::Tensor& images) {
    const DecoderOutput out = forward_queries(images);
    const std::vector<torch::Tensor> c = out.boxes.unbind(-1);  // cx, cy, w, h
    const double width = static_cast<double>(images.size(3)), height = static_cast<double>(images.size(2));
    const torch::Tensor xyxy = torch::stack(
        {(c[0] - c[2] / 2) * width, (c[1] - c[3] / 2) * height, (c[0] + c[2] / 2) * width, (c[1] + c[3] / 2) * height},
        1);  // (B, 4, Q)
    return torch::cat({xyxy, out.logits.sigmoid().transpose(1, 2)}, 1);
}

}  // namespace libreyolo::models::rtdetr
