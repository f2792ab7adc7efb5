#pragma once
// results.csv in LibreYOLO's layout: one row per finished epoch, its columns in its order, blank
// cells where an epoch did not validate. Rewritten whole (atomically) after every epoch.
#include <filesystem>
#include <string>
#include <vector>

#include "libreyolo/validate.h"

namespace libreyolo::training {

struct EpochRow {
    int epoch = 0;
    double seconds = 0;  // the epoch's, validation included (LibreYOLO's "time")
    double loss = 0;
    std::vector<double> loss_parts;  // in the order of the csv's loss names
    std::vector<double> lr;          // per parameter group
    const ValResult* val = nullptr;  // null: not validated this epoch
    bool is_best = false;
    double best_map50_95 = -1;  // < 0: no validation yet
    int best_epoch = 0;
};

class ResultsCsv {
public:
    // resume_from > 0 keeps the rows of the earlier epochs already in the file. loss_names: the
    // family's loss parts (train/<name>_loss columns); lr_groups: its optimizer's groups (lr/groupN).
    ResultsCsv(std::filesystem::path path, int resume_from, std::vector<std::string> loss_names, std::size_t lr_groups);
    void append(const EpochRow& row);

private:
    std::filesystem::path path_;
    std::size_t loss_parts_, lr_groups_;
    std::string text_;
};

}  // namespace libreyolo::training
