#pragma once
// Runs the engine off the GUI thread. Lives in a QThread owned by MainWindow; requests arrive as
// queued calls and answers leave as signals, so the window never waits on the engine.
#include <QImage>
#include <QObject>
#include <QString>
#include <memory>

#include "engine_metatypes.h"
#include "libreyolo/model.h"
#include "libreyolo/video.h"

class PredictWorker : public QObject {
    Q_OBJECT
public:
    explicit PredictWorker(QObject* parent = nullptr);
    ~PredictWorker() override;

public Q_SLOTS:
    void loadModel(const QString& nameOrPath, const QString& device);
    void predictFile(const QString& path, const libreyolo::PredictOptions& options);
    // The last image read, with other options (no second read of the file); during a video, the
    // options of the frames to come.
    void predictAgain(const libreyolo::PredictOptions& options);
    // Plays a video: each frame predicted and sent as predicted(), paced at the video's frame
    // rate (or as fast as prediction goes, when slower); the queue stays open between frames.
    void playVideo(const QString& path, const libreyolo::PredictOptions& options);
    void stopVideo();
    void moveModel(const QString& device);  // Model::to, then says which device in modelLoaded
    void captureGraph(int imgsz, int batch, const QString& dtype);
    void releaseGraphs();

Q_SIGNALS:
    void modelLoaded(const QString& description);
    void predicted(const QImage& image, const libreyolo::Result& result);
    void failed(const QString& message);
    // The model's captured graphs, after every load, prediction, capture and release.
    void graphsChanged(const std::vector<libreyolo::GraphInfo>& graphs);
    void videoFinished(const QString& path, int frames);

private:
    void reportGraphs();
    void describeModel();
    void playNextFrame(int generation);
    bool modelReady();                                            // says so when no model is loaded
    void predictImage(const libreyolo::PredictOptions& options);  // image_, with a model

    std::unique_ptr<libreyolo::Model> model_;
    QString path_;
    QImage image_;  // RGB888, as read from path_
    std::unique_ptr<libreyolo::VideoFrames> video_;
    libreyolo::PredictOptions videoOptions_;
    int videoGeneration_ = 0;  // a frame scheduled for an earlier video does nothing
};
