#include "models/yolo9/blocks.h"

#include "graphs/concurrent_branches.h"
#include "kernels/pool_slots.h"
#include "nn/flop_counter.h"

namespace libreyolo::models::yolo9 {

namespace F = torch::nn::functional;

namespace {

// The channels-last buffer whose channel slices a block's producers write.
torch::Tensor concat_buffer(const torch::Tensor& like, int64_t channels, int64_t h, int64_t w) {
    return torch::empty({like.size(0), channels, h, w},
                        like.options().memory_format(torch::MemoryFormat::ChannelsLast));
}

int64_t out_channels(const Conv& conv) {
    return conv->conv->weight.size(0);
}

}  // namespace

RepConvNImpl::RepConvNImpl(int64_t in, int64_t out) {
    conv1 = register_module("conv1", Conv(ConvOptions(in, out, 3).padding(1).activation(false)));
    conv2 = register_module("conv2", Conv(ConvOptions(in, out, 1).padding(0).activation(false)));
}

torch::Tensor RepConvNImpl::forward(const torch::Tensor& x) {
    if (merged_.merged()) return merged_.forward(x, kernels::ConvActivation::SiLU, *conv1->conv);
    // LibreYOLO adds a literal 0 for the missing identity branch; x + 0 is x, bit for bit.
    return torch::silu(conv1(x) + conv2(x));
}

void RepConvNImpl::merge_branches() {
    conv1->fold_batch_norm();
    conv2->fold_batch_norm();
    merged_.merge(*this, *conv1->conv, *conv2->conv);
}

RepNBottleneckImpl::RepNBottleneckImpl(int64_t in, int64_t out) : add_(in == out) {
    cv1 = register_module("cv1", RepConvN(in, out));
    cv2 = register_module("cv2", Conv(ConvOptions(out, out, 3)));
}

torch::Tensor RepNBottleneckImpl::forward(const torch::Tensor& x) {
    if (add_ && cv2->folded()) return cv2->forward_add(cv1(x), x);
    torch::Tensor y = cv2(cv1(x));
    return add_ ? x + y : y;
}

void RepNBottleneckImpl::forward_into(const torch::Tensor& x, const torch::Tensor& out) {
    cv2->forward_into(cv1(x), out, add_ ? x : torch::Tensor());
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
    if (cv3->folded()) return forward_in_place(x);
    return cv3(torch::cat({m->forward(cv1(x)), cv2(x)}, 1));
}

torch::Tensor RepNCSPImpl::forward_in_place(const torch::Tensor& x) {
    const int64_t hidden = out_channels(cv1);
    const torch::Tensor buffer = concat_buffer(x, 2 * hidden, x.size(2), x.size(3));
    const torch::Tensor bottlenecks = buffer.slice(1, 0, hidden), shortcut = buffer.slice(1, hidden, 2 * hidden);
    graphs::run_concurrently(x.device(), {[&] {
                                              if (m->is_empty()) {
                                                  cv1->forward_into(x, bottlenecks);
                                                  return torch::Tensor();
                                              }
                                              torch::Tensor h = cv1(x);
                                              for (std::size_t i = 0; i + 1 < m->size(); ++i)
                                                  h = m->ptr<RepNBottleneckImpl>(i)->forward(h);
                                              m->ptr<RepNBottleneckImpl>(m->size() - 1)->forward_into(h, bottlenecks);
                                              return torch::Tensor();
                                          },
                                          [&] {
                                              cv2->forward_into(x, shortcut);
                                              return torch::Tensor();
                                          }});
    return cv3(buffer);
}

ELANImpl::ELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4) {
    cv1 = register_module("cv1", Conv(ConvOptions(c1, c2, 1)));
    cv2 = register_module("cv2", Conv(ConvOptions(c2 / 2, c3, 3)));
    cv3 = register_module("cv3", Conv(ConvOptions(c3, c3, 3)));
    cv4 = register_module("cv4", Conv(ConvOptions(c2 + 2 * c3, c4, 1)));
}

torch::Tensor ELANImpl::forward(const torch::Tensor& x) {
    if (cv4->folded()) return forward_in_place(x);
    std::vector<torch::Tensor> y = cv1(x).chunk(2, 1);
    y.push_back(cv2(y.back()));
    y.push_back(cv3(y.back()));
    return cv4(torch::cat(y, 1));
}

torch::Tensor ELANImpl::forward_in_place(const torch::Tensor& x) {
    const int64_t c2 = out_channels(cv1), c3 = out_channels(cv2);
    const torch::Tensor buffer = concat_buffer(x, c2 + 2 * c3, x.size(2), x.size(3));
    cv1->forward_into(x, buffer.slice(1, 0, c2));
    cv2->forward_into(buffer.slice(1, c2 / 2, c2), buffer.slice(1, c2, c2 + c3));
    cv3->forward_into(buffer.slice(1, c2, c2 + c3), buffer.slice(1, c2 + c3, c2 + 2 * c3));
    return cv4(buffer);
}

