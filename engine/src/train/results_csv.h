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
    double loss = 0, box_loss = 0, cls_loss = 0, dfl_loss = 0;
    double lr[3] = {0, 0, 0};        // per parameter group
    const ValResult* val = nullptr;  // null: not validated this epoch
    bool is_best = false;
    double best_map50_95 = -1;  // < 0: no validation yet
    int best_epoch = 0;
};

class ResultsCsv {
public:
    // resume_from > 0 keeps the rows of the earlier epochs already in the file.
    ResultsCsv(std::filesystem::path path, int resume_from);
    void append(const EpochRow& row);

private:
    std::filesystem::path path_;
    std::string text_;
};

}  // namespace libreyolo::training
