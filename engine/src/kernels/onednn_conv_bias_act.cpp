#include "kernels/onednn_conv_bias_act.h"

#include <ATen/core/dispatch/Dispatcher.h>

namespace libreyolo::kernels {

namespace {

constexpr const char* kOperator = "mkldnn::_convolution_pointwise";

const c10::OperatorHandle* pointwise_convolution() {
    static const std::optional<c10::OperatorHandle> op = c10::Dispatcher::singleton().findSchema({kOperator, ""});
    return op ? &*op : nullptr;
}

const char* post_op(ConvActivation activation) {
    switch (activation) {
        case ConvActivation::ReLU:
            return "relu";
        case ConvActivation::SiLU:
            return "swish";
        case ConvActivation::None:
            break;
    }
    return "none";
}

}  // namespace

std::string onednn_conv_bias_act_missing() {
    if (!at::hasMKLDNN()) return "this LibTorch is built without oneDNN";
    if (!pointwise_convolution()) return std::string("this LibTorch has no ") + kOperator;
    return "";
}

bool onednn_conv_bias_act_accepts(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  const ConvGeometry& g, const ConvEpilogue&, const torch::Tensor& out,
                                  const torch::Tensor& residual) {
    return x.device().is_cpu() && out_fits(out, x, weight, g) && residual_fits(residual, x, weight, g) &&
           x.dim() == 4 && x.scalar_type() == torch::kFloat32 && weight.scalar_type() == torch::kFloat32 &&
           (!bias.defined() || bias.scalar_type() == torch::kFloat32) &&
           !(torch::GradMode::is_enabled() && (x.requires_grad() || weight.requires_grad()));
}

torch::Tensor onednn_conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                   const ConvGeometry& g, const ConvEpilogue& epilogue, const torch::Tensor& out,
                                   const torch::Tensor& residual) {
    const bool joins_first = residual.defined() && epilogue.residual_join == ResidualJoin::BeforeActivation;
    const c10::OperatorHandle* op = pointwise_convolution();
    if (!op) throw NotSupported(onednn_conv_bias_act_missing());
    torch::jit::Stack stack{x,
                            weight,
                            bias.defined() ? c10::IValue(bias) : c10::IValue(),
                            g.padding,
                            g.stride,
                            g.dilation,
                            g.groups,
                            std::string(post_op(joins_first ? ConvActivation::None : epilogue.activation)),
                            c10::List<std::optional<c10::Scalar>>(),
                            c10::IValue()};
    op->callBoxed(&stack);
    torch::Tensor y = stack.at(0).toTensor();
    if (residual.defined()) y.add_(residual);  // y is the operator's own new tensor
    return write_into(out, joins_first ? activate(y, epilogue.activation) : y);
}

}  // namespace libreyolo::kernels
