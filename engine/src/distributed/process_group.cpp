#include "distributed/process_group.h"

#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef LIBREYOLO_HAVE_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include <c10/cuda/CUDAFunctions.h>

#include <csignal>
#include <cstdlib>

#include "libreyolo/errors.h"
#include "libreyolo/train.h"

namespace libreyolo::distributed {
namespace {

std::optional<int> int_variable(const char* name, bool required) {
    const char* text = std::getenv(name);
    if (!text || !*text) {
        if (required)
            throw InvalidArgument(std::string(name) + ": not set (a distributed run needs RANK and WORLD_SIZE)");
        return std::nullopt;
    }
    try {
        std::size_t used = 0;
        const int value = std::stoi(text, &used);
        if (used != std::string(text).size()) throw std::invalid_argument(text);
        return value;
    } catch (const std::exception&) {
        throw InvalidArgument(std::string(name) + ": '" + text + "' is not an integer");
    }
}

}  // namespace

std::optional<RankInfo> rank_from_environment() {
    const std::optional<int> world = int_variable("WORLD_SIZE", false);
    if (!world) return std::nullopt;
    RankInfo r;
    r.world_size = *world;
    if (r.world_size < 1) throw InvalidArgument("WORLD_SIZE: must be at least 1, got " + std::to_string(r.world_size));
    r.rank = *int_variable("RANK", true);
    if (r.rank < 0 || r.rank >= r.world_size)
        throw InvalidArgument("RANK: " + std::to_string(r.rank) + " is outside [0, " + std::to_string(r.world_size) +
                              ")");
    r.local_rank = int_variable("LOCAL_RANK", false).value_or(r.rank);
    if (r.local_rank < 0) throw InvalidArgument("LOCAL_RANK: must not be negative");
    if (const char* addr = std::getenv("MASTER_ADDR"); addr && *addr) r.master_addr = addr;
    r.master_port = int_variable("MASTER_PORT", false).value_or(r.master_port);
    if (r.master_port < 1 || r.master_port > 65535)
        throw InvalidArgument("MASTER_PORT: " + std::to_string(r.master_port) + " is not a TCP port");
    return r;
}

}  // namespace libreyolo::distributed

namespace libreyolo {

std::optional<DistributedRank> distributed_rank() {
    const auto r = distributed::rank_from_environment();
    if (!r) return std::nullopt;
    return DistributedRank{r->rank, r->world_size, r->local_rank};
}

}  // namespace libreyolo

namespace libreyolo::distributed {

struct PendingReduction::State {
    c10::intrusive_ptr<c10d::Work> work;
    std::string what;
};

struct ProcessGroup::State {
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<c10d::Backend> backend;
};

namespace {

// c10d reports a dead peer or a timeout as c10::Error or std::runtime_error: both become an Error
// that says which rank saw it and why a run stops.
template <typename Fn>
auto collective(const std::string& what, Fn&& fn) {
    try {
        return fn();
    } catch (const std::exception& e) {
        throw Error("distributed: " + what + " failed: " + e.what() +
                    " (another rank stopped, or did not answer within the timeout)");
    }
}

}  // namespace

PendingReduction::PendingReduction(std::shared_ptr<State> state) : state_(std::move(state)) {}

void PendingReduction::wait() {
    if (!state_ || !state_->work) return;
    collective(state_->what, [&] { return state_->work->wait(); });
    state_->work.reset();
}

void ignore_broken_pipes() {
    // Gloo writes to its peers' sockets with writev, which raises SIGPIPE when a peer has died; a C++
    // process would die of it, where PyTorch's Python ignores the signal at start-up. Ignored, the
    // write fails with EPIPE and the collective reports that another rank stopped.
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, nullptr);
}

