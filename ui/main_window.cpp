#include "main_window.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMimeData>
#include <QSaveFile>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <vector>

#include "graphs_page.h"
#include "kernels_page.h"
#include "libreyolo/version.h"
#include "libreyolo/video.h"
#include "predict_controls.h"
#include "predict_worker.h"
#include "prediction_view.h"
#include "settings_page.h"
#include "studio_settings.h"
#include "thumbnail_loader.h"
#include "train_page.h"

namespace {

bool isImageFile(const QFileInfo& file) {
    static const QStringList suffixes = {"png", "jpg", "jpeg", "bmp", "webp", "ppm", "tif", "tiff"};
    return file.isFile() && suffixes.contains(file.suffix().toLower());
}

}  // namespace

MainWindow::MainWindow(const QString& model, const QString& device, QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<libreyolo::Result>();
    qRegisterMetaType<libreyolo::PredictOptions>();
    qRegisterMetaType<std::vector<libreyolo::GraphInfo>>();
    setWindowTitle(tr("LibreYOLO Studio"));
    setAcceptDrops(true);
    pages_ = new QTabWidget(this);
    predictPage_ = new QWidget(pages_);
    controls_ = new PredictControls(predictPage_);
    controls_->setDevice(device);
    view_ = new PredictionView(predictPage_);
    thumbnails_ = new QListWidget(predictPage_);
    thumbnails_->setViewMode(QListView::IconMode);
    thumbnails_->setFlow(QListView::LeftToRight);
    thumbnails_->setWrapping(false);
    thumbnails_->setIconSize({ThumbnailLoader::kSize, ThumbnailLoader::kSize});
    // Every cell the size of a full preview and its name, before the previews arrive.
    thumbnails_->setGridSize({ThumbnailLoader::kSize + 24, ThumbnailLoader::kSize + 28});
    thumbnails_->setFixedHeight(ThumbnailLoader::kSize + 48);
    thumbnails_->setMovement(QListView::Static);
    thumbnails_->setTextElideMode(Qt::ElideMiddle);
    thumbnails_->hide();
    connect(thumbnails_, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) openImage(thumbnails_->item(row)->data(Qt::UserRole).toString());
    });
    auto* predictLayout = new QVBoxLayout(predictPage_);
    predictLayout->setContentsMargins(0, 0, 0, 0);
    predictLayout->addWidget(controls_);
    predictLayout->addWidget(view_, 1);
    predictLayout->addWidget(thumbnails_);
    connect(controls_, &PredictControls::changed, this, [this] {
        if (lastPath_.isEmpty()) return;
        resultLabel_->setText(tr("predicting %1…").arg(lastPath_));
        QMetaObject::invokeMethod(worker_, "predictAgain", Qt::QueuedConnection,
                                  Q_ARG(libreyolo::PredictOptions, controls_->options()));
    });
    trainPage_ = new TrainPage(pages_);
    pages_->addTab(predictPage_, tr("Predict"));
    pages_->addTab(trainPage_, tr("Train"));
    graphsPage_ = new GraphsPage(pages_);
    pages_->addTab(graphsPage_, tr("Graphs"));
    connect(trainPage_, &TrainPage::graphStateChanged, graphsPage_, &GraphsPage::setTrainingState);
    kernelsPage_ = new KernelsPage(pages_);
    pages_->addTab(kernelsPage_, tr("Kernels"));
    settingsPage_ = new SettingsPage(pages_);
    pages_->addTab(settingsPage_, tr("Settings"));
    controls_->setGraphMode(StudioSettings().graphMode());
    connect(settingsPage_, &SettingsPage::graphModeChanged, controls_, &PredictControls::setGraphMode);
    setCentralWidget(pages_);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open images…"), QKeySequence::Open, this, &MainWindow::openImagesDialog);
    file->addAction(tr("Open &folder…"), this, &MainWindow::openFolderDialog);
    file->addAction(tr("&Save results…"), QKeySequence::Save, this, &MainWindow::saveResultsDialog);
    file->addAction(tr("S&top video"), QKeySequence(Qt::Key_Escape), this, &MainWindow::stopVideo);
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    modelLabel_ = new QLabel(tr("loading model…"), this);
    resultLabel_ = new QLabel(this);
    statusBar()->addWidget(modelLabel_, 1);
    statusBar()->addPermanentWidget(resultLabel_);
    statusBar()->addPermanentWidget(new QLabel(
        QString("LibTorch %1 · CUDA %2")
            .arg(QString::fromStdString(libreyolo::torch_version()), QString::fromStdString(libreyolo::cuda_version())),
        this));

    worker_ = new PredictWorker;
    worker_->moveToThread(&workerThread_);
    connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &PredictWorker::modelLoaded, modelLabel_, &QLabel::setText);
    connect(worker_, &PredictWorker::failed, this, &MainWindow::showError);
    connect(worker_, &PredictWorker::predicted, this, &MainWindow::showResult);
    connect(worker_, &PredictWorker::graphsChanged, graphsPage_, &GraphsPage::setGraphs);
    connect(worker_, &PredictWorker::videoFinished, this, [this](const QString& path, int frames) {
        statusBar()->showMessage(tr("%1: %n frame(s) predicted", nullptr, frames).arg(path), 10000);
        Q_EMIT videoFinished(frames);
    });
    connect(graphsPage_, &GraphsPage::captureRequested, worker_, &PredictWorker::captureGraph, Qt::QueuedConnection);
    connect(graphsPage_, &GraphsPage::releaseRequested, worker_, &PredictWorker::releaseGraphs, Qt::QueuedConnection);
    connect(controls_, &PredictControls::deviceChanged, this, [this](const QString& device) {
        modelLabel_->setText(tr("moving the model to %1…").arg(device));
        QMetaObject::invokeMethod(worker_, "moveModel", Qt::QueuedConnection, Q_ARG(QString, device));
        QMetaObject::invokeMethod(worker_, "predictAgain", Qt::QueuedConnection,
                                  Q_ARG(libreyolo::PredictOptions, controls_->options()));
    });
    workerThread_.start();
    QMetaObject::invokeMethod(worker_, "loadModel", Qt::QueuedConnection, Q_ARG(QString, model),
                              Q_ARG(QString, device));

    thumbnailLoader_ = new ThumbnailLoader;
    thumbnailLoader_->moveToThread(&thumbnailThread_);
    connect(&thumbnailThread_, &QThread::finished, thumbnailLoader_, &QObject::deleteLater);
    connect(thumbnailLoader_, &ThumbnailLoader::loaded, this, [this](int generation, int index, const QImage& image) {
        if (generation != thumbnailGeneration_ || index >= thumbnails_->count()) return;
        thumbnails_->item(index)->setIcon(QIcon(QPixmap::fromImage(image)));
        Q_EMIT thumbnailShown(index);
    });
    thumbnailThread_.start();
}

