// libreyolo-parity-loss MODEL BATCH SEED: the family's training loss on one batch, as the trainer
// computes it (FamilyRecipe::loss, eager, float32, the network in training mode), printed as JSON:
// {"names": [...], "parts": [...], "total": x}. scripts/parity/cross_check.py holds it against
// LibreYOLO's criterion on the same randomised weights. BATCH is a safetensors file with images
// (B, 3, H, W) float32 in [0, 1] and targets (B, T, 5): class, x1, y1, x2, y2 normalised, zero rows
// padding. SEED seeds torch's generator right before the step, as the Python side does, so the DETR
// families' denoising draws are the same.
#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>
#include <string>

#include "io/safetensors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "train/family_recipe.h"
#include "train/network_graph.h"

using namespace libreyolo;

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: libreyolo-parity-loss MODEL BATCH SEED\n");
        return 2;
    }
    try {
        Model model = Model::load(argv[1], "cpu");
        Model::Impl& m = model.impl();
        const io::TensorFile batch = io::read_safetensors(argv[2]);
        const torch::Tensor images = batch.tensors.at("images").to(torch::kFloat32);
        const torch::Tensor targets = batch.tensors.at("targets").to(torch::kFloat32);
        m.net->train();
        const std::unique_ptr<training::FamilyRecipe> recipe =
            training::make_family_recipe(m.spec.name.family, m.net, static_cast<int>(m.spec.nc));
        training::NetworkGraph eager(false, "", nullptr);
        torch::manual_seed(std::stoull(argv[3]));
        const training::StepLoss loss = recipe->loss(images, targets, eager, /*amp=*/false);
        nlohmann::json out = {{"names", recipe->loss_names()}, {"total", loss.total.item<double>()}};
        for (const torch::Tensor& part : loss.parts) out["parts"].push_back(part.item<double>());
        std::cout << out.dump() << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "libreyolo-parity-loss: %s\n", e.what());
        return 1;
    }
}