ProcessGroup::ProcessGroup(const RankInfo& rank, const torch::Device& device, std::chrono::milliseconds timeout)
    : state_(std::make_unique<State>()), rank_(rank), timeout_(timeout) {
    ignore_broken_pipes();
    // What runs on "the current device" (NCCL's communicators, new streams and events, LibTorch's
    // lazy CUDA context) then lands on this rank's GPU, not on GPU 0 for every rank.
    if (device.is_cuda() && device.has_index()) c10::cuda::set_device(device.index());
    const std::string who = "rank " + std::to_string(rank.rank) + " of " + std::to_string(rank.world_size);
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(rank.master_port);
    // torchrun's agent already serves the store at MASTER_PORT: every rank is a client there, under
    // the prefix PyTorch's own workers use.
    const char* agent_store = std::getenv("TORCHELASTIC_USE_AGENT_STORE");
    const bool agent_serves = agent_store && std::string(agent_store) == "True";
    options.isServer = rank.rank == 0 && !agent_serves;
    options.numWorkers = rank.world_size;
    options.waitWorkers = true;
    options.timeout = timeout;
    collective(who + ": joining " + rank.master_addr + ":" + std::to_string(rank.master_port), [&] {
        c10::intrusive_ptr<c10d::Store> store = c10::make_intrusive<c10d::TCPStore>(rank.master_addr, options);
        if (agent_serves) {
            const char* restarts = std::getenv("TORCHELASTIC_RESTART_COUNT");
            store = c10::make_intrusive<c10d::PrefixStore>(
                std::string("/worker/attempt_") + (restarts && *restarts ? restarts : "0"), store);
        }
        state_->store = store;
        return 0;
    });
    // LIBREYOLO_DIST_BACKEND=gloo|nccl overrides the choice (gloo also carries CUDA tensors, through
    // the host: several ranks can then share one GPU, which NCCL refuses).
    std::string backend = device.is_cuda() ? "nccl" : "gloo";
    if (const char* chosen = std::getenv("LIBREYOLO_DIST_BACKEND"); chosen && *chosen) backend = chosen;
    if (backend != "gloo" && backend != "nccl")
        throw InvalidArgument("LIBREYOLO_DIST_BACKEND: '" + backend + "' is not gloo or nccl");
    if (backend == "nccl" && !device.is_cuda())
        throw InvalidArgument("LIBREYOLO_DIST_BACKEND: nccl needs CUDA devices (this rank is on " + device.str() + ")");
    if (backend == "nccl") {
#ifdef LIBREYOLO_HAVE_NCCL
        backend_name_ = "nccl";
        auto nccl = c10d::ProcessGroupNCCL::Options::create();
        nccl->timeout = timeout;
        collective(who + ": starting NCCL", [&] {
            state_->backend =
                c10::make_intrusive<c10d::ProcessGroupNCCL>(state_->store, rank.rank, rank.world_size, nccl);
            return 0;
        });
#else
        throw NotSupported("distributed: this build has no NCCL, so ranks on CUDA devices cannot talk");
#endif
    } else {
        backend_name_ = "gloo";
        auto gloo = c10d::ProcessGroupGloo::Options::create(timeout);
        collective(who + ": starting gloo", [&] {
            gloo->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(
                rank.master_addr == "localhost" ? "127.0.0.1" : rank.master_addr));
            state_->backend =
                c10::make_intrusive<c10d::ProcessGroupGloo>(state_->store, rank.rank, rank.world_size, gloo);
            return 0;
        });
    }
}

ProcessGroup::~ProcessGroup() = default;

void ProcessGroup::all_reduce_sum(std::vector<torch::Tensor>& tensors) {
    for (auto& t : tensors) all_reduce_sum_async(t).wait();
}

PendingReduction ProcessGroup::all_reduce_sum_async(torch::Tensor& tensor) {
    auto state = std::make_shared<PendingReduction::State>();
    state->what = "all-reduce on rank " + std::to_string(rank_.rank);
    std::vector<at::Tensor> one{tensor};
    state->work = collective(state->what, [&] { return state_->backend->allreduce(one); });
    return PendingReduction(std::move(state));
}

void ProcessGroup::broadcast(std::vector<torch::Tensor>& tensors, int root) {
    for (auto& t : tensors) {
        std::vector<at::Tensor> one{t};
        c10d::BroadcastOptions options;
        options.rootRank = root;
        const std::string what = "broadcast on rank " + std::to_string(rank_.rank);
        auto work = collective(what, [&] { return state_->backend->broadcast(one, options); });
        collective(what, [&] { return work->wait(); });
    }
}

void ProcessGroup::barrier() {
    const std::string what = "barrier on rank " + std::to_string(rank_.rank);
    auto work = collective(what, [&] { return state_->backend->barrier(); });
    collective(what, [&] { return work->wait(); });
}

}  // namespace libreyolo::distributed
