#include "distributed/distributed_training.h"

#include <sys/resource.h>

#include <c10/cuda/CUDACachingAllocator.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/sha256.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo::distributed {

std::string rank_device(const std::string& requested, const RankInfo& rank) {
    if (requested == "cpu" || requested.rfind("cuda:", 0) == 0) return requested;
    return cuda_available() ? "cuda:" + std::to_string(rank.local_rank) : "cpu";
}

DistributedTraining::DistributedTraining(const RankInfo& rank, const torch::Device& device,
                                         std::chrono::milliseconds timeout, torch::nn::Module& net,
                                         bool sync_batch_norm)
    : group_(rank, device, timeout), net_(net), device_(device), sync_batch_norm_(sync_batch_norm) {
    if (device.is_cpu()) {
        // Ranks on one machine's CPUs share its cores: each takes its part, or their compute
        // threads spin against each other around every collective.
        const char* local_world = std::getenv("LOCAL_WORLD_SIZE");
        const int sharing = local_world && std::atoi(local_world) > 0 ? std::atoi(local_world) : rank.world_size;
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        torch::set_num_threads(std::max(1, cores / sharing));
    }
    for (const auto& b : net.named_buffers()) buffers_.push_back(b.value());
    std::vector<torch::Tensor> state = net.parameters();
    state.insert(state.end(), buffers_.begin(), buffers_.end());
    broadcast_coalesced(group_, state);
    if (sync_batch_norm_) sync_scope_.emplace(group_);
    if (const char* fault = std::getenv("LIBREYOLO_DIST_FAULT"); fault && *fault) {
        int fault_rank = -1, fault_step = -1;
        if (std::sscanf(fault, "kill:%d:%d", &fault_rank, &fault_step) != 2)
            throw InvalidArgument(std::string("LIBREYOLO_DIST_FAULT: '") + fault + "' is not kill:RANK:STEP");
        if (fault_rank == rank.rank) kill_at_step_ = fault_step;
    }
    std::vector<torch::Tensor> trainable;
    for (const torch::Tensor& p : net.parameters())
        if (p.requires_grad()) trainable.push_back(p);
    reducer_ = std::make_unique<GradientReducer>(group_, trainable);
    log_info("train", "distributed: rank " + std::to_string(rank.rank) + " of " + std::to_string(rank.world_size) +
                          " on " + device.str() + " (" + group_.backend() + ", " + std::to_string(reducer_->buckets()) +
                          " gradient buckets" + (sync_batch_norm_ ? ", SyncBatchNorm" : "") + ")");
}

DistributedTraining::~DistributedTraining() = default;

void DistributedTraining::begin_step() {
    if (++steps_ == kill_at_step_) std::raise(SIGKILL);
    step_started_ = std::chrono::steady_clock::now();
    if (!sync_batch_norm_) broadcast_coalesced(group_, buffers_);
    reducer_->begin_step();
}

void DistributedTraining::finish_backward() {
    reducer_->finish_step();
}

void DistributedTraining::end_step() {
    step_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - step_started_).count();
}

namespace {

std::int64_t peak_memory_bytes(const torch::Device& device) {
    if (device.is_cuda()) {
        const auto stats = c10::cuda::CUDACachingAllocator::getDeviceStats(device.index());
        return stats.allocated_bytes[static_cast<std::size_t>(c10::CachingAllocator::StatType::AGGREGATE)].peak;
    }
    struct rusage usage {};
    ::getrusage(RUSAGE_SELF, &usage);
    return static_cast<std::int64_t>(usage.ru_maxrss) * 1024;  // Linux reports kilobytes
}

}  // namespace

std::vector<RankStatistics> DistributedTraining::statistics_of_ranks() {
    // Each rank fills its row of a zero table; the sum over the ranks is the whole table.
    constexpr int kColumns = 4;
    torch::Tensor table = torch::zeros({world_size(), kColumns}, torch::kFloat64);
    table[group_.rank()] = torch::tensor({static_cast<double>(steps_), step_seconds_, reducer_->exposed_wait_seconds(),
                                          static_cast<double>(peak_memory_bytes(device_))},
                                         torch::kFloat64);
    const torch::Tensor all = sum(table.to(device_)).to(torch::kCPU).contiguous();
    const auto rows = all.accessor<double, 2>();
    std::vector<RankStatistics> ranks;
    for (int r = 0; r < world_size(); ++r) {
        RankStatistics s;
        s.rank = r;
        s.steps = static_cast<std::int64_t>(rows[r][0]);
        s.step_seconds = rows[r][1];
        s.allreduce_wait_seconds = rows[r][2];
        s.peak_memory_bytes = static_cast<std::int64_t>(rows[r][3]);
        ranks.push_back(s);
    }
    return ranks;
}

torch::Tensor DistributedTraining::sum(const torch::Tensor& local) {
    std::vector<torch::Tensor> total{local.detach().clone().contiguous()};
    group_.all_reduce_sum(total);
    return total[0];
}

bool DistributedTraining::decision_of_main(bool mine) {
    std::vector<torch::Tensor> flag{
        torch::full({1}, mine ? 1 : 0, torch::TensorOptions().dtype(torch::kInt32).device(device_))};
    group_.broadcast(flag, 0);
    return flag[0].item<int>() != 0;
}

std::string DistributedTraining::verify_identical_weights() {
    Sha256 hash;
    for (const torch::Tensor& p : net_.parameters()) {
        const torch::Tensor bytes = p.detach().to(torch::kCPU).contiguous();
        hash.update(bytes.data_ptr(), static_cast<std::size_t>(bytes.numel()) * bytes.element_size());
    }
    const std::string digest = hash.hex_digest();
    torch::Tensor mine = torch::empty({static_cast<int64_t>(digest.size())}, torch::kUInt8);
    std::memcpy(mine.data_ptr(), digest.data(), digest.size());
    std::vector<torch::Tensor> main_digest{mine.to(device_)};
    group_.broadcast(main_digest, 0);
    const torch::Tensor received = main_digest[0].to(torch::kCPU);
    const std::string of_main(static_cast<const char*>(received.data_ptr()), digest.size());
    if (of_main != digest)
        throw Error("distributed: rank " + std::to_string(group_.rank()) + " ended with other weights than rank 0 (" +
                    digest.substr(0, 12) + " vs " + of_main.substr(0, 12) + ")");
    return digest;
}

}  // namespace libreyolo::distributed
