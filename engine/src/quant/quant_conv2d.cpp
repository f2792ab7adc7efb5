#include "quant/quant_conv2d.h"

#include "core/autocast.h"
#include "kernels/fake_quant_slot.h"
#include "quant/fake_quant.h"

namespace libreyolo::quant {
namespace {

constexpr double kPercentile = 0.999;
// torch::quantile refuses very large inputs; a strided sample of at most this many values stands
// in for the whole activation (LibreYOLO's cap).
constexpr int64_t kPercentileSampleCap = 1'000'000;

}  // namespace

void QuantConv2dImpl::prepare_fp8() {
    if (prepared_) return;
    TORCH_CHECK(std::holds_alternative<torch::enumtype::kZeros>(options.padding_mode()),
                "QuantConv2d: only zero padding is simulated");
    const auto on_device = torch::TensorOptions().device(weight.device());
    act_lo_ = register_buffer("_q_act_lo", torch::zeros({1}, on_device));
    act_hi_ = register_buffer("_q_act_hi", torch::zeros({1}, on_device));
    calibrated_flag_ = register_buffer("_q_calibrated", torch::zeros({1}, on_device.dtype(torch::kUInt8)));
    register_buffer("_q_w_scale", torch::zeros({options.out_channels()}, on_device));
    prepared_ = true;
    calibrated_ = false;
}

void QuantConv2dImpl::refresh_calibrated_flag() {
    calibrated_ = prepared_ && calibrated_flag_.item<double>() != 0;
}

torch::Tensor QuantConv2dImpl::input_scale() const {
    const torch::Tensor amax = torch::maximum(act_lo_.abs(), act_hi_.abs());
    return (amax.to(torch::kFloat32) / kernels::kE4M3Max).reshape({1});
}

torch::Tensor QuantConv2dImpl::weight_scale() const {
    const torch::Tensor amax = weight.detach().to(torch::kFloat32).abs().amax({1, 2, 3});
    return (amax / kernels::kE4M3Max).clamp_min(kernels::kScaleEpsilon).reshape({-1, 1, 1, 1});
}

void QuantConv2dImpl::begin_observation(RangeAlgorithm algorithm) {
    TORCH_CHECK(prepared_, "QuantConv2d: prepare_fp8() before observing");
    algorithm_ = algorithm;
    observing_ = true;
    percentile_lo_sum_ = percentile_hi_sum_ = 0;
    percentile_batches_ = 0;
    torch::NoGradGuard no_grad;
    calibrated_flag_.zero_();
    calibrated_ = false;
}

void QuantConv2dImpl::observe(const torch::Tensor& input) {
    torch::NoGradGuard no_grad;
    if (algorithm_ == RangeAlgorithm::Percentile) {
        torch::Tensor flat = input.detach().reshape({-1}).to(torch::kFloat32);
        if (flat.numel() > kPercentileSampleCap) {
            const int64_t step = (flat.numel() + kPercentileSampleCap - 1) / kPercentileSampleCap;
            flat = flat.slice(0, 0, flat.numel(), step);
        }
        const torch::Tensor q = torch::quantile(flat, torch::tensor({1.0 - kPercentile, kPercentile}, flat.options()));
        percentile_lo_sum_ += q[0].item<double>();
        percentile_hi_sum_ += q[1].item<double>();
        ++percentile_batches_;
        return;
    }
    const torch::Tensor batch_lo = input.amin().to(act_lo_.options()).reshape({1});
    const torch::Tensor batch_hi = input.amax().to(act_hi_.options()).reshape({1});
    if (calibrated_) {
        act_lo_.copy_(torch::minimum(act_lo_, batch_lo));
        act_hi_.copy_(torch::maximum(act_hi_, batch_hi));
    } else {
        act_lo_.copy_(batch_lo);
        act_hi_.copy_(batch_hi);
        calibrated_flag_.fill_(1);
        calibrated_ = true;
    }
}

void QuantConv2dImpl::end_observation() {
    if (!observing_) return;
    observing_ = false;
    if (algorithm_ == RangeAlgorithm::Percentile && percentile_batches_ > 0) {
        torch::NoGradGuard no_grad;
        act_lo_.fill_(percentile_lo_sum_ / percentile_batches_);
        act_hi_.fill_(percentile_hi_sum_ / percentile_batches_);
        calibrated_flag_.fill_(1);
        calibrated_ = true;
    }
}

torch::Tensor QuantConv2dImpl::forward(const torch::Tensor& input) {
    if (!prepared_) return Conv2dImpl::forward(input);
    const AutocastOff float_island;
    torch::Tensor x = input.to(torch::kFloat32);
    if (observing_)
        observe(x);
    else if (calibrated_)
        x = fake_quant_fp8(x, input_scale());
    const torch::Tensor w = fake_quant_fp8(weight.to(torch::kFloat32), weight_scale());
    const torch::Tensor b = bias.defined() ? bias.to(torch::kFloat32) : torch::Tensor();
    torch::Tensor out = torch::nn::functional::conv2d(x, w,
                                                      torch::nn::functional::Conv2dFuncOptions()
                                                          .bias(b)
                                                          .stride(options.stride())
                                                          .padding(options.padding())
                                                          .dilation(options.dilation())
                                                          .groups(options.groups()));
    return out.scalar_type() == input.scalar_type() ? out : out.to(input.scalar_type());
}

}  // namespace libreyolo::quant
