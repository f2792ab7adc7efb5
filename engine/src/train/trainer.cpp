// The training loop. Checkpoints per epoch: weights/last.safetensors (EMA weights and the
// checkpoint fields, loadable by predict and val), weights/last.train.safetensors (the raw weights
// and the loop's counters, as metadata) and weights/last.optim.pt (optimizer state); best.safetensors
// when mAP50-95 improves. Every file is written to a temporary name and renamed.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <optional>

#include "core/autocast.h"
#include "data/loader.h"
#include "distributed/distributed_training.h"
#include "io/atomic_file.h"
#include "io/remove_tree.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "libreyolo/log.h"
#include "libreyolo/train.h"
#include "libreyolo/validate.h"
#include "predict/model_impl.h"
#include "train/ema_blend.h"
#include "train/family_recipe.h"
#include "train/grad_scaler.h"
#include "train/network_graph.h"
#include "train/results_csv.h"

namespace libreyolo {
namespace fs = std::filesystem;

// The options a resumed run takes from its checkpoint (device, workers and the like stay the caller's).
// Keys missing from an older checkpoint take their defaults.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(TrainOptions, model, data, epochs, batch, imgsz, optimizer, lr0, lrf,
                                                momentum, weight_decay, warmup_epochs, close_mosaic, mosaic, seed,
                                                patience, eval_interval, save_period, sync_bn, lr_backbone,
                                                clip_max_norm, multi_scale)

namespace {

using Clock = std::chrono::steady_clock;

void validate_options(const TrainOptions& o) {
    auto fail = [](const std::string& m) { throw InvalidArgument(m); };
    if (o.data.empty()) fail("data: name the dataset YAML");
    if (o.epochs < 1) fail("epochs: must be at least 1, got " + std::to_string(o.epochs));
    if (o.batch < 1) fail("batch: must be at least 1, got " + std::to_string(o.batch));
    check_image_size(o.imgsz);
    if (!(o.lr0 > 0)) fail("lr0: must be positive");
    if (o.optimizer != "SGD" && o.optimizer != "Adam" && o.optimizer != "AdamW")
        fail("optimizer: '" + o.optimizer + "' is not SGD, Adam or AdamW");
    if (!(o.clip_max_norm >= 0)) fail("clip_max_norm: must be 0 (off) or positive");
}

// LibreYOLO's LinearLRScheduler with momentum warm-up.
struct Schedule {
    double lr0, final_lr, warmup_start, warmup_momentum, momentum;
    int64_t warmup_iters, total_iters;
    double lr(int64_t it) const {
        if (it <= warmup_iters)
            return warmup_iters > 0 ? (lr0 - warmup_start) * double(it) / double(warmup_iters) + warmup_start : lr0;
        const double progress = double(it - warmup_iters) / double(std::max<int64_t>(1, total_iters - warmup_iters));
        return lr0 - (lr0 - final_lr) * progress;
    }
    double beta(int64_t it) const {
        if (warmup_iters <= 0 || it >= warmup_iters) return momentum;
        return warmup_momentum + (momentum - warmup_momentum) * double(it) / double(warmup_iters);
    }
};

// The schedule's lr scaled by each group's multiple, and its momentum as SGD's momentum or Adam's beta1.
void set_schedule(torch::optim::Optimizer& opt, const std::string& kind, double lr, double beta,
                  const std::vector<double>& lr_ratios) {
    for (std::size_t i = 0; i < opt.param_groups().size(); ++i) {
        auto& g = opt.param_groups()[i];
        g.options().set_lr(lr * (i < lr_ratios.size() ? lr_ratios[i] : 1.0));
        if (kind == "SGD")
            static_cast<torch::optim::SGDOptions&>(g.options()).momentum(beta);
        else if (kind == "Adam") {
            auto& a = static_cast<torch::optim::AdamOptions&>(g.options());
            a.betas({beta, std::get<1>(a.betas())});
        } else {
            auto& a = static_cast<torch::optim::AdamWOptions&>(g.options());
            a.betas({beta, std::get<1>(a.betas())});
        }
    }
}

// LibreYOLO's multi-scale sizes around imgsz: multiples of 32 from 0.75 to 1.25 times it, imgsz
// itself three times over (the upstream DETR ports' generate_scales).
std::vector<int> multi_scale_sizes(int imgsz) {
    const int low = static_cast<int>(imgsz * 0.75 / 32) * 32, high = static_cast<int>(imgsz * 1.25 / 32) * 32;
    const int steps = (imgsz - low) / 32;
    std::vector<int> sizes;
    for (int i = 0; i < steps; ++i) sizes.push_back(low + 32 * i);
    for (int i = 0; i < 3; ++i) sizes.push_back(imgsz);
    for (int i = 0; i < steps; ++i) sizes.push_back(high - 32 * i);
    return sizes;
}

// timm/YOLOX ModelEMA: decay ramps up as d · (1 − e^(−updates / tau)).
struct Ema {
    std::unique_ptr<Model::Impl> impl;
    int64_t updates = 0;
    // The EMA's and the model's tensor for every floating-point entry, paired once by position: the
    // optimizer and checkpoint loading update both in place, so they stay valid for the whole run.
    std::vector<torch::Tensor> averaged, trained;

