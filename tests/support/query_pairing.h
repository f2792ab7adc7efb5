#pragma once
// Pairing a DETR's queries with LibreYOLO's: two queries of near-equal score may take their ranks
// in the other order on another CPU's last bits, which permutes the queries and nothing else.
#include <torch/torch.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace libreyolo::testing {

// For each of our queries, the index of the same query in LibreYOLO's outputs, per image. Every
// decoder level keeps the order of the encoder's top-k selection, so the pairing is read once from
// the selected encoder boxes (distinct anchors, far apart) and applied to every level. Throws when a
// query has no unambiguous partner (a different set selected).
inline torch::Tensor pair_queries(const torch::Tensor& ours, const torch::Tensor& theirs) {
    std::vector<torch::Tensor> per_image;
    for (int64_t b = 0; b < ours.size(0); ++b) {
        const torch::Tensor distance = torch::cdist(ours[b].to(torch::kFloat64), theirs[b].to(torch::kFloat64), 1);
        const auto [nearest, index] = distance.topk(2, 1, /*largest=*/false);
        const double worst_match = nearest.select(1, 0).max().item<double>();
        const double closest_other = nearest.select(1, 1).min().item<double>();
        if (!(worst_match < 1e-4 && closest_other > 10 * worst_match))
            throw std::runtime_error("encoder queries without an unambiguous partner: worst match " +
                                     std::to_string(worst_match) + ", closest other " + std::to_string(closest_other));
        const torch::Tensor partner = index.select(1, 0);
        if (std::get<0>(at::_unique(partner)).numel() != partner.numel())
            throw std::runtime_error("two of our queries pair with the same LibreYOLO query");
        per_image.push_back(partner);
    }
    return torch::stack(per_image);
}

// t (B, Q, ...) with its queries taken in the order `pairing` gives.
inline torch::Tensor in_order(const torch::Tensor& t, const torch::Tensor& pairing) {
    return t.gather(1, pairing.unsqueeze(-1).expand({-1, -1, t.size(-1)}));
}

}  // namespace libreyolo::testing
