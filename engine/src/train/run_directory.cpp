#include "train/run_directory.h"

#include "io/atomic_file.h"
#include "io/checkpoint.h"
#include "io/remove_tree.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo {
namespace fs = std::filesystem;

// The options a resumed run takes from its checkpoint (device, workers and the like stay the
// caller's). Keys missing from an older checkpoint take their defaults.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TrainOptions, model, pretrained, data, epochs, batch, imgsz, optimizer,
                                                lr0, lrf, scheduler, momentum, weight_decay, warmup_epochs,
                                                warmup_momentum, warmup_lr_start, close_mosaic, mosaic, degrees,
                                                translate, shear, mosaic_scale, mixup_prob, mixup_scale, hsv_prob,
                                                flip_prob, ema_decay, seed, patience, eval_interval, save_period,
                                                sync_bn, lr_backbone, clip_max_norm, multi_scale, base_size_repeat,
                                                backbone_lr_mult, aug_stop_epoch_ratio, ema_restart_decay)

namespace training {

RunDirectory::RunDirectory(TrainOptions& o, bool main_rank) {
    if (o.resume) {
        dir_ = fs::path(o.project) / o.name;
        const fs::path state = weights("last.train.safetensors");
        if (!fs::exists(state)) throw FileNotFound("resume: " + state.string() + ": no checkpoint to resume from");
        resume_ = io::read_safetensors(state);
        nlohmann::json::parse(resume_.metadata.at("train_state")).at("options").get_to(o);
        return;
    }
    PredictOptions naming;
    naming.project = o.project;
    naming.name = o.name;
    naming.exist_ok = o.exist_ok;
    // Only rank 0 names (and so creates) the run folder; the others write nothing. Without exist_ok
    // the name is always a new one.
    made_ = main_rank && (!o.exist_ok || !fs::exists(fs::path(o.project) / o.name));
    dir_ = main_rank ? fs::path(resolve_save_dir(naming)) : fs::path(o.project) / o.name;
}

RunDirectory::~RunDirectory() {
    if (!made_ || kept_) return;
    io::remove_tree(dir_);  // teardown never throws; a folder left behind is only untidy
}

bool RunDirectory::has_last_state() const {
    return fs::exists(weights("last.train.safetensors"));
}

LoopState RunDirectory::restore(torch::nn::Module& net, torch::nn::Module& ema, torch::optim::Optimizer& optimizer) {
    const nlohmann::json state = nlohmann::json::parse(resume_.metadata.at("train_state"));
    io::load_state_dict(net, resume_.tensors, weights("last.train.safetensors").string());
    resume_ = {};
    const io::TensorFile e = io::read_safetensors(weights("last.safetensors"));
    io::load_state_dict(ema, e.tensors, weights("last.safetensors").string());
    torch::load(optimizer, weights("last.optim.pt").string());
    LoopState s;
    s.epoch = state.at("epoch").get<int>();
    s.ema_updates = state.at("ema_updates");
    s.best_map50_95 = state.at("best_map50_95");
    s.stale_epochs = state.at("stale_epochs");
    s.best_epoch = state.value("best_epoch", 0);
    if (state.contains("grad_scaler")) s.grad_scaler = state.at("grad_scaler");
    log_info("train", "resuming " + dir_.string() + " at epoch " + std::to_string(s.epoch + 1));
    return s;
}

void RunDirectory::save_last(const Model& ema, torch::optim::Optimizer& optimizer, torch::nn::Module& net,
                             const LoopState& state, const TrainOptions& o) {
    kept_ = true;
    ema.save(weights("last.safetensors").string());
    io::write_file_atomically(weights("last.optim.pt"), [&](std::ostream& out) { torch::save(optimizer, out); });
    io::write_safetensors(weights("last.train.safetensors"), io::state_dict(net),
                          {{"train_state", nlohmann::json{{"epoch", state.epoch},
                                                          {"ema_updates", state.ema_updates},
                                                          {"best_map50_95", state.best_map50_95},
                                                          {"stale_epochs", state.stale_epochs},
                                                          {"best_epoch", state.best_epoch},
                                                          {"grad_scaler", state.grad_scaler},
                                                          {"options", nlohmann::json(o)}}
                                               .dump()}});
}

void RunDirectory::save_best(const Model& ema) {
    ema.save(weights("best.safetensors").string());
}

void RunDirectory::save_epoch(const Model& ema, int epoch) {
    ema.save(weights("epoch" + std::to_string(epoch) + ".safetensors").string());
}

}  // namespace training
}  // namespace libreyolo
