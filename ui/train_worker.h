#pragma once
// Runs libreyolo::train off the GUI thread. Lives in a QThread owned by a TrainController; a run
// starts by a queued call, its batch and epoch events leave as signals, and requestStop()
// (callable from any thread) ends it after the current batch with a resumable checkpoint. The
// engine's log lines reach the studio through its LogRouter, not through here.
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
    // stopped: by requestStop(); saveDir holds weights/last.* to resume from.
    // cudaGraph: how --cuda-graph went (TrainResult::cuda_graph).
    void finished(const QString& saveDir, bool stopped, double bestMap50_95,
                  const libreyolo::TrainingGraphStatus& cudaGraph);
    void failed(const QString& message);

private:
    std::atomic<bool> stop_{false};
};
