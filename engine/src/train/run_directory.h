#pragma once
// A training run's folder and its checkpoints. weights/last.safetensors: the EMA weights and the
// checkpoint fields (loadable by predict and val); weights/last.optim.pt: the optimizer state;
// weights/last.train.safetensors: the raw weights and the loop's counters, written last, so that its
// epoch counter says the files before it are complete; best.safetensors when mAP50-95 improves;
// epochN.safetensors every save_period epochs. Every file is written to a temporary name and renamed.
#include <torch/torch.h>
#include <nlohmann/json.hpp>

#include <filesystem>

#include "io/safetensors.h"
#include "libreyolo/model.h"
#include "libreyolo/train.h"

namespace libreyolo::training {

// The loop's counters that a resumed run continues from.
struct LoopState {
    int epoch = 0;  // epochs finished
    std::int64_t ema_updates = 0;
    double best_map50_95 = -1;
    int stale_epochs = 0;
    int best_epoch = 0;
    nlohmann::json grad_scaler;  // GradScaler::state(); null when absent
};

class RunDirectory {
public:
    // The run's folder: project/name for a resumed run, whose options (device, workers and the like
    // stay the caller's) replace o's; else a new numbered name unless exist_ok. Only the main rank
    // names and creates it. Throws FileNotFound when there is nothing to resume.
    RunDirectory(TrainOptions& o, bool main_rank);
    RunDirectory(const RunDirectory&) = delete;
    RunDirectory& operator=(const RunDirectory&) = delete;
    // A folder this run made is removed again when the run ends before its first checkpoint (an
    // error while loading the data or the model, or in the first epoch): a failed start leaves no
    // empty run behind. A folder that existed before is never removed.
    ~RunDirectory();

    const std::filesystem::path& path() const { return dir_; }
    std::filesystem::path weights(const std::string& file) const { return dir_ / "weights" / file; }
    bool has_last_state() const;

    // The raw weights, the EMA weights and the optimizer state of the resumed run, loaded into net,
    // ema and optimizer; returns the counters. Only for a resumed run.
    LoopState restore(torch::nn::Module& net, torch::nn::Module& ema, torch::optim::Optimizer& optimizer);
    void save_last(const Model& ema, torch::optim::Optimizer& optimizer, torch::nn::Module& net, const LoopState& state,
                   const TrainOptions& o);
    // train_config.yaml: every option of the run, as LibreYOLO's TrainConfig.to_yaml writes it.
    void save_options(const TrainOptions& o) const;
    void save_best(const Model& ema);
    void save_epoch(const Model& ema, int epoch);

private:
    std::filesystem::path dir_;
    bool made_ = false, kept_ = false;
    io::TensorFile resume_;  // last.train.safetensors of a resumed run, until restore()
};

}  // namespace libreyolo::training
