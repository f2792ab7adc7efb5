#include "kernels/cudnn_conv_bias_act.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cudnn/Handle.h>
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAGuard.h>
#include <cudnn_frontend.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace libreyolo::kernels {

namespace {

namespace fe = cudnn_frontend;
using Attributes = std::shared_ptr<fe::graph::Tensor_attributes>;

// One compiled operation graph: the fused engine for one shape, dtype and geometry.
struct FusedConvolution {
    fe::graph::Graph graph;
    Attributes x, weight, bias, y;
    std::vector<int64_t> y_shape;
    int64_t workspace_bytes = 0;
};

using PlanKey =
    std::tuple<c10::DeviceIndex, c10::ScalarType, std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>,
               std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, int, bool>;

// A shape cuDNN cannot fuse is cached as null, so that it is asked once.
std::mutex plans_mutex;
std::map<PlanKey, std::shared_ptr<const FusedConvolution>>& plans() {
    static std::map<PlanKey, std::shared_ptr<const FusedConvolution>> cache;
    return cache;
}

fe::DataType_t data_type(c10::ScalarType t) {
    return t == torch::kBFloat16 ? fe::DataType_t::BFLOAT16 : fe::DataType_t::HALF;
}

// NHWC strides of an NCHW-ordered shape.
std::vector<int64_t> channels_last_strides(const std::vector<int64_t>& s) {
    return {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
}

std::vector<int64_t> output_shape(const torch::Tensor& x, const torch::Tensor& weight, const ConvGeometry& g) {
    std::vector<int64_t> shape{x.size(0), weight.size(0), 0, 0};
    for (int d = 0; d < 2; ++d)
        shape[2 + d] =
            (x.size(2 + d) + 2 * g.padding[d] - g.dilation[d] * (weight.size(2 + d) - 1) - 1) / g.stride[d] + 1;
    return shape;
}

// Null when cuDNN has no engine for this graph on this device.
std::shared_ptr<const FusedConvolution> build(const torch::Tensor& x, const torch::Tensor& weight, bool has_bias,
                                              const ConvGeometry& g, ConvActivation activation) {
    auto plan = std::make_shared<FusedConvolution>();
    fe::graph::Graph& graph = plan->graph;
    graph.set_io_data_type(data_type(x.scalar_type()))
        .set_intermediate_data_type(fe::DataType_t::FLOAT)
        .set_compute_data_type(fe::DataType_t::FLOAT);
    plan->x = graph.tensor(
        fe::graph::Tensor_attributes().set_name("x").set_dim(x.sizes().vec()).set_stride(x.strides().vec()));
    plan->weight = graph.tensor(fe::graph::Tensor_attributes()
                                    .set_name("weight")
                                    .set_dim(weight.sizes().vec())
                                    .set_stride(weight.strides().vec()));
    Attributes y = graph.conv_fprop(
        plan->x, plan->weight,
        fe::graph::Conv_fprop_attributes().set_name("conv").set_padding(g.padding).set_stride(g.stride).set_dilation(
            g.dilation));
    const int64_t k = weight.size(0);
    if (has_bias) {
        plan->bias = graph.tensor(
            fe::graph::Tensor_attributes().set_name("bias").set_dim({1, k, 1, 1}).set_stride({k, 1, k, k}));
        y = graph.pointwise(y, plan->bias,
                            fe::graph::Pointwise_attributes().set_name("bias").set_mode(fe::PointwiseMode_t::ADD));
    }
    if (activation == ConvActivation::SiLU)
        y = graph.pointwise(y, fe::graph::Pointwise_attributes()
                                   .set_name("silu")
                                   .set_mode(fe::PointwiseMode_t::SWISH_FWD)
                                   .set_swish_beta(1.f));
    else if (activation == ConvActivation::ReLU)
        y = graph.pointwise(y,
                            fe::graph::Pointwise_attributes().set_name("relu").set_mode(fe::PointwiseMode_t::RELU_FWD));
    plan->y_shape = output_shape(x, weight, g);
    y->set_output(true)
        .set_data_type(data_type(x.scalar_type()))
        .set_dim(plan->y_shape)
        .set_stride(channels_last_strides(plan->y_shape));
    plan->y = y;

    cudnnHandle_t handle = at::native::getCudnnHandle();
    if (!graph.validate().is_good() || !graph.build_operation_graph(handle).is_good() ||
        !graph.create_execution_plans({fe::HeurMode_t::A}).is_good() || !graph.check_support(handle).is_good() ||
        !graph.build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE).is_good() ||
        !graph.get_workspace_size(plan->workspace_bytes).is_good())
        return nullptr;
    return plan;
}

std::shared_ptr<const FusedConvolution> plan_for(const torch::Tensor& x, const torch::Tensor& weight,
                                                 const torch::Tensor& bias, const ConvGeometry& g,
                                                 ConvActivation activation, bool may_build) {
    const PlanKey key{x.device().index(),           x.scalar_type(), x.sizes().vec(), x.strides().vec(),
                      weight.sizes().vec(),         g.stride,        g.padding,       g.dilation,
                      static_cast<int>(activation), bias.defined()};
    const std::lock_guard lock(plans_mutex);
    auto& cache = plans();
    if (const auto found = cache.find(key); found != cache.end()) return found->second;
    if (!may_build) return nullptr;
    const c10::cuda::CUDAGuard device(x.device().index());
    return cache[key] = build(x, weight, bias.defined(), g, activation);
}

// Channels innermost and each row of pixels packed: a channels-last tensor, or a channel slice of
// one (the half of a block's output that ELAN and ADown pass on), at 16-byte alignment, which the
// fused engines' vectorised loads need.
bool channels_last_rows(const torch::Tensor& t) {
    const int64_t channels = t.size(1), element = t.element_size();
    return t.stride(1) == 1 && t.stride(3) >= channels && t.stride(2) == t.size(3) * t.stride(3) &&
           t.stride(0) >= t.size(2) * t.stride(2) && (t.stride(3) * element) % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(t.data_ptr()) % 16 == 0;
}

bool capturing() {
    return c10::cuda::currentStreamCaptureStatusMayInitCtx() != c10::cuda::CaptureStatus::None;
}

}  // namespace

