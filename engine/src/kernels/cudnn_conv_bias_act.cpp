#include "kernels/cudnn_conv_bias_act.h"

#include <ATen/cuda/CUDAContext.h>
#include <ATen/cudnn/Handle.h>
#include <c10/cuda/CUDAGraphsC10Utils.h>
#include <c10/cuda/CUDAGuard.h>
#include <cudnn_frontend.h>

#include "kernels/fused_engine_choices.h"
#include "libreyolo/log.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <unordered_map>

namespace libreyolo::kernels {

namespace {

namespace fe = cudnn_frontend;

// Measured on the H200 (docs/fuse-bench.md): the fastest of the heuristic's first few engines.
constexpr int kDefaultAutotuneCandidates = 4;
using Attributes = std::shared_ptr<fe::graph::Tensor_attributes>;

// One compiled operation graph: the fused engine for one shape, dtype and geometry.
struct FusedConvolution {
    fe::graph::Graph graph;
    Attributes x, weight, bias, residual, y;
    std::vector<int64_t> y_shape;
    int64_t workspace_bytes = 0;
    int64_t engine = -1;  // the plan index to run; -1: the frontend's own candidate
};

// Device, dtype, x's sizes and strides, the weight's sizes, stride, padding, dilation, epilogue
// (epilogue_code), bias, y's strides, the residual's strides (empty: none).
using PlanKey = std::tuple<c10::DeviceIndex, c10::ScalarType, std::vector<int64_t>, std::vector<int64_t>,
                           std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, std::vector<int64_t>, int,
                           bool, std::vector<int64_t>, std::vector<int64_t>>;

// The activation's number, plus 10 when a residual joins before it: the codes of the epilogues that
// existed before the choice of join stay as they were, and so do the remembered engine choices.
int epilogue_code(const ConvEpilogue& e, const torch::Tensor& residual) {
    const bool joins_first = residual.defined() && e.residual_join == ResidualJoin::BeforeActivation;
    return static_cast<int>(e.activation) + (joins_first ? 10 : 0);
}

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

// How many of the heuristic's engines are built and timed per shape: LIBREYOLO_CUDNN_AUTOTUNE (0 or
// 1: the heuristic's first choice, untimed). Each candidate is compiled at build time, so more
// candidates cost first-call time, never replay time.
int autotune_candidates() {
    static const int count = [] {
        const char* value = std::getenv("LIBREYOLO_CUDNN_AUTOTUNE");
        if (value == nullptr || *value == '\0') return kDefaultAutotuneCandidates;
        char* end = nullptr;
        const long parsed = std::strtol(value, &end, 10);
        if (*end != '\0' || parsed < 0 || parsed > 64) {
            log_warning("kernels", std::string("LIBREYOLO_CUDNN_AUTOTUNE=") + value +
                                       ": not a count from 0 to 64; timing " +
                                       std::to_string(kDefaultAutotuneCandidates) + " candidates");
            return kDefaultAutotuneCandidates;
        }
        return static_cast<int>(parsed);
    }();
    return count;
}

// What identifies a shape's timing on another day: the GPU, the cuDNN and frontend versions, the
// candidate count and the plan key without the device index.
std::string choice_key(const torch::Tensor& x, const PlanKey& key, int candidates) {
    const cudaDeviceProp* gpu = at::cuda::getDeviceProperties(x.device().index());
    std::string text = std::string(gpu->name) + " sm" + std::to_string(gpu->major * 10 + gpu->minor) + " cudnn " +
                       std::to_string(cudnnGetVersion()) + " frontend " + std::to_string(CUDNN_FRONTEND_VERSION) +
                       " candidates " + std::to_string(candidates) + " " + c10::toString(std::get<1>(key));
    auto add = [&](const char* name, const std::vector<int64_t>& values) {
        text.append(" ").append(name);
        for (int64_t v : values) text.append(" ").append(std::to_string(v));
    };
    add("x", std::get<2>(key));
    add("x-strides", std::get<3>(key));
    add("w", std::get<4>(key));
    add("stride", std::get<5>(key));
    add("padding", std::get<6>(key));
    add("dilation", std::get<7>(key));
    add("y-strides", std::get<10>(key));
    if (!std::get<11>(key).empty()) add("residual-strides", std::get<11>(key));
    return text + " act " + std::to_string(std::get<8>(key)) + (std::get<9>(key) ? " bias" : "");
}

// Builds up to `candidates` of the heuristic's engines and keeps the fastest on this very call's
// tensors (cuDNN's own timing: CUDA events, best of repeated runs). The index of the engine to
// run, or -1 when none builds.
int64_t build_fastest_plan(FusedConvolution& plan, cudnnHandle_t handle, const torch::Tensor& x,
                           const torch::Tensor& weight, const torch::Tensor& bias, const torch::Tensor& residual,
                           const std::vector<int64_t>& y_strides, int candidates) {
    fe::graph::Graph& graph = plan.graph;
    int built = 0;
    int64_t first_built = -1;
    const int64_t available = graph.get_execution_plan_count();
    for (int64_t i = 0; i < available && built < candidates; ++i)
        if (graph.build_plan_at_index(handle, i).is_good() && built++ == 0) first_built = i;
    if (built <= 1) return first_built;
    // A scratch output with the real one's strides: timing must not write into the caller's tensor.
    torch::Tensor y = torch::empty_strided(plan.y_shape, y_strides, x.options());
    torch::Tensor workspace =
        torch::empty({std::max<int64_t>(graph.get_autotune_workspace_size(), 1)}, x.options().dtype(torch::kByte));
    std::unordered_map<Attributes, void*> pointers{
        {plan.x, x.data_ptr()}, {plan.weight, weight.data_ptr()}, {plan.y, y.data_ptr()}};
    if (plan.bias) pointers.emplace(plan.bias, bias.data_ptr());
    if (plan.residual) pointers.emplace(plan.residual, residual.data_ptr());
    // autotune reorders the plans fastest first.
    return graph.autotune(handle, pointers, workspace.data_ptr()).is_good() ? 0 : -1;
}

// The engine remembered for this shape when cuDNN still offers and builds it; else the fastest of
// the first `candidates`, remembered. -1 when none builds.
int64_t choose_engine(FusedConvolution& plan, cudnnHandle_t handle, const torch::Tensor& x, const torch::Tensor& weight,
                      const torch::Tensor& bias, const torch::Tensor& residual, const std::vector<int64_t>& y_strides,
                      int candidates, const std::string& key) {
    fe::graph::Graph& graph = plan.graph;
    if (const std::optional<std::string> remembered = remembered_fused_engine(key)) {
        const int64_t offered = graph.get_execution_plan_count();
        for (int64_t i = 0; i < offered; ++i) {
            std::string name;
            if (!graph.get_plan_name_at_index(i, name).is_good() || name != *remembered) continue;
            if (graph.build_plan_at_index(handle, i).is_good()) return i;
            break;  // offered but not buildable here: time the candidates again
        }
    }
    static std::once_flag told;
    std::call_once(told, [] {
        log_info("kernels",
                 "cuDNN: timing " + std::to_string(autotune_candidates()) +
                     " fused engines for each new convolution shape (once per GPU and shape, remembered in " +
                     fused_engine_choices_file().string() + "); this first call takes longer");
    });
    const int64_t engine = build_fastest_plan(plan, handle, x, weight, bias, residual, y_strides, candidates);
    if (std::string name; engine >= 0 && graph.get_plan_name_at_index(engine, name).is_good())
        remember_fused_engine(key, name);
    return engine;
}

// Null when cuDNN has no engine for this graph on this device.
std::shared_ptr<const FusedConvolution> build(const torch::Tensor& x, const torch::Tensor& weight,
                                              const torch::Tensor& bias, const torch::Tensor& residual,
                                              const ConvGeometry& g, const ConvEpilogue& epilogue, const PlanKey& key) {
    const std::vector<int64_t>& y_strides = std::get<10>(key);
    const bool has_bias = bias.defined();
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
    plan->y_shape = conv_output_shape(x, weight, g);
    const auto add_residual = [&] {
        plan->residual = graph.tensor(fe::graph::Tensor_attributes()
                                          .set_name("residual")
                                          .set_dim(plan->y_shape)
                                          .set_stride(residual.strides().vec()));
        y = graph.pointwise(plan->residual, y,
                            fe::graph::Pointwise_attributes().set_name("residual").set_mode(fe::PointwiseMode_t::ADD));
    };
    const bool joins_first = residual.defined() && epilogue.residual_join == ResidualJoin::BeforeActivation;
    if (joins_first) add_residual();
    if (epilogue.activation == ConvActivation::SiLU)
        y = graph.pointwise(y, fe::graph::Pointwise_attributes()
                                   .set_name("silu")
                                   .set_mode(fe::PointwiseMode_t::SWISH_FWD)
                                   .set_swish_beta(1.f));
    else if (epilogue.activation == ConvActivation::ReLU)
        y = graph.pointwise(y,
                            fe::graph::Pointwise_attributes().set_name("relu").set_mode(fe::PointwiseMode_t::RELU_FWD));
    if (residual.defined() && !joins_first) add_residual();
    y->set_output(true).set_data_type(data_type(x.scalar_type())).set_dim(plan->y_shape).set_stride(y_strides);
    plan->y = y;

    cudnnHandle_t handle = at::native::getCudnnHandle();
    if (!graph.validate().is_good() || !graph.build_operation_graph(handle).is_good() ||
        !graph.create_execution_plans({fe::HeurMode_t::A}).is_good() || !graph.check_support(handle).is_good())
        return nullptr;
    const int candidates = autotune_candidates();
    if (candidates <= 1) {
        if (!graph.build_plans(handle, fe::BuildPlanPolicy_t::HEURISTICS_CHOICE).is_good() ||
            !graph.get_workspace_size(plan->workspace_bytes).is_good())
            return nullptr;
        return plan;
    }
    plan->engine =
        choose_engine(*plan, handle, x, weight, bias, residual, y_strides, candidates, choice_key(x, key, candidates));
    if (plan->engine < 0 || !graph.get_workspace_size_plan_at_index(plan->engine, plan->workspace_bytes).is_good())
        return nullptr;
    return plan;
}

std::shared_ptr<const FusedConvolution> plan_for(const torch::Tensor& x, const torch::Tensor& weight,
                                                 const torch::Tensor& bias, const ConvGeometry& g,
                                                 const ConvEpilogue& epilogue, const torch::Tensor& out,
                                                 const torch::Tensor& residual, bool may_build) {
    const std::vector<int64_t> y_strides =
        out.defined() ? out.strides().vec() : channels_last_strides(conv_output_shape(x, weight, g));
    const PlanKey key{x.device().index(),
                      x.scalar_type(),
                      x.sizes().vec(),
                      x.strides().vec(),
                      weight.sizes().vec(),
                      g.stride,
                      g.padding,
                      g.dilation,
                      epilogue_code(epilogue, residual),
                      bias.defined(),
                      y_strides,
                      residual.defined() ? residual.strides().vec() : std::vector<int64_t>{}};
    const std::lock_guard lock(plans_mutex);
    auto& cache = plans();
    if (const auto found = cache.find(key); found != cache.end()) return found->second;
    if (!may_build) return nullptr;
    const c10::cuda::CUDAGuard device(x.device().index());
    return cache[key] = build(x, weight, bias, residual, g, epilogue, key);
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
                                 const ConvGeometry& g, const ConvEpilogue& epilogue, const torch::Tensor& out,
                                 const torch::Tensor& residual) {
    const auto dtype = x.scalar_type();
    if (!x.is_cuda() || x.dim() != 4 || g.groups < 1 || x.size(1) != weight.size(1) * g.groups ||
        (dtype != torch::kFloat16 && dtype != torch::kBFloat16))
        return false;
    if (weight.scalar_type() != dtype || (bias.defined() && (bias.scalar_type() != dtype || !bias.is_contiguous())))
        return false;
    if (!channels_last_rows(x) || !weight.is_contiguous(torch::MemoryFormat::ChannelsLast)) return false;
    if (torch::GradMode::is_enabled() && (x.requires_grad() || weight.requires_grad())) return false;
    if (!out_fits(out, x, weight, g) || (out.defined() && !channels_last_rows(out))) return false;
    if (!residual_fits(residual, x, weight, g) || (residual.defined() && !channels_last_rows(residual))) return false;
    return plan_for(x, weight, bias, g, epilogue, out, residual, !capturing()) != nullptr;
}

torch::Tensor cudnn_conv_bias_act(const torch::Tensor& x, const torch::Tensor& weight, const torch::Tensor& bias,
                                  const ConvGeometry& g, const ConvEpilogue& epilogue, const torch::Tensor& out,
                                  const torch::Tensor& residual) {
    const std::shared_ptr<const FusedConvolution> plan =
        plan_for(x, weight, bias, g, epilogue, out, residual, !capturing());
    if (!plan) throw NotSupported("conv_bias_act (cudnn): no fused engine for this shape");
    const c10::cuda::CUDAGuard device(x.device().index());
    torch::Tensor y =
        out.defined() ? out : torch::empty(plan->y_shape, x.options().memory_format(torch::MemoryFormat::ChannelsLast));
    torch::Tensor workspace =
        torch::empty({std::max<int64_t>(plan->workspace_bytes, 1)}, x.options().dtype(torch::kByte));
    std::unordered_map<Attributes, void*> pointers{
        {plan->x, x.data_ptr()}, {plan->weight, weight.data_ptr()}, {plan->y, y.data_ptr()}};
    if (plan->bias) pointers.emplace(plan->bias, bias.data_ptr());
    if (plan->residual) pointers.emplace(plan->residual, residual.data_ptr());
    // getCudnnHandle binds the handle to the current stream (a capture's side stream included).
    cudnnHandle_t handle = at::native::getCudnnHandle();
    fe::error_t status = plan->engine >= 0
                             ? plan->graph.execute_plan_at_index(handle, pointers, workspace.data_ptr(), plan->engine)
                             : plan->graph.execute(handle, pointers, workspace.data_ptr());
    if (!status.is_good()) throw Error("conv_bias_act (cudnn): " + status.get_message());
    return y;
}

}  // namespace libreyolo::kernels
