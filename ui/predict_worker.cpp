#include "predict_worker.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QImageReader>
#include <QTimer>

#include <algorithm>

#include "libreyolo/track.h"

PredictWorker::PredictWorker(QObject* parent) : QObject(parent) {}
PredictWorker::~PredictWorker() = default;

QString PredictWorker::loadFailureMessage(const QString& nameOrPath, const QString& reason) {
    return tr("Cannot load model %1: %2").arg(nameOrPath, reason);
}

void PredictWorker::loadModel(const QString& nameOrPath, const QString& device) {
    try {
        auto loaded =
            std::make_unique<libreyolo::Model>(libreyolo::Model::load(nameOrPath.toStdString(), device.toStdString()));
        model_ = std::move(loaded);
        loadError_.clear();
        describeModel();
    } catch (const std::exception& e) {
        const QString reason = QString::fromUtf8(e.what());
        if (!model_) loadError_ = loadFailureMessage(nameOrPath, reason);
        Q_EMIT modelLoadFailed(nameOrPath, reason, model_ != nullptr);
    }
    reportGraphs();
}

void PredictWorker::describeModel() {
    const libreyolo::ModelInfo info = model_->info();
    QString description = QString("%1-%2 · %3 · %4")
                              .arg(QString::fromStdString(info.family), QString::fromStdString(info.size),
                                   QString::fromStdString(info.device), QString::fromStdString(info.source));
    if (!info.pretrained) description += tr(" (random weights: detections are meaningless)");
    Q_EMIT modelLoaded(description);
}

void PredictWorker::moveModel(const QString& device) {
    if (!model_) {
        Q_EMIT failed(noModelMessage());
        return;
    }
    try {
        model_->to(device.toStdString());
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot move the model to %1: %2").arg(device, QString::fromUtf8(e.what())));
    }
    describeModel();  // where it is now, moved or not: the window said "moving…"
    reportGraphs();
}

QString PredictWorker::noModelMessage() const {
    return loadError_.isEmpty() ? tr("No model is loaded") : loadError_;
}

void PredictWorker::predictFile(const QString& path, const libreyolo::PredictOptions& options) {
    stopVideo();
    stopLive();
    QImageReader reader(path);
    reader.setAutoTransform(false);  // the engine sees the stored pixels, so must the view
    // Read even without a model: a model opened later predicts it (predictAgain).
    path_ = path;
    image_ = reader.read().convertToFormat(QImage::Format_RGB888);
    if (image_.isNull()) {
        Q_EMIT predictionFailed(path, tr("Cannot read image %1: %2").arg(path, reader.errorString()));
        return;
    }
    if (!model_) {
        Q_EMIT predictionFailed(path, noModelMessage());
        return;
    }
    predictImage(options);
}

void PredictWorker::predictAgain(const libreyolo::PredictOptions& options) {
    if (live_) {
        liveOptions_ = options;
        return;
    }
    if (video_) {
        videoOptions_ = options;
        return;
    }
    if (image_.isNull()) return;
    if (!model_) {
        Q_EMIT predictionFailed(path_, noModelMessage());
        return;
    }
    predictImage(options);
}

void PredictWorker::playVideo(const QString& path, const libreyolo::PredictOptions& options) {
    stopVideo();
    stopLive();
    path_ = path;
    image_ = QImage();
    if (!model_) {
        Q_EMIT predictionFailed(path, noModelMessage());
        return;
    }
    try {
        video_ = std::make_unique<libreyolo::VideoFrames>(path.toStdString());
    } catch (const std::exception& e) {
        Q_EMIT predictionFailed(path, tr("Cannot play %1: %2").arg(path, QString::fromUtf8(e.what())));
        return;
    }
    videoOptions_ = options;
    playNextFrame(videoGeneration_);
}

void PredictWorker::stopVideo() {
    ++videoGeneration_;
    if (!video_) return;
    const int frames = video_->frames_read();
    video_.reset();
    Q_EMIT videoFinished(path_, frames);
}

void PredictWorker::playNextFrame(int generation) {
    if (generation != videoGeneration_ || !video_) return;
    QElapsedTimer clock;
    clock.start();
    std::vector<unsigned char> rgb;
    int width = 0, height = 0;
    if (!video_->next(rgb, width, height)) {
        stopVideo();
        return;
    }
    image_ = QImage(rgb.data(), width, height, width * 3, QImage::Format_RGB888).copy();
    predictImage(videoOptions_);
    if (!video_) return;  // the prediction failed and said so
    const int due = static_cast<int>(1000.0 / video_->fps()) - static_cast<int>(clock.elapsed());
    QTimer::singleShot(std::max(0, due), this, [this, generation] { playNextFrame(generation); });
}

void PredictWorker::playLive(const QString& source, const libreyolo::PredictOptions& options, bool track) {
    stopVideo();
    stopLive();
    if (!model_) {
        Q_EMIT predictionFailed(source, noModelMessage());
        Q_EMIT liveFinished(source, 0, noModelMessage());
        return;
    }
    try {
        live_ = std::make_unique<libreyolo::LiveSource>(source.toStdString());
    } catch (const std::exception& e) {
        const QString why = QString::fromUtf8(e.what());
        Q_EMIT predictionFailed(source, tr("Cannot open %1: %2").arg(source, why));
        Q_EMIT liveFinished(source, 0, why);
        return;
    }
    path_ = source;
    liveOptions_ = options;
    liveTrack_ = track;
    liveFrames_ = windowFrames_ = 0;
    windowMs_ = 0;
    window_.start();
    Q_EMIT liveStarted(source);
    const int generation = liveGeneration_;
    QTimer::singleShot(0, this, [this, generation] { liveNextFrame(generation); });
}

