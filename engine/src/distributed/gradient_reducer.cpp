#include "distributed/gradient_reducer.h"

#include <torch/csrc/autograd/function_hook.h>
#include <torch/csrc/autograd/variable.h>

#include <map>

namespace libreyolo::distributed {
namespace {

class AccumulatedHook : public torch::autograd::PostAccumulateGradHook {
public:
    explicit AccumulatedHook(std::function<void()> fn) : fn_(std::move(fn)) {}
    void operator()(const torch::autograd::Variable&) override { fn_(); }

private:
    std::function<void()> fn_;
};

}  // namespace

GradientReducer::GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters, std::int64_t bucket_bytes,
                                 std::int64_t first_bucket_bytes)
    : group_(group),
      parameters_(std::move(parameters)),
      bucket_of_(parameters_.size()),
      exposed_wait_(parameters_.empty() ? torch::Device(torch::kCPU) : parameters_.front().device()) {
    std::int64_t filled = 0;
    for (std::size_t k = parameters_.size(); k-- > 0;) {
        const torch::Tensor& p = parameters_[k];
        const std::int64_t bytes = p.numel() * static_cast<std::int64_t>(p.element_size());
        const bool same_kind = !buckets_.empty() &&
                               parameters_[buckets_.back().members.front()].scalar_type() == p.scalar_type() &&
                               parameters_[buckets_.back().members.front()].device() == p.device();
        const std::int64_t cap = buckets_.size() == 1 ? first_bucket_bytes : bucket_bytes;
        if (buckets_.empty() || !same_kind || (filled > 0 && filled + bytes > cap)) {
            buckets_.emplace_back();
            filled = 0;
        }
        buckets_.back().members.push_back(k);
        bucket_of_[k] = buckets_.size() - 1;
        filled += bytes;
    }
    for (Bucket& b : buckets_) {
        std::int64_t numel = 0;
        for (std::size_t k : b.members) numel += parameters_[k].numel();
        b.flat = torch::zeros({numel}, parameters_[b.members.front()].options().requires_grad(false));
    }
    for (std::size_t k = 0; k < parameters_.size(); ++k)
        torch::autograd::impl::set_post_acc_grad_hooks(
            parameters_[k], std::make_unique<AccumulatedHook>([this, k] { on_gradient_accumulated(k); }));
}

GradientReducer::~GradientReducer() {
    for (const torch::Tensor& p : parameters_) torch::autograd::impl::set_post_acc_grad_hooks(p, nullptr);
}

void GradientReducer::begin_step() {
    const std::lock_guard<std::mutex> lock(mutex_);
    for (Bucket& b : buckets_) b.ready = 0;
    next_to_start_ = 0;
    started_during_backward_ = 0;
    in_backward_ = true;
}

void GradientReducer::on_gradient_accumulated(std::size_t parameter) {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!in_backward_) return;  // a backward outside a training step (none in the trainer)
    ++buckets_[bucket_of_[parameter]].ready;
    start_ready_buckets();
}

void GradientReducer::start_ready_buckets() {
    while (next_to_start_ < buckets_.size() &&
           buckets_[next_to_start_].ready == buckets_[next_to_start_].members.size()) {
        start(buckets_[next_to_start_++]);
        ++started_during_backward_;
    }
}

void GradientReducer::start(Bucket& b) {
    torch::NoGradGuard no_grad;
    std::int64_t offset = 0;
    for (std::size_t k : b.members) {
        const torch::Tensor& p = parameters_[k];
        torch::Tensor slice = b.flat.narrow(0, offset, p.numel());
        if (p.grad().defined())
            slice.copy_(p.grad().reshape({-1}));
        else
            slice.zero_();
        offset += p.numel();
    }
    b.pending = group_.all_reduce_sum_async(b.flat);
}

void GradientReducer::finish_step() {
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        in_backward_ = false;
        while (next_to_start_ < buckets_.size()) start(buckets_[next_to_start_++]);
    }
    torch::NoGradGuard no_grad;
    exposed_wait_.begin();
    for (Bucket& b : buckets_) {
        b.pending->wait();
        b.pending.reset();
    }
    exposed_wait_.end();
    for (Bucket& b : buckets_) {
        std::int64_t offset = 0;
        for (std::size_t k : b.members) {
            torch::Tensor& p = parameters_[k];
            const torch::Tensor sum = b.flat.narrow(0, offset, p.numel()).view_as(p);
            if (p.grad().defined())
                p.mutable_grad().copy_(sum);
            else
                p.mutable_grad() = sum.clone();
            offset += p.numel();
        }
    }
}

void broadcast_coalesced(ProcessGroup& group, const std::vector<torch::Tensor>& tensors, int root) {
    std::map<std::pair<torch::Dtype, std::string>, std::vector<torch::Tensor>> by_kind;
    for (const torch::Tensor& t : tensors)
        if (t.defined() && t.numel() > 0) by_kind[{t.scalar_type(), t.device().str()}].push_back(t);
    torch::NoGradGuard no_grad;
    for (auto& [kind, members] : by_kind) {
        std::vector<torch::Tensor> flat_parts;
        for (const torch::Tensor& t : members) flat_parts.push_back(t.reshape({-1}));
        std::vector<torch::Tensor> flat{torch::cat(flat_parts)};
        group.broadcast(flat, root);
        std::int64_t offset = 0;
        for (const torch::Tensor& t : members) {
            torch::Tensor target = t;
            target.copy_(flat[0].narrow(0, offset, t.numel()).view_as(t));
            offset += t.numel();
        }
    }
}

}  // namespace libreyolo::distributed
