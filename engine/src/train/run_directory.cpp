#include "train/run_directory.h"

#include "io/atomic_file.h"
#include "io/checkpoint.h"
#include "io/remove_tree.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"
#include "libreyolo/options.h"

namespace libreyolo {
namespace fs = std::filesystem;

namespace {

// The options a resumed run takes from its checkpoint (OptionSpec::resumed), as typed JSON.
nlohmann::json resumed_options_json(const TrainOptions& o) {
    nlohmann::json out = nlohmann::json::object();
    for (const OptionSpec& spec : train_option_schema()) {
        if (!spec.resumed) continue;
        const std::string text = spec.get(o);
        switch (spec.type) {
            case OptionType::Bool:
                out[spec.key] = text == "true";
                break;
            case OptionType::Int:
            case OptionType::Float:
                out[spec.key] = nlohmann::json::parse(text);
                break;
            case OptionType::FloatPair:
                out[spec.key] = nlohmann::json::parse("[" + text + "]");
                break;
            default:
                out[spec.key] = text;
                break;
        }
    }
    return out;
}

// Sets o from a checkpoint's options (this build's or an older one's: keys it lacks keep o's).
void set_resumed_options(TrainOptions& o, const nlohmann::json& saved, const std::string& file) {
    for (const OptionSpec& spec : train_option_schema()) {
        if (!spec.resumed || !saved.contains(spec.key)) continue;
        const nlohmann::json& v = saved.at(spec.key);
        std::string text;
        if (v.is_string())
            text = v.get<std::string>();
        else if (v.is_array() && v.size() == 2)
            text = v.at(0).dump() + "," + v.at(1).dump();
        else if (v.is_boolean() || v.is_number())
            text = v.dump();
        else
            throw InvalidArgument(file + ": options." + spec.key + " is " + v.dump());
        try {
            spec.set(o, text);
        } catch (const InvalidArgument& e) {
            throw InvalidArgument(file + ": options: " + e.what());
        }
    }
}

}  // namespace

namespace training {

RunDirectory::RunDirectory(TrainOptions& o, bool main_rank) {
    if (o.resume) {
        dir_ = fs::path(o.project) / o.name;
        const fs::path state = weights("last.train.safetensors");
        if (!fs::exists(state)) throw FileNotFound("resume: " + state.string() + ": no checkpoint to resume from");
        resume_ = io::read_safetensors(state);
        set_resumed_options(o, nlohmann::json::parse(resume_.metadata.at("train_state")).at("options"), state.string());
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
                                                          {"options", resumed_options_json(o)}}
                                               .dump()}});
}

void RunDirectory::save_options(const TrainOptions& o) const {
    io::write_file_atomically(dir_ / "train_config.yaml", [&](std::ostream& out) { out << train_options_yaml(o); });
}

void RunDirectory::save_best(const Model& ema) {
    ema.save(weights("best.safetensors").string());
}

void RunDirectory::save_epoch(const Model& ema, int epoch) {
    ema.save(weights("epoch" + std::to_string(epoch) + ".safetensors").string());
}

}  // namespace training
}  // namespace libreyolo
