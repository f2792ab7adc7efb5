#include "train_worker.h"

TrainWorker::TrainWorker(QObject* parent) : QObject(parent) {}

void TrainWorker::run(const libreyolo::TrainOptions& options) {
    stop_ = false;
    try {
        const libreyolo::TrainResult r = libreyolo::train(
            options, [this](const libreyolo::TrainEvent& e) { Q_EMIT event(e); }, &stop_);
        Q_EMIT finished(QString::fromStdString(r.save_dir), r.stopped, r.best_map50_95, r.cuda_graph);
    } catch (const std::exception& e) {
        Q_EMIT failed(QString::fromUtf8(e.what()));
    }
}
