#pragma once
// Pairing a DETR's queries with LibreYOLO's: two queries of near-equal score may take their ranks
// in the other order on another CPU's last bits, which permutes the queries and nothing else.
#include <torch/torch.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace libreyolo::testing {

// For each of our queries, the index of the same query in LibreYOLO's outputs, per image. Every
// decoder level keeps the order of the encoder's top-k selection, so the pairing can be read once
// (from the selected encoder boxes, or the outputs themselves) and applied to every level. Pairs are
// taken nearest first, one to one; queries that agree to the last bits (cells whose features are
// equal, as in flat image areas) may pair either way, which changes nothing a comparison sees.
// Throws when a query has no partner within 1e-4 (a different set selected).
inline torch::Tensor pair_queries(const torch::Tensor& ours, const torch::Tensor& theirs) {
    constexpr double kSameQuery = 1e-4;
    std::vector<torch::Tensor> per_image;
    for (int64_t b = 0; b < ours.size(0); ++b) {
        const torch::Tensor distance =
            torch::cdist(ours[b].to(torch::kFloat64), theirs[b].to(torch::kFloat64), 1).contiguous();
        const int64_t q = distance.size(0), n = distance.size(1);
        const torch::Tensor order = std::get<1>(distance.flatten().sort()).contiguous();
        const double* d = distance.data_ptr<double>();
        const int64_t* o = order.data_ptr<int64_t>();
        std::vector<int64_t> partner(static_cast<std::size_t>(q), -1);
        std::vector<bool> taken(static_cast<std::size_t>(n), false);
        int64_t paired = 0;
        for (int64_t k = 0; k < q * n && paired < q && d[o[k]] < kSameQuery; ++k) {
            const auto i = static_cast<std::size_t>(o[k] / n), j = static_cast<std::size_t>(o[k] % n);
            if (partner[i] < 0 && !taken[j]) {
                partner[i] = static_cast<int64_t>(j);
                taken[j] = true;
                ++paired;
            }
        }
        if (paired < q)
            throw std::runtime_error(std::to_string(q - paired) + " of " + std::to_string(q) +
                                     " queries have no partner within 1e-4 (a different set selected)");
        per_image.push_back(torch::tensor(partner, torch::kInt64).to(ours.device()));
    }
    return torch::stack(per_image);
}

// t (B, Q, ...) with its queries taken in the order `pairing` gives.
inline torch::Tensor in_order(const torch::Tensor& t, const torch::Tensor& pairing) {
    return t.gather(1, pairing.unsqueeze(-1).expand({-1, -1, t.size(-1)}));
}

}  // namespace libreyolo::testing