RepNCSPELANImpl::RepNCSPELANImpl(int64_t c1, int64_t c2, int64_t c3, int64_t c4, int64_t repeats) {
    cv1 = register_module("cv1", Conv(ConvOptions(c1, c2, 1)));
    cv2 = register_module("cv2", torch::nn::Sequential(RepNCSP(c2 / 2, c3, repeats), Conv(ConvOptions(c3, c3, 3))));
    cv3 = register_module("cv3", torch::nn::Sequential(RepNCSP(c3, c3, repeats), Conv(ConvOptions(c3, c3, 3))));
    cv4 = register_module("cv4", Conv(ConvOptions(c2 + 2 * c3, c4, 1)));
}

torch::Tensor RepNCSPELANImpl::forward(const torch::Tensor& x) {
    if (cv4->folded()) return forward_in_place(x);
    std::vector<torch::Tensor> y = cv1(x).chunk(2, 1);
    y.push_back(cv2->forward(y.back()));
    y.push_back(cv3->forward(y.back()));
    return cv4(torch::cat(y, 1));
}

// cv2 and cv3 are (RepNCSP, Conv): the Conv writes the part.
torch::Tensor RepNCSPELANImpl::forward_in_place(const torch::Tensor& x) {
    const std::shared_ptr<ConvImpl> tail2 = cv2->ptr<ConvImpl>(1), tail3 = cv3->ptr<ConvImpl>(1);
    const int64_t c2 = out_channels(cv1), c3 = tail2->conv->weight.size(0);
    const torch::Tensor buffer = concat_buffer(x, c2 + 2 * c3, x.size(2), x.size(3));
    const torch::Tensor part2 = buffer.slice(1, c2, c2 + c3), part3 = buffer.slice(1, c2 + c3, c2 + 2 * c3);
    cv1->forward_into(x, buffer.slice(1, 0, c2));
    tail2->forward_into(cv2->ptr<RepNCSPImpl>(0)->forward(buffer.slice(1, c2 / 2, c2)), part2);
    tail3->forward_into(cv3->ptr<RepNCSPImpl>(0)->forward(part2), part3);
    return cv4(buffer);
}

namespace {
// avg_pool2d(x, 2, 1, 0, ceil_mode=False, count_include_pad=True), LibreYOLO's pre-pool; the fused
// copy's through the avg_pool_2x2 slot (the same values).
torch::Tensor smooth(const torch::Tensor& x, bool fused) {
    if (fused) return kernels::avg_pool_2x2_slot()(x);
    return F::avg_pool2d(x, F::AvgPool2dFuncOptions(2).stride(1).padding(0).ceil_mode(false).count_include_pad(true));
}
}  // namespace

AConvImpl::AConvImpl(int64_t in, int64_t out) {
    cv = register_module("cv", Conv(ConvOptions(in, out, 3).stride(2).padding(1)));
}

torch::Tensor AConvImpl::forward(const torch::Tensor& x) {
    return cv(smooth(x, cv->folded()));
}

ADownImpl::ADownImpl(int64_t in, int64_t out) {
    cv1 = register_module("cv1", Conv(ConvOptions(in / 2, out / 2, 3).stride(2).padding(1)));
    cv2 = register_module("cv2", Conv(ConvOptions(in / 2, out / 2, 1).stride(1).padding(0)));
}

torch::Tensor ADownImpl::forward(const torch::Tensor& x) {
    if (cv1->folded()) return forward_in_place(x);
    std::vector<torch::Tensor> halves = smooth(x, false).chunk(2, 1);
    torch::Tensor a = cv1(halves[0]);
    torch::Tensor b = cv2(F::max_pool2d(halves[1], F::MaxPool2dFuncOptions(3).stride(2).padding(1)));
    return torch::cat({a, b}, 1);
}

torch::Tensor ADownImpl::forward_in_place(const torch::Tensor& x) {
    const std::vector<torch::Tensor> halves = smooth(x, true).chunk(2, 1);
    const int64_t a = out_channels(cv1), b = out_channels(cv2);
    const std::vector<int64_t> size = kernels::conv_output_shape(halves[0], cv1->conv->weight, *cv1->folded_geometry());
    const torch::Tensor buffer = concat_buffer(x, a + b, size[2], size[3]);
    graphs::run_concurrently(x.device(), {[&] {
                                              cv1->forward_into(halves[0], buffer.slice(1, 0, a));
                                              return torch::Tensor();
                                          },
                                          [&] {
                                              const torch::Tensor pooled = F::max_pool2d(
                                                  halves[1], F::MaxPool2dFuncOptions(3).stride(2).padding(1));
                                              cv2->forward_into(pooled, buffer.slice(1, a, a + b));
                                              return torch::Tensor();
                                          }});
    return buffer;
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
    if (cv5->folded()) return forward_in_place(x);
    std::vector<torch::Tensor> features{cv1(x)};
    for (int i = 0; i < 3; ++i)
        features.push_back(F::max_pool2d(features.back(), F::MaxPool2dFuncOptions(5).stride(1).padding(2)));
    return cv5(torch::cat(features, 1));
}

// cv1 writes the first part of the concatenation's buffer, the spp_max_pool slot the three pools.
torch::Tensor SPPELANImpl::forward_in_place(const torch::Tensor& x) {
    const int64_t neck = out_channels(cv1);
    const torch::Tensor buffer = concat_buffer(x, 4 * neck, x.size(2), x.size(3));
    cv1->forward_into(x, buffer.slice(1, 0, neck));
    return cv5(kernels::spp_max_pool_slot()(buffer, neck));
}

}  // namespace libreyolo::models::yolo9