    void bind(torch::nn::Module& model) {
        const auto src = io::state_dict(model);
        for (auto& [k, v] : io::state_dict(*impl->net))
            if (v.is_floating_point()) {
                averaged.push_back(v);
                trained.push_back(src.at(k).detach());
            }
    }
    void update() {
        ++updates;
        training::ema_blend(averaged, trained, 0.9999 * (1 - std::exp(-double(updates) / 2000.0)));
    }
};

// The run folder when this call makes it: removed again if the run ends before its first checkpoint
// (an error while loading the data or the model, or in the first epoch), so a failed start leaves no
// empty run behind. A folder that existed before the call is never removed.
class NewRunFolder {
public:
    // made: whether this run created dir (a numbered name, or a name not taken before).
    NewRunFolder(fs::path dir, bool made) : dir_(std::move(dir)), made_(made) {}
    NewRunFolder(const NewRunFolder&) = delete;
    NewRunFolder& operator=(const NewRunFolder&) = delete;
    ~NewRunFolder() {
        if (!made_ || kept_) return;
        io::remove_tree(dir_);  // teardown never throws; a folder left behind is only untidy
    }
    void keep() { kept_ = true; }

private:
    fs::path dir_;
    bool made_ = false, kept_ = false;
};

void save_optimizer(torch::optim::Optimizer& opt, const fs::path& path) {
    io::write_file_atomically(path, [&](std::ostream& out) { torch::save(opt, out); });
}

}  // namespace

