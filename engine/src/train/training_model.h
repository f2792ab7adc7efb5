#pragma once
// The network a run trains: a model name starts from scratch (seeded), a file fine-tunes; a class
// count other than the dataset's gets a new class head with every other tensor transferred.
#include "libreyolo/dataset.h"
#include "libreyolo/model.h"
#include "libreyolo/train.h"

namespace libreyolo::training {

// Throws NotSupported for a quantized checkpoint (quantization-aware training is not available).
Model load_training_model(const TrainOptions& o, const DatasetConfig& config);

}  // namespace libreyolo::training
