#include "train/training_model.h"

#include <filesystem>

#include "io/checkpoint.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/pretrained.h"
#include "model/model_impl.h"

namespace libreyolo::training {
namespace {

// A fresh network for nc classes holding every tensor of m whose shape still fits.
Model with_new_class_head(const Model::Impl& m, int nc, const TrainOptions& o) {
    Model fresh = Model::create(m.spec.name.canonical(), nc, o.device);
    int copied = 0;
    auto target = io::state_dict(*fresh.impl().net);
    torch::NoGradGuard no_grad;
    for (const auto& [k, v] : io::state_dict(*m.net))
        if (target.count(k) && target[k].sizes() == v.sizes()) target[k].copy_(v), ++copied;
    log_info("train", o.model + " has " + std::to_string(m.meta.nc) + " classes, the dataset " + std::to_string(nc) +
                          ": transferred " + std::to_string(copied) + " tensors, new class head");
    fresh.impl().pretrained = m.pretrained;  // the transferred tensors are trained ones
    return fresh;
}

// The network a run starts from. A resumed run's weights come from its checkpoint, so a name then
// builds the bare architecture instead of fetching pretrained weights.
Model initial_model(const TrainOptions& o, int nc) {
    const bool file_name = is_pretrained_file_name(o.model);  // LibreYOLO9t.pt names yolo9-t
    if ((file_name || looks_like_model_name(o.model)) && (o.resume || !o.pretrained))
        return Model::create(file_name ? std::filesystem::path(o.model).stem().string() : o.model, nc, o.device);
    Model loaded = Model::load(o.model, o.device);
    if (o.pretrained || o.resume) return loaded;
    return Model::create(loaded.impl().spec.name.canonical(), nc, o.device);  // the checkpoint's architecture
}

}  // namespace

Model load_training_model(const TrainOptions& o, const DatasetConfig& config) {
    const int nc = static_cast<int>(config.names.size());
    torch::manual_seed(static_cast<uint64_t>(o.seed));
    Model model = initial_model(o, nc);
    const Model::Impl& m = model.impl();
    if (!m.pretrained && !o.resume && o.epochs < 100)
        log_warning("train", o.model +
                                 " starts from random weights (pretrained=false): a few epochs from scratch detect "
                                 "next to nothing (from-scratch runs take hundreds of epochs). For a quick result "
                                 "fine-tune trained weights instead: pretrained=true, or a checkpoint as the model, "
                                 "such as the demo model " +
                                 default_model());
    if (m.quant)
        throw NotSupported("train: " + o.model + " is a quantized checkpoint (recipe '" + m.quant->recipe +
                           "'); quantization-aware training is not available: train the float checkpoint, then "
                           "`libreyolo quantize` it");
    if (m.meta.nc != nc) model = with_new_class_head(m, nc, o);
    Model::Impl& impl = model.impl();
    impl.meta.names = config.names;
    impl.meta.imgsz = o.imgsz;
    return model;
}

}  // namespace libreyolo::training
