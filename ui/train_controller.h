#pragma once
// One training run at a time, on a thread of its own: start() hands the options to a TrainWorker
// there and stop() ends the run after its current batch. The run's events, its end and the
// engine's log lines while it lasts come back as this object's signals, on the GUI thread.
#include <QObject>
#include <QThread>

#include "engine_metatypes.h"

class TrainWorker;

class TrainController : public QObject {
    Q_OBJECT
public:
    explicit TrainController(QObject* parent = nullptr);
    // A run still going is asked to stop (it leaves a resumable checkpoint) and waited for.
    ~TrainController() override;
    bool isRunning() const { return running_; }

public Q_SLOTS:
    // Ignored while a run is going.
    void start(const libreyolo::TrainOptions& options);
    void stop();

Q_SIGNALS:
    void runningChanged(bool running);
    void event(const libreyolo::TrainEvent& event);
    void logLine(const QString& line);
    // After runningChanged(false); see TrainWorker::finished.
    void finished(const QString& saveDir, bool stopped, double bestMap50_95,
                  const libreyolo::TrainingGraphStatus& cudaGraph);
    void failed(const QString& message);

private:
    void setRunning(bool running);

    QThread thread_;
    TrainWorker* worker_ = nullptr;
    bool running_ = false;
};
