#pragma once
// Runs the engine off the GUI thread. Lives in a QThread owned by a PredictController; requests
// arrive as queued calls and answers leave as signals, so the window never waits on the engine.
#include <QElapsedTimer>
#include <QImage>
#include <QObject>
#include <QString>
#include <memory>

#include "engine_metatypes.h"
#include "libreyolo/export.h"
#include "libreyolo/live_source.h"
#include "libreyolo/model.h"
#include "libreyolo/video.h"

class PredictWorker : public QObject {
    Q_OBJECT
public:
    explicit PredictWorker(QObject* parent = nullptr);
    ~PredictWorker() override;

    // The sentence a failed load of nameOrPath is reported with (reason: the engine's).
    static QString loadFailureMessage(const QString& nameOrPath, const QString& reason);

public Q_SLOTS:
    // A model that cannot be loaded leaves the one loaded before (if any) in use.
    void loadModel(const QString& nameOrPath, const QString& device);
    void predictFile(const QString& path, const libreyolo::PredictOptions& options);
    // The last image read, with other options (no second read of the file); during a video, the
    // options of the frames to come.
    void predictAgain(const libreyolo::PredictOptions& options);
    // Plays a video: each frame predicted and sent as predicted(), paced at the video's frame
    // rate (or as fast as prediction goes, when slower); the queue stays open between frames.
    void playVideo(const QString& path, const libreyolo::PredictOptions& options);
    void stopVideo();
    // Opens source (a camera index, a stream URL: live_source.h) and predicts its frames as they
    // come, always the newest (track: with track ids, ByteTrack, the options' conf as its first
    // stage's threshold); the queue stays open between frames. A source that cannot be opened
    // says why in predictionFailed, then liveFinished.
    void playLive(const QString& source, const libreyolo::PredictOptions& options, bool track);
    void stopLive();  // releases the camera or connection
    // Model::to, then says where the model is in modelLoaded (moved or, after a failure, not).
    void moveModel(const QString& device);
    void captureGraph(int imgsz, int batch, const QString& dtype);
    void releaseGraphs();
    // Writes the loaded model as an ONNX file (Model::export_onnx): exported, or exportFailed.
    void exportModel(const libreyolo::ExportOptions& options);

Q_SIGNALS:
    void exported(const QString& path, qulonglong bytes);  // path: absolute
    void exportFailed(const QString& message);
    void modelLoaded(const QString& description);
    // reason: the engine's; previousKept: the model loaded before is still in use.
    void modelLoadFailed(const QString& nameOrPath, const QString& reason, bool previousKept);
    void predicted(const QImage& image, const libreyolo::Result& result);
    // Nothing could be predicted for path (unreadable, no model, the engine refused): the view
    // must not keep showing an earlier image as if it were this one. With no model after a failed
    // load, message repeats that load's message, so the user sees one cause, not two.
    void predictionFailed(const QString& path, const QString& message);
    // A request other than a prediction failed (moving the model, capturing a graph).
    void failed(const QString& message);
    // The model's captured graphs, after every load, prediction, capture and release.
    void graphsChanged(const std::vector<libreyolo::GraphInfo>& graphs);
    void videoFinished(const QString& path, int frames);
    void liveStarted(const QString& source);
    // About once a second while a live source runs: frames predicted per second, milliseconds
    // per frame (read to result), and the CUDA-graph state in words.
    void liveStats(double fps, double frameMs, const QString& graphState);
    void liveFinished(const QString& source, int frames, const QString& reason);

private:
    void reportGraphs();
    void describeModel();
    void playNextFrame(int generation);
    void liveNextFrame(int generation);
    void finishLive(const QString& reason);
    QString graphState(const libreyolo::PredictOptions& options) const;
    QString noModelMessage() const;                               // why there is no model
    void predictImage(const libreyolo::PredictOptions& options);  // image_, with a model

    std::unique_ptr<libreyolo::Model> model_;
    QString loadError_;  // the message of the load that left no model; empty while one is loaded
    QString path_;
    QImage image_;  // RGB888, as read from path_; null when path_ could not be read
    std::unique_ptr<libreyolo::VideoFrames> video_;
    libreyolo::PredictOptions videoOptions_;
    int videoGeneration_ = 0;  // a frame scheduled for an earlier video does nothing
    std::unique_ptr<libreyolo::LiveSource> live_;
    libreyolo::PredictOptions liveOptions_;
    bool liveTrack_ = false;
    int liveGeneration_ = 0;  // as videoGeneration_, for live sources
    int liveFrames_ = 0;
    int windowFrames_ = 0;  // frames and time since the last liveStats
    double windowMs_ = 0;
    QElapsedTimer window_;
};
