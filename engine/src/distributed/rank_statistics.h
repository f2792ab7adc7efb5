#pragma once
// What each rank's training steps cost, for the scaling record of a distributed run: written by rank
// 0 as distributed.json in the run's folder, beside results.csv.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace libreyolo::distributed {

struct RankStatistics {
    int rank = 0;
    std::int64_t steps = 0;
    double step_seconds = 0;             // each step from its start to its numbers on the host, summed
    double allreduce_wait_seconds = 0;   // of which: waiting for the gradient all-reduce after backward
    std::int64_t peak_memory_bytes = 0;  // CUDA: the caching allocator's peak allocated; CPU: peak resident set

    double allreduce_wait_fraction() const { return step_seconds > 0 ? allreduce_wait_seconds / step_seconds : 0.0; }
};

// The run's distributed.json (atomically): world size, backend, the weights' SHA-256 that every
// rank checked, and per rank its statistics and the waiting share of its step time.
void write_rank_statistics(const std::filesystem::path& path, const std::string& backend,
                           const std::string& weights_sha256, const std::vector<RankStatistics>& ranks);

}  // namespace libreyolo::distributed
