#pragma once
// Runs libreyolo::train off the GUI thread. Lives in a QThread owned by the Train page; a run
// starts by a queued call, its batch and epoch events and the engine's log lines leave as signals,
// and requestStop() (callable from any thread) ends it after the current batch with a resumable
// checkpoint.
#include <QObject>
#include <QString>

#include <atomic>

#include "engine_metatypes.h"

class TrainWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainWorker(QObject* parent = nullptr);
    void requestStop() { stop_ = true; }

public Q_SLOTS:
    void run(const libreyolo::TrainOptions& options);

Q_SIGNALS:
    void event(const libreyolo::TrainEvent& event);
    void logLine(const QString& line);
    // stopped: by requestStop(); saveDir holds weights/last.* to resume from.
    // cudaGraph: how --cuda-graph went (TrainResult::cuda_graph).
    void finished(const QString& saveDir, bool stopped, double bestMap50_95,
                  const libreyolo::TrainingGraphStatus& cudaGraph);
    void failed(const QString& message);

private:
    std::atomic<bool> stop_{false};
};
