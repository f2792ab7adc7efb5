#include "distributed/sync_batch_norm.h"

#include <atomic>

#include "libreyolo/errors.h"

namespace libreyolo::distributed {
namespace {

// Process-wide, not thread-local: autograd runs the all-reduce's backward on its own threads.
std::atomic<ProcessGroup*> sync_group{nullptr};

ProcessGroup& active_group() {
    ProcessGroup* group = sync_group.load();
    TORCH_CHECK(group, "SyncBatchNorm: backward ran after its SyncBatchNormScope ended");
    return *group;
}

struct AllReduceSum : torch::autograd::Function<AllReduceSum> {
    static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x) {
        std::vector<torch::Tensor> sum{x.clone()};
        active_group().all_reduce_sum(sum);
        return sum[0];
    }
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext*,
                                                   torch::autograd::variable_list grads) {
        std::vector<torch::Tensor> sum{grads[0].contiguous().clone()};
        active_group().all_reduce_sum(sum);
        return {sum[0]};
    }
};

}  // namespace

SyncBatchNormScope::SyncBatchNormScope(ProcessGroup& group) {
    ProcessGroup* expected = nullptr;
    if (!sync_group.compare_exchange_strong(expected, &group))
        throw InvalidArgument("sync_bn: another training run in this process already synchronises BatchNorm");
}

SyncBatchNormScope::~SyncBatchNormScope() {
    sync_group.store(nullptr);
}

torch::Tensor batch_norm(torch::nn::BatchNorm2dImpl& bn, const torch::Tensor& x) {
    if (!bn.is_training() || sync_group.load() == nullptr) return bn.forward(x);
    const auto& o = bn.options;
    const int64_t channels = x.size(1);
    const torch::Tensor x32 = x.to(torch::kFloat32);
    const double local_count = static_cast<double>(x.numel() / channels);
    // One all-reduce carries the per-channel sums, sums of squares and the element count, in
    // float64: the variance is their difference, which float32 would lose to cancellation (the
    // one-process BatchNorm accumulates in double on the CPU too).
    const torch::Tensor x64 = x.to(torch::kFloat64);
    const torch::Tensor local =
        torch::cat({x64.sum({0, 2, 3}), x64.square().sum({0, 2, 3}), torch::full({1}, local_count, x64.options())});
    const torch::Tensor global = AllReduceSum::apply(local);
    const torch::Tensor count = global.narrow(0, 2 * channels, 1);
    const torch::Tensor mean64 = global.narrow(0, 0, channels) / count;
    const torch::Tensor var64 = global.narrow(0, channels, channels) / count - mean64.square();  // biased
    const torch::Tensor mean = mean64.to(torch::kFloat32), var = var64.to(torch::kFloat32);
    const auto shape = std::vector<int64_t>{1, channels, 1, 1};
    torch::Tensor y = (x32 - mean.view(shape)) * torch::rsqrt(var + o.eps()).view(shape);
    if (o.affine()) y = y * bn.weight.view(shape) + bn.bias.view(shape);
    if (o.track_running_stats()) {
        torch::NoGradGuard no_grad;
        const double momentum = o.momentum().value_or(0.1);
        const torch::Tensor n = count.detach();
        const torch::Tensor unbiased = var.detach() * n / (n - 1).clamp_min(1);
        bn.running_mean.mul_(1 - momentum).add_(mean.detach().to(bn.running_mean.scalar_type()) * momentum);
        bn.running_var.mul_(1 - momentum).add_(unbiased.to(bn.running_var.scalar_type()) * momentum);
        bn.num_batches_tracked.add_(1);
    }
    return y.to(x.scalar_type());
}

}  // namespace libreyolo::distributed