std::string cudnn_conv_bias_act_missing() {
    if (!torch::cuda::is_available()) return "no CUDA device";
    if (!torch::cuda::cudnn_is_available()) return "LibTorch sees no cuDNN";
    return "";
}

bool cudnn_conv_bias_act_accepts(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                 const ConvGeometry& g, const ConvActivation& activation) {
    const auto dtype = x.scalar_type();
    if (!x.is_cuda() || x.dim() != 4 || g.groups != 1 || (dtype != torch::kFloat16 && dtype != torch::kBFloat16))
        return false;
    if (weight.scalar_type() != dtype || (bias.defined() && (bias.scalar_type() != dtype || !bias.is_contiguous())))
        return false;
    if (!channels_last_rows(x) || !weight.is_contiguous(torch::MemoryFormat::ChannelsLast)) return false;
    if (torch::GradMode::is_enabled() && (x.requires_grad() || weight.requires_grad())) return false;
    return plan_for(x, weight, bias, g, activation, !capturing()) != nullptr;
}

torch::Tensor cudnn_conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  const ConvGeometry& g, ConvActivation activation) {
    const std::shared_ptr<const FusedConvolution> plan = plan_for(x, weight, bias, g, activation, !capturing());
    if (!plan) throw NotSupported("conv_bias_act (cudnn): no fused engine for this shape");
    const c10::cuda::CUDAGuard device(x.device().index());
    torch::Tensor y = torch::empty(plan->y_shape, x.options().memory_format(torch::MemoryFormat::ChannelsLast));
    torch::Tensor workspace =
        torch::empty({std::max<int64_t>(plan->workspace_bytes, 1)}, x.options().dtype(torch::kByte));
    std::unordered_map<Attributes, void*> pointers{
        {plan->x, x.data_ptr()}, {plan->weight, weight.data_ptr()}, {plan->y, y.data_ptr()}};
    if (plan->bias) pointers.emplace(plan->bias, bias.data_ptr());
    // getCudnnHandle binds the handle to the current stream (a capture's side stream included).
    fe::error_t status = plan->graph.execute(at::native::getCudnnHandle(), pointers, workspace.data_ptr());
    if (!status.is_good()) throw Error("conv_bias_act (cudnn): " + status.get_message());
    return y;
}

}  // namespace libreyolo::kernels
