#include "train_controller.h"

#include "log_router.h"
#include "train_worker.h"

TrainController::TrainController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<libreyolo::TrainOptions>();
    qRegisterMetaType<libreyolo::TrainEvent>();
    qRegisterMetaType<libreyolo::TrainingGraphStatus>();
    worker_ = new TrainWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &TrainWorker::event, this, &TrainController::event);
    connect(worker_, &TrainWorker::finished, this,
            [this](const QString& dir, bool stopped, double best, const libreyolo::TrainingGraphStatus& cudaGraph) {
                setRunning(false);
                Q_EMIT finished(dir, stopped, best, cudaGraph);
            });
    connect(worker_, &TrainWorker::failed, this, [this](const QString& message) {
        setRunning(false);
        Q_EMIT failed(message);
    });
    // The engine logs for everyone: the lines that come while a run lasts are the run's (the
    // router posts them in order with the worker's events, so the last come before the end).
    connect(LogRouter::instance(), &LogRouter::lineLogged, this,
            [this](libreyolo::LogLevel level, const QString& source, const QString& message) {
                if (running_) Q_EMIT logLine(LogRouter::text(level, source, message));
            });
    thread_.start();
}

TrainController::~TrainController() {
    worker_->requestStop();
    thread_.quit();
    thread_.wait();
}

void TrainController::start(const libreyolo::TrainOptions& options) {
    if (running_) return;
    setRunning(true);
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, options] { worker->run(options); }, Qt::QueuedConnection);
}

void TrainController::stop() {
    if (running_) worker_->requestStop();
}

void TrainController::setRunning(bool running) {
    running_ = running;
    Q_EMIT runningChanged(running);
}
