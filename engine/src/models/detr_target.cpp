#include "models/detr_target.h"

namespace libreyolo::models {

std::vector<DetrTarget> detr_targets(const torch::Tensor& targets) {
    std::vector<DetrTarget> out;
    for (int64_t i = 0; i < targets.size(0); ++i) {
        const torch::Tensor rows = targets[i];
        const torch::Tensor keep = (rows.select(1, 3) > rows.select(1, 1)) & (rows.select(1, 4) > rows.select(1, 2));
        const torch::Tensor valid = rows.index({keep});
        const torch::Tensor x1 = valid.select(1, 1), y1 = valid.select(1, 2), x2 = valid.select(1, 3),
                            y2 = valid.select(1, 4);
        const torch::Tensor w = x2 - x1, h = y2 - y1;
        out.push_back({valid.select(1, 0).to(torch::kLong), torch::stack({x1 + w / 2, y1 + h / 2, w, h}, -1)});
    }
    return out;
}

}  // namespace libreyolo::models