MainWindow::~MainWindow() {
    thumbnailLoader_->supersede(-1);
    thumbnailThread_.quit();
    thumbnailThread_.wait();
    workerThread_.quit();
    workerThread_.wait();
}

void MainWindow::showResult(const QImage& image, const libreyolo::Result& result) {
    view_->setPrediction(image, result);
    if (result.frame < 0) results_.insert(QString::fromStdString(result.path), result);  // videos are not saved
    const libreyolo::Speed& s = result.speed;
    QString text =
        tr("%n detection(s) · %1 / %2 / %3 ms pre / inference / post", nullptr, static_cast<int>(result.boxes.size()))
            .arg(s.preprocess_ms, 0, 'f', 1)
            .arg(s.inference_ms, 0, 'f', 1)
            .arg(s.postprocess_ms, 0, 'f', 1);
    if (result.frame >= 0) text = tr("frame %1 · %2").arg(result.frame + 1).arg(text);
    resultLabel_->setText(text);
    for (int i = 0; i < thumbnails_->count(); ++i)
        if (thumbnails_->item(i)->data(Qt::UserRole).toString() == QString::fromStdString(result.path))
            thumbnails_->item(i)->setToolTip(
                tr("%1\n%n detection(s), %2 ms", nullptr, static_cast<int>(result.boxes.size()))
                    .arg(QString::fromStdString(result.path))
                    .arg(s.preprocess_ms + s.inference_ms + s.postprocess_ms, 0, 'f', 1));
    Q_EMIT predictionShown(static_cast<int>(result.boxes.size()));
}

void MainWindow::openImage(const QString& path) {
    pages_->setCurrentWidget(predictPage_);
    lastPath_ = path;
    const bool video = libreyolo::VideoFrames::is_video_file(path.toStdString());
    resultLabel_->setText((video ? tr("playing %1…") : tr("predicting %1…")).arg(path));
    QMetaObject::invokeMethod(worker_, video ? "playVideo" : "predictFile", Qt::QueuedConnection, Q_ARG(QString, path),
                              Q_ARG(libreyolo::PredictOptions, controls_->options()));
}

