// `libreyolo train`.
#include "cli_common.h"

#include <cstdio>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <set>
#include <string>
#include <utility>
#include <vector>
#include "args.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/options.h"
#include "model_argument.h"
#include "rank_launcher.h"

#include "libreyolo/train.h"

namespace libreyolo::cli {
namespace {

std::atomic<bool> g_stop_training{false};
extern "C" void request_training_stop(int) {
    g_stop_training = true;
}

// The key list comes from the options schema (libreyolo/options.h).
std::string train_help() {
    return "libreyolo train — train a model on a dataset\n\n"
           "keys (defaults in brackets, LibreYOLO's for each family: the value most families share,\n"
           "then the families and sizes that differ):\n\n" +
           train_options_help() +
           "\nweights:\n"
           "  download=BOOL           false: never touch the network, as LIBREYOLO_OFFLINE=1 [true]\n\n"
           "model names that train: {trainable models}\n"
           "device=0,1 starts one process per listed GPU on this machine (cpu,cpu: CPU processes, gloo); a\n"
           "process started with RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT set (torchrun, Slurm,\n"
           "several nodes) joins that run instead.\n"
           "Ctrl-C stops after the current batch and leaves a checkpoint that resume=true continues.\n"
           "Writes project/name/train_config.yaml, weights/{last,best}.safetensors and results.csv;\n"
           "`libreyolo cfg model=NAME` prints the options a run of NAME starts from.\n";
}

// "box 1.2345 cls 0.5432 dfl 0.9876", in the family's order.
std::string loss_parts_text(const TrainEvent& e) {
    std::string text;
    char value[32];
    for (std::size_t i = 0; i < e.loss_names.size() && i < e.loss_parts.size(); ++i) {
        std::snprintf(value, sizeof value, "%.4f", e.loss_parts[i]);
        text += (i ? " " : "") + e.loss_names[i] + " " + value;
    }
    return text;
}

// How --cuda-graph went, for the last line of a run.
std::string graph_outcome(const TrainResult& r) {
    using State = TrainingGraphStatus::State;
    switch (r.cuda_graph.state) {
        case State::Off:
            return "off";
        case State::RuledOut:
            return "not used (" + r.cuda_graph.reason + "); trained eager";
        case State::Waiting:
            return "no batch shape came " + std::to_string(kTrainingGraphRepeatsBeforeCapture) +
                   " times; trained eager";
        case State::Replaying:
            return "the training step for " + r.cuda_graph.shape + " replayed " + std::to_string(r.graph_replays) +
                   " times";
        case State::FellBack:
            return "fell back to eager after " + std::to_string(r.graph_replays) + " replays: " + r.cuda_graph.reason;
    }
    return "off";
}

int run_train(const std::vector<std::string>& argv) {
    std::set<std::string> keys{"download"}, flags;
    for (const std::string& key : train_option_keys()) keys.insert(key);
    for (const OptionSpec& spec : train_option_schema())
        if (!spec.flag.empty()) flags.insert(spec.flag);
    const Arguments args = parse_arguments(argv, keys, flags);
    TrainOptions o = train_defaults(args.get("model", TrainOptions{}.model));
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [key, text] : args.values)
        if (key != "download") values.emplace_back(key, text);
    for (const OptionSpec& spec : train_option_schema())
        if (!spec.flag.empty() && args.flags.count(spec.flag)) values.emplace_back(spec.key, "true");
    set_train_options(o, values);
    if (o.data.empty() && !o.resume) throw InvalidArgument("data: name the dataset YAML (libreyolo train data=FILE)");
    if (o.resume && args.has("pretrained"))
        throw InvalidArgument("pretrained: a resumed run continues from its checkpoint; drop pretrained= or resume=");
    // A family without a training recipe is refused before anything is downloaded.
    if (is_model_name(o.model)) {
        const FamilyTraits& traits = family_traits(parse_model_name(architecture_name(o.model)).family);
        if (!traits.trainable)
            throw NotSupported("train: the " + traits.display_name + " family cannot be trained yet");
    }
    // Fetched here, once, with the progress bar (and before any rank starts): the run then finds it.
    if (o.pretrained && !o.resume && is_model_name(o.model)) pretrained_weights(o.model, pretrained_options(args));

    const std::optional<DistributedRank> rank = distributed_rank();
    if (const auto devices = device_list(o.device)) {
        if (!rank) {
            std::vector<std::string> rest;
            for (const std::string& a : argv)
                if (a.rfind("device=", 0) != 0) rest.push_back(a);
            return launch_local_ranks(*devices, rest);
        }
        // Started by an external launcher with the whole list: this process takes its own entry.
        const auto index = static_cast<std::size_t>(rank->local_rank);
        if (index >= devices->size())
            throw InvalidArgument("device: LOCAL_RANK " + std::to_string(index) + " has no entry in '" + o.device +
                                  "'");
        o.device = (*devices)[index];
    }
    const bool main_rank = !rank || rank->rank == 0;
    if (!main_rank) set_log_level(LogLevel::Warning);  // rank 0 speaks for the run

    g_stop_training = false;
    ::signal(SIGINT, request_training_stop);
    const TrainResult r = train(
        o,
        [&](const TrainEvent& e) {
            if (e.kind == TrainEvent::Kind::Batch) {
                if (!progress_on_stderr() || !main_rank) return;
                const int step = e.step, total = std::max(1, e.steps);
                const int eta = static_cast<int>(e.eta_seconds);
                const int filled = 20 * step / total;
                std::fprintf(stderr,
                             "\r%s%s %3d%%  epoch %d/%d  batch %d/%d  loss %.4f (%s)  lr %.5f  %.0f ms  ETA %dm%02ds ",
                             std::string(static_cast<std::size_t>(filled), '#').c_str(),
                             std::string(static_cast<std::size_t>(20 - filled), '.').c_str(), 100 * step / total,
                             e.epoch, e.epochs, e.batch, e.batches, e.loss, loss_parts_text(e).c_str(), e.lr, e.step_ms,
                             eta / 60, eta % 60);
                return;
            }
            if (e.kind == TrainEvent::Kind::Graph) return;  // the engine's log line says it
            if (progress_on_stderr()) std::fprintf(stderr, "\n");
            std::printf("epoch %d/%d: loss %.4f (%s)", e.epoch, e.epochs, e.loss, loss_parts_text(e).c_str());
            if (e.map50 >= 0) std::printf("  mAP50 %.4f  mAP50-95 %.4f", e.map50, e.map50_95);
            std::printf("  %.1f s\n", e.epoch_seconds);
            std::fflush(stdout);
        },
        &g_stop_training);
    ::signal(SIGINT, SIG_DFL);
    if (r.world_size > 1) {
        std::printf("rank %d of %d: weights sha256 %s (the same on every rank)\n", r.rank, r.world_size,
                    r.weights_sha256.c_str());
        if (!main_rank) return 0;
    }
    std::printf("%s after %d epoch(s); best mAP50-95 %.4f\nResults saved to %s\n", r.stopped ? "Stopped" : "Finished",
                r.epochs_run, r.best_map50_95, r.save_dir.c_str());
    if (o.cuda_graph) std::printf("--cuda-graph: %s\n", graph_outcome(r).c_str());
    return 0;
}

}  // namespace

extern const Command kTrainCommand{"train", "train a model on a dataset (each family's LibreYOLO recipe)", nullptr,
                                   run_train, train_help};

}  // namespace libreyolo::cli
