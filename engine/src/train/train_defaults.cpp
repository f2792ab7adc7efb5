// train_defaults: LibreYOLO's per-family training configuration (its TRAIN_CONFIG classes).
#include <filesystem>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/train.h"
#include "models/network_factory.h"

namespace libreyolo {
namespace {

// "" when model is neither a model name nor a file (train() says what is wrong with it).
std::string family_of(const std::string& model) {
    if (looks_like_model_name(model)) return parse_model_name(model).family;
    if (!std::filesystem::is_regular_file(model)) return "";
    const io::TensorFile file = io::read_safetensors_layout(model);  // the header: no weights read
    return models::infer_network_spec(file.tensors, io::from_metadata(file.metadata, model), model).name.family;
}

}  // namespace

TrainOptions train_defaults(const std::string& model) {
    TrainOptions o;
    o.model = model;
    if (family_of(model) != "rtdetr") return o;
    // LibreYOLO's RTDETRConfig.
    o.epochs = 72;
    o.batch = 4;
    o.optimizer = "AdamW";
    o.lr0 = 1e-4;
    o.lrf = 1.0;  // constant
    o.lr_backbone = 5e-6;
    o.momentum = 0.9;  // AdamW's beta1
    o.weight_decay = 1e-4;
    o.warmup_epochs = 0;
    o.mosaic = 0;
    o.close_mosaic = 0;
    o.clip_max_norm = 0.1;
    return o;
}

}  // namespace libreyolo