void MainWindow::stopVideo() {
    QMetaObject::invokeMethod(worker_, "stopVideo", Qt::QueuedConnection);
}

QStringList MainWindow::imageFiles(const QStringList& paths) {
    QStringList files;
    for (const QString& path : paths) {
        const QFileInfo info(path);
        if (info.isDir()) {
            QFileInfoList entries = QDir(path).entryInfoList(QDir::Files, QDir::Name);
            for (const QFileInfo& entry : entries)
                if (isImageFile(entry)) files << entry.filePath();
        } else if (isImageFile(info)) {
            files << info.filePath();
        }
    }
    return files;
}

void MainWindow::openPaths(const QStringList& paths) {
    const QStringList files = imageFiles(paths);
    if (files.isEmpty()) {
        for (const QString& path : paths)
            if (libreyolo::VideoFrames::is_video_file(path.toStdString())) {
                thumbnails_->hide();
                openImage(path);  // plays it
                return;
            }
        showError(tr("No image among %1").arg(paths.join(", ")));
        return;
    }
    thumbnailLoader_->supersede(++thumbnailGeneration_);
    {
        const QSignalBlocker quiet(thumbnails_);
        thumbnails_->clear();
        for (const QString& f : files) {
            auto* item = new QListWidgetItem(QFileInfo(f).fileName(), thumbnails_);
            item->setData(Qt::UserRole, f);
            item->setToolTip(f);
        }
    }
    thumbnails_->setVisible(files.size() > 1);
    QMetaObject::invokeMethod(thumbnailLoader_, "load", Qt::QueuedConnection, Q_ARG(int, thumbnailGeneration_),
                              Q_ARG(QStringList, files));
    thumbnails_->setCurrentRow(0);  // predicts the first
}

void MainWindow::openImagesDialog() {
    const QStringList paths =
        QFileDialog::getOpenFileNames(this, tr("Open images or a video"), QString(),
                                      tr("Images and videos (*.png *.jpg *.jpeg *.bmp *.webp *.ppm *.mp4 *.avi "
                                         "*.mov *.mkv *.webm)"));
    if (!paths.isEmpty()) openPaths(paths);
}

void MainWindow::openFolderDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of images"));
    if (!dir.isEmpty()) openPaths({dir});
}

int MainWindow::saveResults(const QString& folder, QString* error) {
    const auto fail = [&](const QString& message) {
        if (error) *error = message;
        return -1;
    };
    if (!QDir().mkpath(folder)) return fail(tr("Cannot create folder %1").arg(folder));
    std::vector<libreyolo::Result> all;
    int written = 0;
    for (auto it = results_.cbegin(); it != results_.cend(); ++it) {
        all.push_back(it.value());
        QImageReader reader(it.key());
        reader.setAutoTransform(false);
        const QImage image = reader.read();
        if (image.isNull()) continue;  // moved or deleted since: its JSON entry is still written
        QSaveFile out(QDir(folder).filePath(QFileInfo(it.key()).completeBaseName() + ".png"));
        if (!out.open(QIODevice::WriteOnly) || !PredictionView::annotated(image, it.value()).save(&out, "PNG") ||
            !out.commit())
            return fail(tr("Cannot write %1: %2").arg(out.fileName(), out.errorString()));
        ++written;
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    QSaveFile json(QDir(folder).filePath("predictions.json"));
    const std::string text = libreyolo::to_json(all);
    if (!json.open(QIODevice::WriteOnly) || json.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !json.commit())
        return fail(tr("Cannot write %1: %2").arg(json.fileName(), json.errorString()));
    return written;
}

void MainWindow::saveResultsDialog() {
    if (results_.isEmpty()) {
        showError(tr("Nothing to save yet: predict an image first"));
        return;
    }
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Save results into"));
    if (folder.isEmpty()) return;
    QString error;
    const int written = saveResults(folder, &error);
    if (written < 0)
        showError(error);
    else
        statusBar()->showMessage(
            tr("Saved %n annotated image(s) and predictions.json to %1", nullptr, written).arg(folder), 10000);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) paths << url.toLocalFile();
    if (!paths.isEmpty()) openPaths(paths);
}

void MainWindow::showError(const QString& message) {
    resultLabel_->setText(message);
    statusBar()->showMessage(message, 10000);
    Q_EMIT errorShown(message);
}
