#include "graphs/graphed_network.h"

#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAEvent.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/custom_function.h>

#include <chrono>

#include "core/shape_text.h"
#include "graphs/capture_graph.h"
#include "graphs/capture_lock.h"

namespace libreyolo::graphs {

struct GraphedNetwork::State {
    CaptureGraph forward_graph, backward_graph;
    torch::Tensor static_input;
    TensorList static_outputs;       // written by the forward graph
    TensorList static_grad_outputs;  // read by the backward graph
    TensorList params;               // those requiring grad, in module order
    TensorList static_grad_params;   // written by the backward graph; undefined where unused
    std::int64_t replays = 0;
    std::int64_t backward_replays = 0;
    std::function<void(std::int64_t)> before_backward_replay;
    double capture_ms = 0;
};

namespace {

using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

// Autograd sees the parameters as inputs, so the gradients the backward graph writes flow to
// their .grad through the usual accumulation.
struct GraphedFunction : torch::autograd::Function<GraphedFunction> {
    static variable_list forward(AutogradContext* ctx, GraphedNetwork::State* state, const torch::Tensor& images,
                                 at::TensorList params) {
        (void)params;
        ctx->saved_data["state"] = reinterpret_cast<std::int64_t>(state);
        state->static_input.copy_(images);
        state->forward_graph.replay();
        ++state->replays;
        variable_list outputs;
        for (const torch::Tensor& out : state->static_outputs) outputs.push_back(out.detach());
        return outputs;
    }

    static variable_list backward(AutogradContext* ctx, variable_list grads) {
        auto* state = reinterpret_cast<GraphedNetwork::State*>(ctx->saved_data["state"].toInt());
        if (state->before_backward_replay) state->before_backward_replay(state->backward_replays + 1);
        ++state->backward_replays;
        for (std::size_t i = 0; i < grads.size(); ++i) {
            if (grads[i].defined())
                state->static_grad_outputs[i].copy_(grads[i]);
            else
                state->static_grad_outputs[i].zero_();  // an output the loss did not use
        }
        state->backward_graph.replay();
        variable_list result{torch::Tensor(), torch::Tensor()};  // the state pointer and the images
        for (const torch::Tensor& g : state->static_grad_params) result.push_back(g.defined() ? g.detach() : g);
        return result;
    }
};

// Autocast's cache keeps the float16 copies of the weights it made; made inside a capture they
// would live in the graph's pool and be freed (and reused) when the cache clears. As
// make_graphed_callables requires, the cache stays off while capturing.
class AutocastCacheOff {
public:
    AutocastCacheOff() : was_(at::autocast::is_autocast_cache_enabled()) {
        at::autocast::set_autocast_cache_enabled(false);
    }
    ~AutocastCacheOff() { at::autocast::set_autocast_cache_enabled(was_); }

private:
    bool was_;
};

}  // namespace

GraphedNetwork::GraphedNetwork(torch::nn::Module& module, TrainingForward forward, const torch::Tensor& example,
                               cudaStreamCaptureMode capture_mode, int warmup_passes)
    : state_(std::make_unique<State>()) {
    State& s = *state_;
    const c10::DeviceIndex index = example.device().index();
    const c10::cuda::CUDAGuard device_guard(index);
    const auto started = std::chrono::steady_clock::now();
    for (const torch::Tensor& p : module.parameters())
        if (p.requires_grad()) s.params.push_back(p);
    s.static_input = example.clone();

    // Warm-up moves the BatchNorm statistics (LibreYOLO PR #671): put them back afterwards.
    TensorList buffers = module.buffers(), saved_buffers;
    {
        torch::NoGradGuard no_grad;
        for (const torch::Tensor& b : buffers) saved_buffers.push_back(b.clone());
    }
    const at::cuda::MempoolId_t pool = at::cuda::graph_pool_handle();
    const c10::cuda::CUDAStream caller = c10::cuda::getCurrentCUDAStream(index);
    const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool(false, index);
    const std::lock_guard lock(capture_mutex());
    const AutocastCacheOff autocast_cache_off;
    at::cuda::CUDAEvent ready;
    ready.record(caller);
    ready.block(side);
    CaptureGraph* capturing = nullptr;
    try {
        const c10::cuda::CUDAStreamGuard on_side(side);
        for (int i = 0; i < warmup_passes; ++i) {
            const TensorList outputs = forward(s.static_input);
            TensorList ones;
            for (const torch::Tensor& o : outputs) ones.push_back(torch::ones_like(o));
            torch::autograd::grad(outputs, s.params, ones, /*retain_graph=*/false, /*create_graph=*/false,
                                  /*allow_unused=*/true);
        }
        {
            torch::NoGradGuard no_grad;
            for (std::size_t i = 0; i < buffers.size(); ++i) buffers[i].copy_(saved_buffers[i]);
        }
        side.synchronize();

        capturing = &s.forward_graph;
        s.forward_graph.capture_begin(pool, capture_mode);
        TensorList outputs = forward(s.static_input);
        s.forward_graph.capture_end();

        for (const torch::Tensor& o : outputs) s.static_grad_outputs.push_back(torch::empty_like(o));
        capturing = &s.backward_graph;
        s.backward_graph.capture_begin(pool, capture_mode);
        s.static_grad_params = torch::autograd::grad(outputs, s.params, s.static_grad_outputs,
                                                     /*retain_graph=*/false, /*create_graph=*/false,
                                                     /*allow_unused=*/true);
        s.backward_graph.capture_end();
        capturing = nullptr;
        for (const torch::Tensor& o : outputs) s.static_outputs.push_back(o.detach());
        side.synchronize();
    } catch (const c10::Error& e) {
        if (capturing) abandon_capture(*capturing, index, pool);
        throw capture_error(e, "the training step's network on " + shape_text(example.sizes()));
    } catch (...) {
        if (capturing) abandon_capture(*capturing, index, pool);
        throw;
    }
    s.capture_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
}

GraphedNetwork::~GraphedNetwork() = default;

bool GraphedNetwork::accepts(const torch::Tensor& images) const {
    const torch::Tensor& s = state_->static_input;
    return images.sizes() == s.sizes() && images.scalar_type() == s.scalar_type() && images.device() == s.device();
}

TensorList GraphedNetwork::operator()(const torch::Tensor& images) {
    return GraphedFunction::apply(state_.get(), images, at::TensorList(state_->params));
}

std::int64_t GraphedNetwork::replays() const {
    return state_->replays;
}
void GraphedNetwork::set_before_backward_replay(std::function<void(std::int64_t)> hook) {
    state_->before_backward_replay = std::move(hook);
}
double GraphedNetwork::capture_ms() const {
    return state_->capture_ms;
}
std::string GraphedNetwork::shape() const {
    return shape_text(state_->static_input.sizes());
}

}  // namespace libreyolo::graphs
