// train(): a run put together from parts with one job each. RunDirectory (folder, checkpoints,
// resume), load_training_model, the family's recipe, ModelEma, the loader, StepRunner (one step,
// with the graph policy and the eager fallback) and EpochCloser (validation, checkpoints,
// results.csv, patience). Only rank 0 of a distributed run logs, validates and writes.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>

#include "data/loader.h"
#include "distributed/distributed_training.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/log.h"
#include "libreyolo/options.h"
#include "libreyolo/train.h"
#include "model/model_impl.h"
#include "train/epoch_closer.h"
#include "train/family_recipe.h"
#include "train/grad_scaler.h"
#include "train/model_ema.h"
#include "train/network_graph.h"
#include "train/run_directory.h"
#include "train/step_runner.h"
#include "train/training_model.h"

namespace libreyolo {
namespace {

using Clock = std::chrono::steady_clock;

class TrainingRun {
public:
    TrainingRun(const TrainOptions& options, const std::function<void(const TrainEvent&)>& on_event,
                const std::atomic<bool>* stop)
        : o_(options), on_event_(on_event), stop_(stop) {}

    TrainResult run();

private:
    void open_run_folder();
    void load_network(const DatasetConfig& config);
    void load_data(const DatasetConfig& config);
    void start_optimizer();
    void start_graph();
    bool train_epoch(int epoch);    // false: the run ends
    void finish_distributed_run();  // every rank: weights checked identical; rank 0 writes distributed.json
    void report_batch(const training::StepOutcome& step, int epoch, int b, Clock::time_point step_start);
    void save_after_stop(int epoch);
    // Every event names the run's folder, so a caller learns where a numbered run went.
    void report(const TrainEvent& e) const;

