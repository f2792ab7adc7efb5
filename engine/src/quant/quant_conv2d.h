#pragma once
// A Conv2d that can simulate FP8 E4M3 W8A8 arithmetic: LibreYOLO's QuantConv2d in its "prepared"
// (simulation) state. Unprepared it is exactly torch::nn::Conv2d, with the same state_dict, so
// every network builds its convolutions from it and quantize() needs no module surgery (LibTorch
// modules cannot be swapped under their parents' typed members).
//
// Prepared, it registers LibreYOLO's buffers beside weight: _q_act_lo, _q_act_hi (the calibrated
// input range), _q_calibrated (uint8 flag) and _q_w_scale (per output channel, filled only by a
// finalized export, zeros in simulation). Its forward then runs in a float32 island with autocast
// off: the input through fake_quant_fp8 with the per-tensor scale max(|lo|, |hi|) / 448 once
// calibrated (float before), the weight through fake_quant_fp8 with per-output-channel scales
// amax / 448 computed from the live weight on every call (so training still reaches the masters
// through the straight-through gradient), then the convolution; the result in the input's dtype.
// LibTorch cannot unregister a buffer, so a prepared module stays prepared: dequantizing means
// building the network again (Model::dequantize does).
#include <torch/torch.h>

namespace libreyolo::quant {

enum class RangeAlgorithm { MinMax, Percentile };

class QuantConv2dImpl : public torch::nn::Conv2dImpl {
public:
    using torch::nn::Conv2dImpl::Conv2dImpl;

    torch::Tensor forward(const torch::Tensor& input);

    // Registers the quantization buffers on the weight's device (idempotent).
    void prepare_fp8();
    bool prepared() const { return prepared_; }

    // While observing, forward records its input's range (and does not quantize it).
    void begin_observation(RangeAlgorithm algorithm);
    // Writes the observed range into _q_act_lo/_q_act_hi: MinMax keeps the running extremes,
    // Percentile the mean over batches of each batch's 0.1 % and 99.9 % quantiles. A module that
    // saw no input stays uncalibrated.
    void end_observation();

    // Whether the input is quantized: read from _q_calibrated once, after loading or calibrating,
    // so forward never syncs with the device (a sync would break CUDA graph capture).
    bool calibrated() const { return calibrated_; }
    void refresh_calibrated_flag();

private:
    void observe(const torch::Tensor& input);
    // max(|lo|, |hi|) / 448 as a one-element float32 tensor.
    torch::Tensor input_scale() const;
    // amax over each output channel's weights / 448, clamped at 1e-12, shaped (out, 1, 1, 1).
    torch::Tensor weight_scale() const;

    // The registered buffers the forward reads (handles sharing their storage, as BatchNorm keeps
    // running_mean), set by prepare_fp8.
    torch::Tensor act_lo_, act_hi_, calibrated_flag_;
    bool prepared_ = false;    // the _q_* buffers exist
    bool calibrated_ = false;  // host copy of _q_calibrated
    bool observing_ = false;
    RangeAlgorithm algorithm_ = RangeAlgorithm::MinMax;
    // Percentile observation: sums of the per-batch quantiles and the batch count.
    double percentile_lo_sum_ = 0, percentile_hi_sum_ = 0;
    int percentile_batches_ = 0;
};
TORCH_MODULE(QuantConv2d);

}  // namespace libreyolo::quant