TrainResult train(const TrainOptions& given, const std::function<void(const TrainEvent&)>& on_event,
                  const std::atomic<bool>* stop) {
    TrainOptions o = given;
    TrainResult result;
    // A process started as one rank of several trains its share; rank 0 alone logs, validates and
    // writes files.
    const std::optional<distributed::RankInfo> rank = distributed::rank_from_environment();
    const bool distributed_run = rank && rank->world_size > 1;
    const bool main_rank = !distributed_run || rank->rank == 0;
    if (distributed_run) {
        o.device = distributed::rank_device(o.device, *rank);
        if (o.dist_timeout < 1)
            throw InvalidArgument("dist_timeout: must be at least 1 second, got " + std::to_string(o.dist_timeout));
        result.rank = rank->rank;
        result.world_size = rank->world_size;
    }
    fs::path save_dir;
    bool made_save_dir = false;
    nlohmann::json resume_state;
    io::TensorFile resume_weights;  // the raw weights of last.train.safetensors
    if (o.resume) {
        save_dir = fs::path(o.project) / o.name;
        const fs::path state = save_dir / "weights" / "last.train.safetensors";
        if (!fs::exists(state)) throw FileNotFound("resume: " + state.string() + ": no checkpoint to resume from");
        resume_weights = io::read_safetensors(state);
        resume_state = nlohmann::json::parse(resume_weights.metadata.at("train_state"));
        resume_state.at("options").get_to(o);
    } else {
        PredictOptions naming;
        naming.project = o.project;
        naming.name = o.name;
        naming.exist_ok = o.exist_ok;
        // Only rank 0 names (and so creates) the run folder; the others write nothing. Without
        // exist_ok the name is always a new one.
        made_save_dir = main_rank && (!o.exist_ok || !fs::exists(fs::path(o.project) / o.name));
        save_dir = main_rank ? fs::path(resolve_save_dir(naming)) : fs::path(o.project) / o.name;
    }
    NewRunFolder run_folder(save_dir, made_save_dir);
    validate_options(o);
    if (main_rank) fs::create_directories(save_dir / "weights");
    result.save_dir = save_dir.string();
    // Every event names the run's folder, so a caller learns where a numbered run went.
    const std::function<void(const TrainEvent&)> report = [&](const TrainEvent& e) {
        if (!on_event) return;
        TrainEvent named = e;
        named.save_dir = result.save_dir;
        on_event(named);
    };

    const DatasetConfig config = load_dataset_config(o.data);
    const int nc = static_cast<int>(config.names.size());

    // The network: a model name starts from scratch (seeded), a file fine-tunes.
    torch::manual_seed(static_cast<uint64_t>(o.seed));
    Model model =
        looks_like_model_name(o.model) ? Model::create(o.model, nc, o.device) : Model::load(o.model, o.device);
    Model::Impl& m = model.impl();
    if (!m.pretrained && !o.resume && o.epochs < 100)
        log_warning("train", o.model +
                                 " starts from random weights: a few epochs from scratch detect next to "
                                 "nothing (from-scratch runs take hundreds of epochs). For a quick result fine-tune "
                                 "trained weights instead: a .safetensors checkpoint as the model, such as the demo "
                                 "model " +
                                 default_model());
    if (m.quant)
        throw NotSupported("train: " + o.model + " is a quantized checkpoint (recipe '" + m.quant->recipe +
                           "'); quantization-aware training is not available: train the float checkpoint, then "
                           "`libreyolo quantize` it");
    if (m.meta.nc != nc) {
        Model fresh = Model::create(m.spec.name.canonical(), nc, o.device);
        int copied = 0;
        auto target = io::state_dict(*fresh.impl().net);
        torch::NoGradGuard no_grad;
        for (const auto& [k, v] : io::state_dict(*m.net))
            if (target.count(k) && target[k].sizes() == v.sizes()) target[k].copy_(v), ++copied;
        log_info("train", o.model + " has " + std::to_string(m.meta.nc) + " classes, the dataset " +
                              std::to_string(nc) + ": transferred " + std::to_string(copied) +
                              " tensors, new class head");
        model = std::move(fresh);
    }
    Model::Impl& impl = model.impl();
    impl.meta.names = config.names;
    impl.meta.imgsz = o.imgsz;
    std::unique_ptr<training::FamilyRecipe> recipe = training::make_family_recipe(impl.net, nc);
    if (o.sync_bn && distributed_run && !recipe->supports_sync_batch_norm())
        throw NotSupported("sync_bn: SyncBatchNorm is wired into YOLOv9's BatchNorm layers only; train " +
                           impl.spec.name.canonical() + " with sync_bn=false (each rank normalises its own part)");
    torch::nn::Module& net = *impl.net;
    const FamilyTraits& traits = family_traits(impl.spec.name.family);
    const std::vector<std::string> loss_names = recipe->loss_names();
    const torch::Device device = impl.device;
    // AMP as LibreYOLO: the forward pass under float16 autocast, backward through a GradScaler;
    // the family's loss in float32.
    const bool amp = device.is_cuda() && o.amp;
    training::GradScaler scaler(device);
    if (amp) log_info("train", "amp: float16 autocast with dynamic loss scaling");

    // EMA: a second network of the same architecture.
    Ema ema;
    ema.impl = std::make_unique<Model::Impl>(impl);
    ema.impl->net = models::build_network(impl.spec);
    {
        torch::NoGradGuard no_grad;
        auto dst = io::state_dict(*ema.impl->net);
        for (const auto& [k, v] : io::state_dict(*impl.net)) dst.at(k).copy_(v);
    }
    ema.impl->net->to(device);
    ema.impl->net->eval();
    std::unique_ptr<distributed::DistributedTraining> dist;
    if (distributed_run) {
        // Before the EMA copies the weights: every rank starts from rank 0's.
        dist = std::make_unique<distributed::DistributedTraining>(*rank, device, std::chrono::seconds(o.dist_timeout),
                                                                  net, o.sync_bn);
        torch::NoGradGuard no_grad;
        auto dst = io::state_dict(*ema.impl->net);
        for (const auto& [k, v] : io::state_dict(*impl.net)) dst.at(k).copy_(v);
    }
    for (auto& p : ema.impl->net->parameters()) p.set_requires_grad(false);
    ema.bind(*impl.net);

    const data::LoadedSplit split = data::load_split(config, "train");
    if (split.corrupt_images || split.dropped_rows)
        log_warning("train", "skipped " + std::to_string(split.corrupt_images) + " unreadable image(s) and " +
                                 std::to_string(split.dropped_rows) +
                                 " bad label row(s) (libreyolo check data=" + o.data + " lists them)");
    data::LoaderOptions lo;
    lo.batch = o.batch;
    lo.imgsz = o.imgsz;
    lo.workers = o.workers;
    lo.seed = static_cast<std::uint64_t>(o.seed);
    lo.mosaic = o.mosaic;
    lo.resize = traits.input_resize;
    lo.pin_memory = device.is_cuda();
    if (dist) {
        lo.shard_rank = rank->rank;
        lo.shard_count = rank->world_size;
    }
    data::BatchLoader loader(split.items, lo);
    const int batches = loader.batches_per_epoch();

    auto optimizer = recipe->make_optimizer(o);
    const Schedule schedule{o.lr0,
                            o.lr0 * o.lrf,
                            std::min(o.warmup_lr_start, o.lr0),
                            o.warmup_momentum,
                            o.momentum,
                            int64_t(batches) * o.warmup_epochs,
                            int64_t(batches) * o.epochs};
    if (dist) recipe->global_target_sum = [&](const torch::Tensor& local) { return dist->sum(local); };

    int start_epoch = 1, stale = 0, nonfinite_in_a_row = 0, best_epoch = 0;
    double best = -1;
    const fs::path weights = save_dir / "weights";
    if (o.resume) {
        io::load_state_dict(*impl.net, resume_weights.tensors, (weights / "last.train.safetensors").string());
        resume_weights = {};
        const io::TensorFile e = io::read_safetensors(weights / "last.safetensors");
        io::load_state_dict(*ema.impl->net, e.tensors, (weights / "last.safetensors").string());
        torch::load(*optimizer, (weights / "last.optim.pt").string());
        start_epoch = resume_state.at("epoch").get<int>() + 1;
        ema.updates = resume_state.at("ema_updates");
        best = resume_state.at("best_map50_95");
        stale = resume_state.at("stale_epochs");
        best_epoch = resume_state.value("best_epoch", 0);
        if (amp && resume_state.contains("grad_scaler")) scaler.load_state(resume_state.at("grad_scaler"));
        result.best_map50_95 = best;
        log_info("train", "resuming " + save_dir.string() + " at epoch " + std::to_string(start_epoch));
    }

    std::optional<training::ResultsCsv> csv;
    if (main_rank)
        csv.emplace(save_dir / "results.csv", o.resume ? start_epoch : 0, loss_names, optimizer->param_groups().size());
    // weights/last.*: the EMA weights (loadable by predict and val), the optimizer state, then the
    // raw weights and counters, written last: its epoch counter says the files before it are complete.
    auto save_last = [&](const Model& ema_model, int epochs_done) {
        run_folder.keep();
        ema_model.save((weights / "last.safetensors").string());
        save_optimizer(*optimizer, weights / "last.optim.pt");
        io::write_safetensors(weights / "last.train.safetensors", io::state_dict(net),
                              {{"train_state", nlohmann::json{{"epoch", epochs_done},
                                                              {"ema_updates", ema.updates},
                                                              {"best_map50_95", best},
                                                              {"stale_epochs", stale},
                                                              {"best_epoch", best_epoch},
                                                              {"grad_scaler", scaler.state()},
                                                              {"options", nlohmann::json(o)}}
                                                   .dump()}});
    };
    log_info("train", "training " + impl.spec.name.canonical() + " on " + std::to_string(loader.size()) + " images, " +
                          std::to_string(batches) + " batches an epoch, device " + device.str() + ", results in " +
                          save_dir.string());

    // --cuda-graph: the network's forward and backward replayed from graphs once a batch shape
    // repeats; anything that rules graphs out, or breaks them mid-run, leaves the run eager.
    std::string graphs_ruled_out;
    if (dist)
        graphs_ruled_out = "a distributed run (" + std::to_string(rank->world_size) + " ranks) is not captured";
    else if (!device.is_cuda())
        graphs_ruled_out = "CUDA graphs need a CUDA device (the run is on " + device.str() + ")";
    else if (!traits.supports_cuda_graph_training(impl.spec.name.task))
        graphs_ruled_out = "family " + impl.spec.name.family + " (task " + impl.spec.name.task +
                           ") has not opted in to training graphs";
    training::NetworkGraph network_graph(o.cuda_graph, graphs_ruled_out, [&](const std::string& line) {
        log_info("train", line);
        if (!on_event) return;
        TrainEvent ev;
        ev.kind = TrainEvent::Kind::Graph;
        ev.message = line;
        report(ev);
    });
    const std::vector<int> scales = multi_scale_sizes(o.imgsz);
    const std::size_t parts_n = loss_names.size();
    const auto loop_start = Clock::now();
    int first_step = -1;  // the step before this call's first batch
    for (int epoch = start_epoch; epoch <= o.epochs; ++epoch) {
        const auto epoch_start = Clock::now();
        loader.begin_epoch(epoch, epoch <= o.epochs - o.close_mosaic);
        net.train();
        std::vector<double> sums(1 + parts_n, 0.0);
        int seen = 0;
        double lr = 0;
        data::Batch batch;
        bool stopped = false;
        for (int b = 1; loader.next(batch); ++b) {
            const auto step_start = Clock::now();
            const int64_t it = int64_t(epoch - 1) * batches + b - 1;
            lr = schedule.lr(it);
            set_schedule(*optimizer, o.optimizer, lr, schedule.beta(it), recipe->lr_ratios());
            // Pinned batches make these copies asynchronous.
            torch::Tensor images = batch.images.to(device, /*non_blocking=*/true);
            if (o.multi_scale) {
                // One size per batch, the same on every rank (seeded by the step); targets are
                // normalised, so only the images change.
                data::Rng rng((static_cast<std::uint64_t>(o.seed) + 7) * 0x9e3779b97f4a7c15ull ^
                              static_cast<std::uint64_t>(it));
                const int size = scales[static_cast<std::size_t>(rng.below(static_cast<int>(scales.size())))];
                if (size != images.size(3))
                    images = torch::nn::functional::interpolate(images, torch::nn::functional::InterpolateFuncOptions()
                                                                            .size(std::vector<int64_t>{size, size})
                                                                            .mode(torch::kBilinear)
                                                                            .align_corners(false));
            }
            const torch::Tensor targets = batch.targets.to(device, /*non_blocking=*/true);
            // Forward, loss and backward; the optimizer steps after. A backward replay that fails
            // drops the graph, and the batch is computed again eagerly.
            const auto forward_and_backward = [&] {
                if (dist) dist->begin_step();
                training::StepLoss parts = recipe->loss(images, targets, network_graph, amp);
                optimizer->zero_grad();
                (amp ? scaler.scale(parts.total) : parts.total).backward();
                if (dist) dist->finish_backward();
                return parts;
            };
            training::StepLoss parts;
            try {
                parts = forward_and_backward();
            } catch (const std::exception& e) {
                if (!network_graph.last_step_graphed()) throw;
                network_graph.fall_back(e.what());
                parts = forward_and_backward();
            }
            training::optimizer_step(*optimizer, scaler, amp, o.clip_max_norm, net);
            ema.update();

            // One device-to-host copy for the loss and its parts (in a distributed run each rank
            // holds its share of the batch loss: summed, they are the loss one process would
            // report, and one more number says whether any rank was asked to stop).
            std::vector<torch::Tensor> columns = {parts.total.detach()};
            for (const auto& part : parts.parts) columns.push_back(part.detach());
            torch::Tensor numbers = torch::stack(columns).to(torch::kFloat32);
            if (dist) {
                const float stop_requested = stop && stop->load() ? 1.0f : 0.0f;
                numbers = dist->sum(torch::cat({numbers, torch::full({1}, stop_requested, numbers.options())}));
            }
            const torch::Tensor host = numbers.to(torch::kCPU, torch::kFloat64);
            const double* values = host.data_ptr<double>();
            const bool stop_now = dist ? values[1 + parts_n] > 0 : stop && stop->load();
            if (!std::isfinite(values[0])) {
                // Under AMP a float16 overflow is routine: the scaler skipped that step and lowers
                // its scale. In float32, or when it keeps happening, the run has diverged.
                if (!amp || ++nonfinite_in_a_row > 20)
                    throw Error("train: the loss became " + std::to_string(values[0]) + " at epoch " +
                                std::to_string(epoch) + " batch " + std::to_string(b) + " (lower lr0?)");
            } else {
                nonfinite_in_a_row = 0;
                for (std::size_t i = 0; i <= parts_n; ++i) sums[i] += values[i];
                ++seen;
            }
            if (on_event && main_rank) {
                TrainEvent ev;
                ev.kind = TrainEvent::Kind::Batch;
                ev.epoch = epoch;
                ev.epochs = o.epochs;
                ev.batch = b;
                ev.batches = batches;
                ev.loss = values[0];
                ev.loss_names = loss_names;
                ev.loss_parts.assign(values + 1, values + 1 + parts_n);
                ev.lr = lr;
                ev.step_ms = std::chrono::duration<double, std::milli>(Clock::now() - step_start).count();
                ev.step = (epoch - 1) * batches + b;
                ev.steps = o.epochs * batches;
                if (first_step < 0) first_step = ev.step - 1;
                const double elapsed = std::chrono::duration<double>(Clock::now() - loop_start).count();
                ev.eta_seconds = elapsed / std::max(1, ev.step - first_step) * (ev.steps - ev.step);
                report(ev);
            }
            if (stop_now) {
                stopped = true;
                break;
            }
        }
        if (stopped) {
            // The interrupted epoch is not counted: resume repeats it from its start, from the last
            // finished epoch's checkpoint; stopped in the first epoch, from the weights so far.
            if (main_rank && !fs::exists(weights / "last.train.safetensors"))
                save_last(Model::adopt(std::make_unique<Model::Impl>(*ema.impl)), epoch - 1);
            result.stopped = true;
            result.last = (weights / "last.safetensors").string();
            log_info("train", "stopped during epoch " + std::to_string(epoch) +
                                  "; resuming the run continues from epoch " + std::to_string(epoch));
            break;
        }

        if (!main_rank) {
            // Rank 0 validates and writes; the others learn whether the run goes on.
            result.epochs_run = epoch;
            if (!dist->decision_of_main(true)) break;
            continue;
        }
        TrainEvent ev;
        ev.kind = TrainEvent::Kind::Epoch;
        ev.epoch = epoch;
        ev.epochs = o.epochs;
        ev.batches = batches;
        ev.loss = sums[0] / std::max(1, seen);
        ev.loss_names = loss_names;
        for (std::size_t i = 1; i <= parts_n; ++i) ev.loss_parts.push_back(sums[i] / std::max(1, seen));
        ev.lr = lr;
        Model ema_model = Model::adopt(std::make_unique<Model::Impl>(*ema.impl));
        std::optional<ValResult> val;
        if (epoch % std::max(1, o.eval_interval) == 0 || epoch == o.epochs) {
            ValOptions vo;
            vo.imgsz = o.imgsz;
            vo.batch = o.batch;
            vo.iou = 0.65f;  // LibreYOLO validates at 0.65 while training
            val = validate(ema_model, o.data, vo);
            ev.map50 = val->metrics.map50;
            ev.map50_95 = val->metrics.map50_95;
        }
        ev.epoch_seconds = std::chrono::duration<double>(Clock::now() - epoch_start).count();

        const bool improved = ev.map50_95 > best;
        if (improved) {
            best = ev.map50_95;
            best_epoch = epoch;
            stale = 0;
            ema_model.save((weights / "best.safetensors").string());
        } else if (ev.map50_95 >= 0) {
            ++stale;
        }
        save_last(ema_model, epoch);
        if (o.save_period > 0 && epoch % o.save_period == 0)
            ema_model.save((weights / ("epoch" + std::to_string(epoch) + ".safetensors")).string());
        training::EpochRow row;
        row.epoch = epoch;
        row.seconds = ev.epoch_seconds;
        row.loss = ev.loss;
        row.loss_parts = ev.loss_parts;
        for (const auto& g : optimizer->param_groups()) row.lr.push_back(g.options().get_lr());
        row.val = val ? &*val : nullptr;
        row.is_best = improved;
        row.best_map50_95 = best;
        row.best_epoch = best_epoch;
        csv->append(row);
        result.epochs_run = epoch;
        result.best_map50_95 = best;
        result.last = (weights / "last.safetensors").string();
        if (on_event) report(ev);
        const bool patience_ran_out = o.patience > 0 && stale >= o.patience;
        if (dist) dist->decision_of_main(!patience_ran_out);
        if (patience_ran_out) {
            log_info("train", "no better mAP50-95 for " + std::to_string(stale) + " epochs: stopping early");
            break;
        }
    }
    if (dist) result.weights_sha256 = dist->verify_identical_weights();
    if (fs::exists(weights / "best.safetensors")) result.best = (weights / "best.safetensors").string();
    result.cuda_graph = network_graph.status();
    result.graph_replays = network_graph.replays();
    return result;
}

}  // namespace libreyolo
