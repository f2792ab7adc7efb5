#include "models/yolo9/blocks.h"

#include "nn/flop_counter.h"

namespace libreyolo::models::yolo9 {

namespace F = torch::nn::functional;

RepConvNImpl::RepConvNImpl(int64_t in, int64_t out) {
    conv1 = register_module("conv1", Conv(ConvOptions(in, out, 3).padding(1).activation(false)));
    conv2 = register_module("conv2", Conv(ConvOptions(in, out, 1).padding(0).activation(false)));
}

torch::Tensor RepConvNImpl::forward(const torch::Tensor& x) {
    if (merged_) {
        const torch::Tensor y =
            kernels::conv_bias_act_slot()(x, merged_weight_, merged_bias_, *merged_, kernels::ConvActivation::SiLU);
        nn::count_conv_flops(*conv1->conv, y);
        return y;
    }
    // LibreYOLO adds a literal 0 for the missing identity branch; x + 0 is x, bit for bit.
    return torch::silu(conv1(x) + conv2(x));
}

void RepConvNImpl::merge_branches() {
    if (merged_) return;
    torch::NoGradGuard no_grad;
    conv1->fold_batch_norm();
    conv2->fold_batch_norm();
    const auto& k3 = *conv1->conv;
    const auto& k1 = *conv2->conv;
    const auto dtype = k3.weight.scalar_type();
    const torch::Tensor weight =
        k3.weight.to(torch::kFloat64) + F::pad(k1.weight.to(torch::kFloat64), F::PadFuncOptions({1, 1, 1, 1}));
    const torch::Tensor bias = k3.bias.to(torch::kFloat64) + k1.bias.to(torch::kFloat64);
    merged_weight_ = register_buffer("merged_weight", weight.to(dtype));
    merged_bias_ = register_buffer("merged_bias", bias.to(dtype));
    merged_ = kernels::conv_geometry(k3);
}

RepNBottleneckImpl::RepNBottleneckImpl(int64_t in, int64_t out) : add_(in == out) {
    cv1 = register_module("cv1", RepConvN(in, out));
    cv2 = register_module("cv2", Conv(ConvOptions(out, out, 3)));
}

torch::Tensor RepNBottleneckImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = cv2(cv1(x));
    return add_ ? x + y : y;
}

RepNCSPImpl::RepNCSPImpl(int64_t in, int64_t out, int64_t repeats) {
    const int64_t hidden = out / 2;
    cv1 = register_module("cv1", Conv(ConvOptions(in, hidden, 1)));
    cv2 = register_module("cv2", Conv(ConvOptions(in, hidden, 1)));
    cv3 = register_module("cv3", Conv(ConvOptions(2 * hidden, out, 1)));
    m = register_module("m", torch::nn::Sequential());
    for (int64_t i = 0; i < repeats; ++i) m->push_back(RepNBottleneck(hidden, hidden));
}

torch::Tensor RepNCSPImpl::forward(const torch::Tensor& x) {
    return cv3(torch::cat({m->forward(cv1(x)), cv2(x)}, 1));
}

ELANImpl::ELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4) {
    cv1 = register_module("cv1", Conv(ConvOptions(c1, c2, 1)));
    cv2 = register_module("cv2", Conv(ConvOptions(c2 / 2, c3, 3)));
    cv3 = register_module("cv3", Conv(ConvOptions(c3, c3, 3)));
    cv4 = register_module("cv4", Conv(ConvOptions(c2 + 2 * c3, c4, 1)));
}

torch::Tensor ELANImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> y = cv1(x).chunk(2, 1);
    y.push_back(cv2(y.back()));
    y.push_back(cv3(y.back()));
    return cv4(torch::cat(y, 1));
}

RepNCSPELANImpl::RepNCSPELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4, int64_t repeats) {
    cv1 = register_module("cv1", Conv(ConvOptions(c1, c2, 1)));
    cv2 = register_module("cv2", torch::nn::Sequential(RepNCSP(c2 / 2, c3, repeats), Conv(ConvOptions(c3, c3, 3))));
    cv3 = register_module("cv3", torch::nn::Sequential(RepNCSP(c3, c3, repeats), Conv(ConvOptions(c3, c3, 3))));
    cv4 = register_module("cv4", Conv(ConvOptions(c2 + 2 * c3, c4, 1)));
}

torch::Tensor RepNCSPELANImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> y = cv1(x).chunk(2, 1);
    y.push_back(cv2->forward(y.back()));
    y.push_back(cv3->forward(y.back()));
    return cv4(torch::cat(y, 1));
}

namespace {
// avg_pool2d(x, 2, 1, 0, ceil_mode=False, count_include_pad=True), LibreYOLO's pre-pool.
torch::Tensor smooth(const torch::Tensor& x) {
    return F::avg_pool2d(x, F::AvgPool2dFuncOptions(2).stride(1).padding(0).ceil_mode(false).count_include_pad(true));
}
}  // namespace

AConvImpl::AConvImpl(int64_t in, int64_t out) {
    cv = register_module("cv", Conv(ConvOptions(in, out, 3).stride(2).padding(1)));
}

torch::Tensor AConvImpl::forward(const torch::Tensor& x) {
    return cv(smooth(x));
}

ADownImpl::ADownImpl(int64_t in, int64_t out) {
    cv1 = register_module("cv1", Conv(ConvOptions(in / 2, out / 2, 3).stride(2).padding(1)));
    cv2 = register_module("cv2", Conv(ConvOptions(in / 2, out / 2, 1).stride(1).padding(0)));
}

torch::Tensor ADownImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> halves = smooth(x).chunk(2, 1);
    torch::Tensor a = cv1(halves[0]);
    torch::Tensor b = cv2(F::max_pool2d(halves[1], F::MaxPool2dFuncOptions(3).stride(2).padding(1)));
    return torch::cat({a, b}, 1);
}

std::shared_ptr<DownsampleImpl> make_downsample(bool adown, int64_t in, int64_t out) {
    if (adown) return std::make_shared<ADownImpl>(in, out);
    return std::make_shared<AConvImpl>(in, out);
}

SPPELANImpl::SPPELANImpl(int64_t in, int64_t neck, int64_t out) {
    cv1 = register_module("cv1", Conv(ConvOptions(in, neck, 1)));
    cv5 = register_module("cv5", Conv(ConvOptions(4 * neck, out, 1)));
}

torch::Tensor SPPELANImpl::forward(const torch::Tensor& x) {
    std::vector<torch::Tensor> features{cv1(x)};
    for (int i = 0; i < 3; ++i)
        features.push_back(F::max_pool2d(features.back(), F::MaxPool2dFuncOptions(5).stride(1).padding(2)));
    return cv5(torch::cat(features, 1));
}

}  // namespace libreyolo::models::yolo9
