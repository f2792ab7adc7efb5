#include "distributed/rank_statistics.h"

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"

namespace libreyolo::distributed {

void write_rank_statistics(const std::filesystem::path& path, const std::string& backend,
                           const std::string& weights_sha256, const std::vector<RankStatistics>& ranks) {
    nlohmann::json per_rank = nlohmann::json::array();
    for (const RankStatistics& r : ranks)
        per_rank.push_back({{"rank", r.rank},
                            {"steps", r.steps},
                            {"step_seconds", r.step_seconds},
                            {"allreduce_wait_seconds", r.allreduce_wait_seconds},
                            {"allreduce_wait_fraction", r.allreduce_wait_fraction()},
                            {"peak_memory_bytes", r.peak_memory_bytes}});
    const nlohmann::json doc = {{"world_size", ranks.size()},
                                {"backend", backend},
                                {"weights_sha256", weights_sha256},
                                {"weights_identical", true},  // verify_identical_weights throws otherwise
                                {"ranks", per_rank}};
    io::write_file_atomically(path, [&](std::ostream& out) { out << doc.dump(2) << '\n'; });
}

}  // namespace libreyolo::distributed
