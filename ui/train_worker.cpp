#include "train_worker.h"

#include "libreyolo/log.h"

TrainWorker::TrainWorker(QObject* parent) : QObject(parent) {}

void TrainWorker::run(const libreyolo::TrainOptions& options) {
    stop_ = false;
    // The engine's log goes to the page while this run lasts (the "training eager" line among them).
    libreyolo::set_log_callback([this](libreyolo::LogLevel level, const std::string& source, const std::string& text) {
        Q_EMIT logLine(QString("[%1] %2%3")
                           .arg(QString::fromStdString(source),
                                level >= libreyolo::LogLevel::Warning ? tr("warning: ") : QString(),
                                QString::fromStdString(text)));
    });
    try {
        const libreyolo::TrainResult r = libreyolo::train(
            options, [this](const libreyolo::TrainEvent& e) { Q_EMIT event(e); }, &stop_);
        libreyolo::set_log_callback({});
        Q_EMIT finished(QString::fromStdString(r.save_dir), r.stopped, r.best_map50_95, r.cuda_graph);
    } catch (const std::exception& e) {
        libreyolo::set_log_callback({});
        Q_EMIT failed(QString::fromUtf8(e.what()));
    }
}
