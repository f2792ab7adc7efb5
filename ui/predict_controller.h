#pragma once
// The engine's side of the Predict page: a PredictWorker on a thread of its own, asked through
// typed queued calls (load a model, predict an image, play a video, move the model, capture and
// release graphs); its answers come back as this object's signals, on the GUI thread, so the
// window never waits on the engine. Remembers which model was asked for and which one is loaded.
#include <QImage>
#include <QObject>
#include <QString>
#include <QThread>

#include <vector>

#include "engine_metatypes.h"
#include "libreyolo/export.h"

class PredictWorker;

class PredictController : public QObject {
    Q_OBJECT
public:
    explicit PredictController(QObject* parent = nullptr);
    // Waits for the request in progress (a prediction, a video frame) to end.
    ~PredictController() override;

    QString modelRequest() const { return modelRequest_; }  // the name or file last asked to load
    // The model loaded, in words; empty while none is (no load has succeeded yet).
    QString modelDescription() const { return modelDescription_; }

    // A model that cannot be loaded leaves the one loaded before (if any) in use.
    void loadModel(const QString& nameOrPath, const QString& device);
    void predictFile(const QString& path, const libreyolo::PredictOptions& options);
    void playVideo(const QString& path, const libreyolo::PredictOptions& options);
    void stopVideo();
    void playLive(const QString& source, const libreyolo::PredictOptions& options, bool track);
    void stopLive();
    // The last image again, with other options; during a video, the options of the frames to come.
    void predictAgain(const libreyolo::PredictOptions& options);
    void moveModel(const QString& device);
    void captureGraph(int imgsz, int batch, const QString& dtype);
    void releaseGraphs();
    void exportModel(const libreyolo::ExportOptions& options);

Q_SIGNALS:
    // See PredictWorker's signals of the same names.
    void modelLoaded(const QString& description);
    void modelLoadFailed(const QString& nameOrPath, const QString& reason, bool previousKept);
    void predicted(const QImage& image, const libreyolo::Result& result);
    void predictionFailed(const QString& path, const QString& message);
    void failed(const QString& message);
    void graphsChanged(const std::vector<libreyolo::GraphInfo>& graphs);
    void exported(const QString& path, qulonglong bytes);
    void exportFailed(const QString& message);
    void videoFinished(const QString& path, int frames);
    void liveStarted(const QString& source);
    void liveStats(double fps, double frameMs, const QString& graphState);
    void liveFinished(const QString& source, int frames, const QString& reason);

private:
    QThread thread_;
    PredictWorker* worker_ = nullptr;
    QString modelRequest_;
    QString modelDescription_;
};
