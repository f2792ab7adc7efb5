#include "train/epoch_closer.h"

#include <optional>

#include "libreyolo/log.h"
#include "libreyolo/validate.h"

namespace libreyolo::training {

EpochCloser::EpochCloser(const TrainOptions& o, Parts parts, LoopState& state, std::vector<std::string> loss_names,
                         int batches_per_epoch)
    : o_(o),
      p_(parts),
      state_(state),
      loss_names_(std::move(loss_names)),
      batches_per_epoch_(batches_per_epoch),
      csv_(p_.run.path() / "results.csv", o.resume ? state.epoch + 1 : 0, loss_names_,
           p_.optimizer.param_groups().size()) {}

TrainEvent EpochCloser::epoch_event(int epoch, const EpochTotals& totals) const {
    TrainEvent ev;
    ev.kind = TrainEvent::Kind::Epoch;
    ev.epoch = epoch;
    ev.epochs = o_.epochs;
    ev.batches = batches_per_epoch_;
    ev.loss = totals.sums[0] / std::max(1, totals.steps);
    ev.loss_names = loss_names_;
    for (std::size_t i = 1; i < totals.sums.size(); ++i)
        ev.loss_parts.push_back(totals.sums[i] / std::max(1, totals.steps));
    ev.lr = totals.lr;
    return ev;
}

void EpochCloser::append_row(int epoch, const TrainEvent& ev, const ValResult* val, bool improved) {
    EpochRow row;
    row.epoch = epoch;
    row.seconds = ev.epoch_seconds;
    row.loss = ev.loss;
    row.loss_parts = ev.loss_parts;
    for (const auto& g : p_.optimizer.param_groups()) row.lr.push_back(g.options().get_lr());
    row.val = val;
    row.is_best = improved;
    row.best_map50_95 = state_.best_map50_95;
    row.best_epoch = state_.best_epoch;
    csv_.append(row);
}

bool EpochCloser::close(int epoch, const EpochTotals& totals, TrainResult& result, const Report& report) {
    TrainEvent ev = epoch_event(epoch, totals);
    Model ema_model = p_.ema.snapshot();
    std::optional<ValResult> val;
    if (epoch % std::max(1, o_.eval_interval) == 0 || epoch == o_.epochs) {
        ValOptions vo;
        vo.imgsz = o_.imgsz;
        vo.batch = o_.batch;
        vo.iou = 0.65f;  // LibreYOLO validates at 0.65 while training
        val = validate(ema_model, o_.data, vo);
        ev.map50 = val->metrics.map50;
        ev.map50_95 = val->metrics.map50_95;
    }
    ev.epoch_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - totals.start).count();

    const bool improved = ev.map50_95 > state_.best_map50_95;
    if (improved) {
        state_.best_map50_95 = ev.map50_95;
        state_.best_epoch = epoch;
        state_.stale_epochs = 0;
        p_.run.save_best(ema_model);
    } else if (ev.map50_95 >= 0) {
        ++state_.stale_epochs;
    }
    state_.epoch = epoch;
    state_.ema_updates = p_.ema.updates;
    state_.grad_scaler = p_.scaler.state();
    p_.run.save_last(ema_model, p_.optimizer, p_.net, state_, o_);
    if (o_.save_period > 0 && epoch % o_.save_period == 0) p_.run.save_epoch(ema_model, epoch);
    append_row(epoch, ev, val ? &*val : nullptr, improved);
    result.epochs_run = epoch;
    result.best_map50_95 = state_.best_map50_95;
    result.last = p_.run.weights("last.safetensors").string();
    report(ev);
    if (o_.patience > 0 && state_.stale_epochs >= o_.patience) {
        log_info("train", "no better mAP50-95 for " + std::to_string(state_.stale_epochs) + " epochs: stopping early");
        return false;
    }
    return true;
}

}  // namespace libreyolo::training
