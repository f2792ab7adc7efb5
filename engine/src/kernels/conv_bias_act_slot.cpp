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

torch::Tensor conv_bias_act_reference(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                      const ConvGeometry& g, ConvActivation activation) {
    return activate(torch::conv2d(x, weight, bias, g.stride, g.padding, g.dilation, g.groups), activation);
}

Slot<ConvBiasActSignature>& conv_bias_act_slot() {
    static Slot<ConvBiasActSignature>& slot = []() -> Slot<ConvBiasActSignature>& {
        static Slot<ConvBiasActSignature> s(
            "conv_bias_act",
            "convolution + bias + activation (none, relu, silu), inference: (x, weight, bias, geometry, "
            "activation) -> y",
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
