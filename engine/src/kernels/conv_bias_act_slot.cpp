#include "kernels/conv_bias_act_slot.h"

#include <variant>

#include "kernels/onednn_conv_bias_act.h"
#ifdef LIBREYOLO_HAVE_CUDNN_FUSION
#include "kernels/cudnn_conv_bias_act.h"
#endif

namespace libreyolo::kernels {

ConvGeometry conv_geometry(const torch::nn::Conv2dImpl& conv) {
    const auto& o = conv.options;
    const auto* padding = std::get_if<torch::ExpandingArray<2>>(&o.padding());
    if (!padding) throw NotSupported("conv_bias_act: a convolution with padding 'same' or 'valid'");
    ConvGeometry g;
    g.stride = torch::IntArrayRef(o.stride()).vec();
    g.padding = torch::IntArrayRef(*padding).vec();
    g.dilation = torch::IntArrayRef(o.dilation()).vec();
    g.groups = o.groups();
    return g;
}

torch::Tensor activate(const torch::Tensor& x, ConvActivation activation) {
    switch (activation) {
        case ConvActivation::ReLU:
            return torch::relu(x);
        case ConvActivation::SiLU:
            return torch::silu(x);
        case ConvActivation::None:
            break;
    }
    return x;
}

std::vector<int64_t> conv_output_shape(const torch::Tensor& x, const torch::Tensor& weight, const ConvGeometry& g) {
    std::vector<int64_t> shape{x.size(0), weight.size(0), 0, 0};
    for (int d = 0; d < 2; ++d)
        shape[2 + d] =
            (x.size(2 + d) + 2 * g.padding[d] - g.dilation[d] * (weight.size(2 + d) - 1) - 1) / g.stride[d] + 1;
    return shape;
}

bool out_fits(const torch::Tensor& out, const torch::Tensor& x, const torch::Tensor& weight, const ConvGeometry& g) {
    return !out.defined() || (out.scalar_type() == x.scalar_type() && out.device() == x.device() &&
                              out.sizes().vec() == conv_output_shape(x, weight, g));
}

bool residual_fits(const torch::Tensor& residual, const torch::Tensor& x, const torch::Tensor& weight,
                   const ConvGeometry& g) {
    return !residual.defined() || (residual.scalar_type() == x.scalar_type() && residual.device() == x.device() &&
                                   residual.sizes().vec() == conv_output_shape(x, weight, g));
}

torch::Tensor add_residual(const torch::Tensor& y, const torch::Tensor& residual) {
    if (!residual.defined()) return y;
    if (residual.sizes() != y.sizes() || residual.scalar_type() != y.scalar_type() || residual.device() != y.device())
        throw InvalidArgument("conv_bias_act: residual must have the result's shape, dtype and device");
    return residual + y;  // RepNBottleneck's x + cv2(cv1(x))
}

torch::Tensor apply_epilogue(const torch::Tensor& y, const ConvEpilogue& e, const torch::Tensor& residual) {
    if (e.residual_join == ResidualJoin::BeforeActivation) return activate(add_residual(y, residual), e.activation);
    return add_residual(activate(y, e.activation), residual);
}

torch::Tensor write_into(const torch::Tensor& out, const torch::Tensor& y) {
    if (!out.defined()) return y;
    if (out.sizes() != y.sizes() || out.scalar_type() != y.scalar_type() || out.device() != y.device())
        throw InvalidArgument("conv_bias_act: out must have the result's shape, dtype and device");
    out.copy_(y);
    return out;
}

torch::Tensor conv_bias_act_reference(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      const ConvGeometry& g, const ConvEpilogue& epilogue, const torch::Tensor& out,
                                      const torch::Tensor& residual) {
    const torch::Tensor y = torch::conv2d(x, weight, bias, g.stride, g.padding, g.dilation, g.groups);
    return write_into(out, apply_epilogue(y, epilogue, residual));
}

torch::Tensor conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                            const ConvGeometry& geometry, const ConvEpilogue& epilogue, const torch::Tensor& out,
                            const torch::Tensor& residual) {
    return conv_bias_act_slot()(x, weight, bias, geometry, epilogue, out, residual);
}

Slot<ConvBiasActSignature>& conv_bias_act_slot() {
    static Slot<ConvBiasActSignature>& slot = []() -> Slot<ConvBiasActSignature>& {
        static Slot<ConvBiasActSignature> s(
            "conv_bias_act",
            "convolution + bias + activation (none, relu, silu), inference: (x, weight, bias, geometry, "
            "epilogue, out, residual) -> act(conv + bias) + residual, or act(conv + bias + residual) "
            "(written into out when given)",
            &conv_bias_act_reference);
        if (const std::string missing = onednn_conv_bias_act_missing(); missing.empty())
            s.register_impl("onednn", kOneDnnProvider, &onednn_conv_bias_act, &onednn_conv_bias_act_accepts);
        else
            s.register_unavailable("onednn", kOneDnnProvider, missing);
#ifdef LIBREYOLO_HAVE_CUDNN_FUSION
        if (const std::string missing = cudnn_conv_bias_act_missing(); missing.empty())
            s.register_impl("cudnn-fusion", kCudnnProvider, &cudnn_conv_bias_act, &cudnn_conv_bias_act_accepts);
        else
            s.register_unavailable("cudnn-fusion", kCudnnProvider, missing);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