    TrainOptions o_;
    const std::function<void(const TrainEvent&)>& on_event_;
    const std::atomic<bool>* stop_;
    TrainResult result_;
    std::optional<distributed::RankInfo> rank_;
    bool main_rank_ = true;
    std::unique_ptr<training::RunDirectory> folder_;
    std::optional<Model> model_;
    std::unique_ptr<training::FamilyRecipe> recipe_;
    std::vector<std::string> loss_names_;
    bool amp_ = false;
    std::unique_ptr<training::GradScaler> scaler_;
    std::unique_ptr<training::ModelEma> ema_;
    std::unique_ptr<distributed::DistributedTraining> dist_;
    std::unique_ptr<data::BatchLoader> loader_;
    int batches_ = 0;
    std::unique_ptr<torch::optim::Optimizer> optimizer_;
    training::LoopState state_;
    std::unique_ptr<training::NetworkGraph> graph_;
    std::unique_ptr<training::StepRunner> steps_;
    std::unique_ptr<training::EpochCloser> closer_;
    Clock::time_point loop_start_;
    int first_step_ = -1;  // the step before this call's first batch
};

void TrainingRun::report(const TrainEvent& e) const {
    if (!on_event_) return;
    TrainEvent named = e;
    named.save_dir = result_.save_dir;
    on_event_(named);
}

void TrainingRun::open_run_folder() {
    // A process started as one rank of several trains its share.
    rank_ = distributed::rank_from_environment();
    const bool distributed_run = rank_ && rank_->world_size > 1;
    if (!distributed_run) rank_.reset();
    main_rank_ = !rank_ || rank_->rank == 0;
    if (rank_) {
        o_.device = distributed::rank_device(o_.device, *rank_);
        result_.rank = rank_->rank;
        result_.world_size = rank_->world_size;
    }
    folder_ = std::make_unique<training::RunDirectory>(o_, main_rank_);
    check_train_options(o_);
    if (main_rank_) {
        std::filesystem::create_directories(folder_->path() / "weights");
        folder_->save_options(o_);
    }
    result_.save_dir = folder_->path().string();
}

void TrainingRun::load_network(const DatasetConfig& config) {
    model_.emplace(training::load_training_model(o_, config));
    Model::Impl& impl = model_->impl();
    const int nc = static_cast<int>(config.names.size());
    recipe_ = training::make_family_recipe(impl.spec.name.family, impl.net, nc);
    recipe_->check_options(o_);
    if (o_.sync_bn && rank_ && !recipe_->supports_sync_batch_norm())
        throw NotSupported("sync_bn: the " + family_traits(impl.spec.name.family).display_name +
                           " family's batch norm layers are not synchronised across ranks; train " +
                           impl.spec.name.canonical() + " with sync_bn=false (each rank normalises its own part)");
    loss_names_ = recipe_->loss_names();
    if (!impl.pretrained) recipe_->initialise_fresh_network();
    // AMP as LibreYOLO: the forward pass under float16 autocast, backward through a GradScaler; the
    // family's loss in float32.
    amp_ = impl.device.is_cuda() && o_.amp;
    scaler_ = std::make_unique<training::GradScaler>(impl.device);
    if (amp_) log_info("train", "amp: float16 autocast with dynamic loss scaling");
    ema_ = std::make_unique<training::ModelEma>(impl, o_.ema_decay);
    if (rank_)  // every rank starts from rank 0's weights, the EMA included
        dist_ = std::make_unique<distributed::DistributedTraining>(
            *rank_, impl.device, std::chrono::seconds(o_.dist_timeout), *impl.net, o_.sync_bn);
    ema_->start(*impl.net);
}

void TrainingRun::load_data(const DatasetConfig& config) {
    const data::LoadedSplit split = data::load_split(config, "train");
    if (split.corrupt_images || split.dropped_rows)
        log_warning("train", "skipped " + std::to_string(split.corrupt_images) + " unreadable image(s) and " +
                                 std::to_string(split.dropped_rows) +
                                 " bad label row(s) (libreyolo check data=" + o_.data + " lists them)");
    const Model::Impl& impl = model_->impl();
    data::LoaderOptions lo;
    lo.batch = o_.batch;
    lo.imgsz = o_.imgsz;
    lo.workers = o_.workers;
    lo.seed = static_cast<std::uint64_t>(o_.seed);
    lo.mosaic = o_.mosaic;
    lo.resize = family_traits(impl.spec.name.family).input_resize;
    lo.pin_memory = impl.device.is_cuda();
    lo.augment_options = {o_.degrees,    o_.translate,      o_.shear,          o_.mosaic_scale[0], o_.mosaic_scale[1],
                          o_.mixup_prob, o_.mixup_scale[0], o_.mixup_scale[1], o_.hsv_prob,        o_.flip_prob};
    lo.pipeline = recipe_->sample_pipeline(lo.augment_options, o_.mosaic);
    if (!lo.pipeline && o_.mixup_prob > 0)
        throw NotSupported("mixup_prob: the " + family_traits(impl.spec.name.family).display_name +
                           " family's training samples have no MixUp; set mixup_prob=0");
    if (dist_) {
        lo.shard_rank = rank_->rank;
        lo.shard_count = rank_->world_size;
    }
    loader_ = std::make_unique<data::BatchLoader>(split.items, lo);
    batches_ = loader_->batches_per_epoch();
}

void TrainingRun::start_optimizer() {
    Model::Impl& impl = model_->impl();
    optimizer_ = recipe_->make_optimizer(o_);
    if (dist_) recipe_->global_target_sum = [this](const torch::Tensor& local) { return dist_->sum(local); };
    if (o_.resume) {
        state_ = folder_->restore(*impl.net, *ema_->impl().net, *optimizer_);
        ema_->updates = state_.ema_updates;
        if (amp_ && !state_.grad_scaler.is_null()) scaler_->load_state(state_.grad_scaler);
        result_.best_map50_95 = state_.best_map50_95;
    }
    if (main_rank_)
        closer_ = std::make_unique<training::EpochCloser>(
            o_, training::EpochCloser::Parts{*folder_, *ema_, *optimizer_, *scaler_, *impl.net}, state_, loss_names_,
            batches_);
}

void TrainingRun::start_graph() {
    Model::Impl& impl = model_->impl();
    const std::string ruled_out = training::training_graphs_ruled_out(
        dist_.get(), impl.device, family_traits(impl.spec.name.family), impl.spec.name);
    graph_ = std::make_unique<training::NetworkGraph>(
        o_.cuda_graph, ruled_out, [this](const TrainingGraphStatus& status, const std::string& line) {
            log_info("train", line);
            TrainEvent ev;
            ev.kind = TrainEvent::Kind::Graph;
            ev.graph = status;
            ev.message = line;
            report(ev);
        });
    steps_ = std::make_unique<training::StepRunner>(
        o_, training::StepRunner::Parts{*recipe_, *optimizer_, *scaler_, *graph_, *ema_, *impl.net, dist_.get()},
        impl.device, amp_, batches_);
}

void TrainingRun::report_batch(const training::StepOutcome& step, int epoch, int b, Clock::time_point step_start) {
    if (!on_event_ || !main_rank_) return;
    TrainEvent ev;
    ev.kind = TrainEvent::Kind::Batch;
    ev.epoch = epoch;
    ev.epochs = o_.epochs;
    ev.batch = b;
    ev.batches = batches_;
    ev.loss = step.values[0];
    ev.loss_names = loss_names_;
    ev.loss_parts.assign(step.values.begin() + 1, step.values.end());
    ev.lr = step.lr;
    ev.step_ms = std::chrono::duration<double, std::milli>(Clock::now() - step_start).count();
    ev.step = (epoch - 1) * batches_ + b;
    ev.steps = o_.epochs * batches_;
    if (first_step_ < 0) first_step_ = ev.step - 1;
    const double elapsed = std::chrono::duration<double>(Clock::now() - loop_start_).count();
    ev.eta_seconds = elapsed / std::max(1, ev.step - first_step_) * (ev.steps - ev.step);
    report(ev);
}

void TrainingRun::save_after_stop(int epoch) {
    // The interrupted epoch is not counted: resume repeats it from its start, from the last finished
    // epoch's checkpoint; stopped in the first epoch, from the weights so far.
    if (main_rank_ && !folder_->has_last_state()) {
        state_.epoch = epoch - 1;
        state_.ema_updates = ema_->updates;
        state_.grad_scaler = scaler_->state();
        folder_->save_last(ema_->snapshot(), *optimizer_, *model_->impl().net, state_, o_);
    }
    result_.stopped = true;
    result_.last = folder_->weights("last.safetensors").string();
    log_info("train", "stopped during epoch " + std::to_string(epoch) + "; resuming the run continues from epoch " +
                          std::to_string(epoch));
}

bool TrainingRun::train_epoch(int epoch) {
    training::EpochTotals totals;
    totals.start = Clock::now();
    totals.sums.assign(1 + loss_names_.size(), 0.0);
    const bool mosaic_epoch = recipe_->augmentation_epoch(epoch, o_);
    // LibreYOLO's EMA restart (D-FINE, DEIM): a constant decay once the last close_mosaic epochs begin
    // (a resumed run in them sets it again).
    if (o_.ema_restart_decay > 0 && epoch > o_.epochs - o_.close_mosaic) ema_->set_constant_decay(o_.ema_restart_decay);
    loader_->begin_epoch(epoch, mosaic_epoch);
    recipe_->begin_epoch(epoch, mosaic_epoch);
    model_->impl().net->train();
    data::Batch batch;
    for (int b = 1; loader_->next(batch); ++b) {
        const auto step_start = Clock::now();
        const training::StepOutcome step = steps_->run(batch, epoch, b, stop_);
        totals.lr = step.lr;
        if (step.finite) {
            for (std::size_t i = 0; i < totals.sums.size(); ++i) totals.sums[i] += step.values[i];
            ++totals.steps;
        }
        report_batch(step, epoch, b, step_start);
        if (step.stop) {
            save_after_stop(epoch);
            return false;
        }
    }
    if (!main_rank_) {
        // Rank 0 validates and writes; the others learn whether the run goes on.
        result_.epochs_run = epoch;
        return dist_->decision_of_main(true);
    }
    const bool go_on = closer_->close(epoch, totals, result_, [this](const TrainEvent& e) { report(e); });
    if (dist_) dist_->decision_of_main(go_on);
    return go_on;
}

void TrainingRun::finish_distributed_run() {
    result_.weights_sha256 = dist_->verify_identical_weights();
    const std::vector<distributed::RankStatistics> ranks = dist_->statistics_of_ranks();
    if (!main_rank_) return;
    for (const distributed::RankStatistics& r : ranks) {
        char line[256];
        std::snprintf(line, sizeof line,
                      "distributed: rank %d: %lld steps in %.1f s, %.2f s (%.1f %%) waiting for the gradient "
                      "all-reduce, peak memory %.2f GiB",
                      r.rank, static_cast<long long>(r.steps), r.step_seconds, r.allreduce_wait_seconds,
                      100 * r.allreduce_wait_fraction(), r.peak_memory_bytes / double(1 << 30));
        log_info("train", line);
    }
    distributed::write_rank_statistics(folder_->path() / "distributed.json", dist_->group().backend(),
                                       result_.weights_sha256, ranks);
}

TrainResult TrainingRun::run() {
    open_run_folder();
    const DatasetConfig config = load_dataset_config(o_.data);
    load_network(config);
    load_data(config);
    start_optimizer();
    const Model::Impl& impl = model_->impl();
    log_info("train", "training " + impl.spec.name.canonical() + " on " + std::to_string(loader_->image_count()) +
                          " images, " + std::to_string(batches_) + " batches an epoch, device " + impl.device.str() +
                          ", results in " + folder_->path().string());
    start_graph();
    loop_start_ = Clock::now();
    for (int epoch = state_.epoch + 1; epoch <= o_.epochs; ++epoch)
        if (!train_epoch(epoch)) break;
    if (dist_) finish_distributed_run();
    if (std::filesystem::exists(folder_->weights("best.safetensors")))
        result_.best = folder_->weights("best.safetensors").string();
    result_.cuda_graph = graph_->status();
    result_.graph_replays = graph_->replays();
    return result_;
}

}  // namespace

TrainResult train(const TrainOptions& options, const std::function<void(const TrainEvent&)>& on_event,
                  const std::atomic<bool>* stop) {
    return TrainingRun(options, on_event, stop).run();
}

}  // namespace libreyolo
