#pragma once
// The contrastive denoising queries of the DETR families (LibreYOLO's
// get_contrastive_denoising_training_group, RT-DETR's and D-FINE's / DEIM's): the ground truth of every image padded to
// the batch's largest count, repeated in num_denoising / that count groups (at least one) of a positive half (boxes
// jittered inside half their size) and a negative half (jittered between one and two halves), labels flipped with
// probability label_noise_ratio / 2; an attention mask that hides the denoising queries from the matching ones and the
// groups from each other. Random draws come from torch's generator in LibreYOLO's order, so a seeded run draws the same
// noise.
#include <torch/torch.h>

#include <optional>
#include <vector>

#include "models/detr_target.h"

namespace libreyolo::models {

struct DenoisingOptions {
    int64_t num_denoising = 100;
    double label_noise_ratio = 0.5;
    double box_noise_scale = 1.0;
    // D-FINE's and DEIM's version: a jitter that crosses a box's opposite edges gives a negative
    // size, which they turn positive (RT-DETR's keeps it).
    bool positive_sizes = false;
};

struct DenoisingGroup {
    torch::Tensor class_queries;                // (B, num_dn, hidden): the embedded (noised) labels
    torch::Tensor box_logits;                   // (B, num_dn, 4): the noised boxes, inverse-sigmoid
    torch::Tensor attn_mask;                    // (num_dn + num_queries)², true = may not attend
    std::vector<torch::Tensor> positive_index;  // per image: its positive queries, group by group
    int64_t groups = 0;
    int64_t queries = 0;  // num_dn
};

// nullopt when denoising is off or no image has ground truth.
std::optional<DenoisingGroup> contrastive_denoising_group(const std::vector<DetrTarget>& targets, int64_t num_classes,
                                                          int64_t num_queries, torch::nn::Embedding& class_embed,
                                                          const DenoisingOptions& options);

}  // namespace libreyolo::models
