#pragma once
// The end of an epoch on the rank that writes: validation of the EMA weights (every eval_interval
// epochs and after the last, at LibreYOLO's training iou 0.65), best / last / periodic checkpoints,
// the results.csv row, the Epoch event, and patience.
#include <torch/torch.h>

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "train/grad_scaler.h"
#include "train/model_ema.h"
#include "train/results_csv.h"
#include "train/run_directory.h"

namespace libreyolo::training {

// An epoch's losses as the steps added them up.
struct EpochTotals {
    std::vector<double> sums;  // loss, then its parts
    int steps = 0;             // steps with a finite loss
    double lr = 0;             // the last step's
    std::chrono::steady_clock::time_point start;
};

class EpochCloser {
public:
    using Report = std::function<void(const TrainEvent&)>;
    struct Parts {
        RunDirectory& run;
        ModelEma& ema;
        torch::optim::Optimizer& optimizer;
        GradScaler& scaler;
        torch::nn::Module& net;
    };
    // state: the loop's counters, updated here and saved with every checkpoint.
    EpochCloser(const TrainOptions& o, Parts parts, LoopState& state, std::vector<std::string> loss_names,
                int batches_per_epoch);

    // Returns false when the run should stop: patience ran out.
    bool close(int epoch, const EpochTotals& totals, TrainResult& result, const Report& report);

private:
    TrainEvent epoch_event(int epoch, const EpochTotals& totals) const;
    void append_row(int epoch, const TrainEvent& ev, const ValResult* val, bool improved);

    const TrainOptions& o_;
    Parts p_;
    LoopState& state_;
    std::vector<std::string> loss_names_;
    int batches_per_epoch_;
    ResultsCsv csv_;
};

}  // namespace libreyolo::training
