#include "predict_controller.h"

#include "predict_worker.h"

PredictController::PredictController(QObject* parent) : QObject(parent) {
    qRegisterMetaType<libreyolo::Result>();
    qRegisterMetaType<libreyolo::PredictOptions>();
    qRegisterMetaType<std::vector<libreyolo::GraphInfo>>();
    worker_ = new PredictWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &PredictWorker::modelLoaded, this, [this](const QString& description) {
        modelDescription_ = description;
        Q_EMIT modelLoaded(description);
    });
    connect(worker_, &PredictWorker::modelLoadFailed, this, &PredictController::modelLoadFailed);
    connect(worker_, &PredictWorker::predicted, this, &PredictController::predicted);
    connect(worker_, &PredictWorker::predictionFailed, this, &PredictController::predictionFailed);
    connect(worker_, &PredictWorker::failed, this, &PredictController::failed);
    connect(worker_, &PredictWorker::graphsChanged, this, &PredictController::graphsChanged);
    connect(worker_, &PredictWorker::exported, this, &PredictController::exported);
    connect(worker_, &PredictWorker::exportFailed, this, &PredictController::exportFailed);
    connect(worker_, &PredictWorker::videoFinished, this, &PredictController::videoFinished);
    connect(worker_, &PredictWorker::liveStarted, this, &PredictController::liveStarted);
    connect(worker_, &PredictWorker::liveStats, this, &PredictController::liveStats);
    connect(worker_, &PredictWorker::liveFinished, this, &PredictController::liveFinished);
    thread_.start();
}

PredictController::~PredictController() {
    thread_.quit();
    thread_.wait();
}

void PredictController::loadModel(const QString& nameOrPath, const QString& device) {
    modelRequest_ = nameOrPath;
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, nameOrPath, device] { worker->loadModel(nameOrPath, device); },
        Qt::QueuedConnection);
}

void PredictController::predictFile(const QString& path, const libreyolo::PredictOptions& options) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, path, options] { worker->predictFile(path, options); }, Qt::QueuedConnection);
}

void PredictController::playVideo(const QString& path, const libreyolo::PredictOptions& options) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, path, options] { worker->playVideo(path, options); }, Qt::QueuedConnection);
}

void PredictController::playLive(const QString& source, const libreyolo::PredictOptions& options, bool track) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, source, options, track] { worker->playLive(source, options, track); },
        Qt::QueuedConnection);
}

void PredictController::stopLive() {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_] { worker->stopLive(); }, Qt::QueuedConnection);
}

void PredictController::stopVideo() {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_] { worker->stopVideo(); }, Qt::QueuedConnection);
}

void PredictController::predictAgain(const libreyolo::PredictOptions& options) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, options] { worker->predictAgain(options); }, Qt::QueuedConnection);
}

void PredictController::moveModel(const QString& device) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, device] { worker->moveModel(device); }, Qt::QueuedConnection);
}

void PredictController::captureGraph(int imgsz, int batch, const QString& dtype) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, imgsz, batch, dtype] { worker->captureGraph(imgsz, batch, dtype); },
        Qt::QueuedConnection);
}

void PredictController::exportModel(const libreyolo::ExportOptions& options) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, options] { worker->exportModel(options); }, Qt::QueuedConnection);
}

void PredictController::releaseGraphs() {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_] { worker->releaseGraphs(); }, Qt::QueuedConnection);
}