void PredictWorker::stopLive() {
    ++liveGeneration_;
    if (live_) finishLive(tr("stopped"));
}

void PredictWorker::finishLive(const QString& reason) {
    ++liveGeneration_;
    live_.reset();  // joins the capture thread: the camera is free again
    Q_EMIT liveFinished(path_, liveFrames_, reason);
}

QString PredictWorker::graphState(const libreyolo::PredictOptions& options) const {
    if (options.cuda_graph == libreyolo::GraphMode::Off) return tr("CUDA graph off");
    std::int64_t replays = 0;
    const std::vector<libreyolo::GraphInfo> graphs = model_->graph_info();
    for (const auto& g : graphs) replays += g.replays;
    if (graphs.empty()) return tr("CUDA graph: not captured yet");
    return tr("CUDA graph: %n captured, %1 replays", nullptr, static_cast<int>(graphs.size())).arg(replays);
}

void PredictWorker::liveNextFrame(int generation) {
    if (generation != liveGeneration_ || !live_) return;
    libreyolo::LiveFrame frame;
    const libreyolo::LiveSource::Next got = live_->next(frame, 20);
    if (got == libreyolo::LiveSource::Next::Ended) {
        const std::string why = live_->end_reason();
        finishLive(why.empty() ? tr("the source ended") : QString::fromStdString(why));
        return;
    }
    if (got == libreyolo::LiveSource::Next::Frame) {
        QElapsedTimer clock;
        clock.start();
        image_ = QImage(frame.rgb.data(), frame.width, frame.height, frame.width * 3, QImage::Format_RGB888).copy();
        try {
            const libreyolo::ImageView view{image_.constBits(), image_.width(), image_.height(),
                                            static_cast<int>(image_.bytesPerLine()), libreyolo::PixelFormat::RGB8};
            std::vector<libreyolo::Result> results;
            if (liveTrack_) {
                libreyolo::TrackOptions t;
                t.predict = liveOptions_;
                t.predict.conf = -1.0f;  // the detector at the tracker's low threshold
                t.track_conf = liveOptions_.conf;
                t.persist = liveFrames_ > 0;  // a fresh tracker for each start
                results = model_->track(std::vector<libreyolo::ImageView>{view}, t);
            } else {
                results = model_->predict(std::vector<libreyolo::ImageView>{view}, liveOptions_);
            }
            results.front().path = path_.toStdString();
            results.front().frame = static_cast<int>(frame.index);
            ++liveFrames_;
            Q_EMIT predicted(image_, results.front());
        } catch (const std::exception& e) {
            Q_EMIT predictionFailed(path_, tr("Prediction failed on %1: %2").arg(path_, QString::fromUtf8(e.what())));
            finishLive(QString::fromUtf8(e.what()));
            return;
        }
        ++windowFrames_;
        windowMs_ += static_cast<double>(clock.nsecsElapsed()) / 1e6;
        if (window_.elapsed() >= 1000) {
            Q_EMIT liveStats(windowFrames_ * 1000.0 / static_cast<double>(window_.elapsed()), windowMs_ / windowFrames_,
                             graphState(liveOptions_));
            if (liveOptions_.cuda_graph != libreyolo::GraphMode::Off) reportGraphs();
            windowFrames_ = 0;
            windowMs_ = 0;
            window_.restart();
        }
    }
    // Through the event queue: a stop or an options change between two frames is seen at once.
    QTimer::singleShot(0, this, [this, generation] { liveNextFrame(generation); });
}

void PredictWorker::predictImage(const libreyolo::PredictOptions& options) {
    try {
        libreyolo::ImageView view{image_.constBits(), image_.width(), image_.height(),
                                  static_cast<int>(image_.bytesPerLine()), libreyolo::PixelFormat::RGB8};
        std::vector<libreyolo::Result> results = model_->predict(std::vector<libreyolo::ImageView>{view}, options);
        results.front().path = path_.toStdString();
        if (video_) results.front().frame = video_->frames_read() - 1;
        Q_EMIT predicted(image_, results.front());
    } catch (const std::exception& e) {
        Q_EMIT predictionFailed(path_, tr("Prediction failed on %1: %2").arg(path_, QString::fromUtf8(e.what())));
        stopVideo();
    }
    // Only a graph mode captures or replays: eager predictions (every video frame among them)
    // leave the table as it is.
    if (options.cuda_graph != libreyolo::GraphMode::Off) reportGraphs();
}

void PredictWorker::captureGraph(int imgsz, int batch, const QString& dtype) {
    if (!model_) {
        Q_EMIT failed(noModelMessage());
        return;
    }
    try {
        model_->capture_graph(imgsz, batch, dtype.toStdString());
    } catch (const std::exception& e) {
        Q_EMIT failed(tr("Cannot capture a graph: %1").arg(QString::fromUtf8(e.what())));
    }
    reportGraphs();
}

void PredictWorker::releaseGraphs() {
    if (!model_) return;  // nothing captured, nothing to release
    model_->release_graphs();
    reportGraphs();
}

void PredictWorker::exportModel(const libreyolo::ExportOptions& options) {
    if (!model_) {
        Q_EMIT exportFailed(noModelMessage());
        return;
    }
    try {
        const libreyolo::ExportResult r = model_->export_onnx(options);
        Q_EMIT exported(QFileInfo(QString::fromStdString(r.path)).absoluteFilePath(), r.bytes);
    } catch (const std::exception& e) {
        Q_EMIT exportFailed(QString::fromUtf8(e.what()));
    }
}

void PredictWorker::reportGraphs() {
    Q_EMIT graphsChanged(model_ ? model_->graph_info() : std::vector<libreyolo::GraphInfo>{});
}
