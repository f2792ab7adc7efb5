#include "main_window.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageReader>
#include <QLabel>
#include <QListWidget>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSaveFile>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cstdio>
#include <vector>

#include "cuda_gate.h"
#include "elided_label.h"
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

// What LibTorch runs on here: its version, and the GPUs it sees ("no GPU" rather than the CUDA it
// was built with, which says nothing about this machine).
QString engineSummary() {
    const QString torch = QString::fromStdString(libreyolo::torch_version());
    if (!cuda_gate::available()) return MainWindow::tr("LibTorch %1 · no GPU").arg(torch);
    return MainWindow::tr("LibTorch %1 · CUDA %2 · %n GPU(s)", nullptr, cuda_gate::deviceCount())
        .arg(torch, QString::fromStdString(libreyolo::cuda_version()));
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
        resultLabel_->setFullText(tr("predicting %1…").arg(lastPath_));
        QMetaObject::invokeMethod(
            worker_, [worker = worker_, options = controls_->options()] { worker->predictAgain(options); },
            Qt::QueuedConnection);
    });
    trainPage_ = new TrainPage(pages_);
    pages_->addTab(predictPage_, tr("Predict"));
    pages_->addTab(trainPage_, tr("Train"));
    graphsPage_ = new GraphsPage(pages_);
    pages_->addTab(graphsPage_, tr("Graphs"));
    connect(trainPage_, &TrainPage::graphStateChanged, graphsPage_, &GraphsPage::setTrainingState);
    connect(trainPage_, &TrainPage::runFinished, this,
            [this](const QString& saveDir, bool) { lastRunWeights_ = QDir(saveDir).filePath("weights"); });
    kernelsPage_ = new KernelsPage(pages_);
    pages_->addTab(kernelsPage_, tr("Kernels"));
    settingsPage_ = new SettingsPage(pages_);
    pages_->addTab(settingsPage_, tr("Settings"));
    controls_->setGraphMode(StudioSettings().graphMode());
    connect(settingsPage_, &SettingsPage::graphModeChanged, controls_, &PredictControls::setGraphMode);
    setCentralWidget(pages_);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open images…"), QKeySequence::Open, this, &MainWindow::openImagesDialog);
    file->addAction(tr("Open &model…"), this, &MainWindow::openModelDialog);
    file->addAction(tr("Open &folder…"), this, &MainWindow::openFolderDialog);
    file->addAction(tr("&Save results…"), QKeySequence::Save, this, &MainWindow::saveResultsDialog);
    file->addAction(tr("S&top video"), QKeySequence(Qt::Key_Escape), this, &MainWindow::stopVideo);
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);

    // Paths cut in the middle keep the file name; results and errors keep their start. The
    // margins keep one field from running into the next.
    modelLabel_ = new ElidedLabel(Qt::ElideMiddle, this);
    resultLabel_ = new ElidedLabel(Qt::ElideRight, this);
    auto* engineLabel = new QLabel(engineSummary(), this);
    for (QLabel* field : {static_cast<QLabel*>(modelLabel_), static_cast<QLabel*>(resultLabel_), engineLabel})
        field->setContentsMargins(6, 0, 6, 0);
    statusBar()->addWidget(modelLabel_, 1);
    statusBar()->addPermanentWidget(resultLabel_, 1);
    statusBar()->addPermanentWidget(engineLabel);

    worker_ = new PredictWorker;
    worker_->moveToThread(&workerThread_);
    connect(&workerThread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(worker_, &PredictWorker::modelLoaded, this, &MainWindow::showModel);
    connect(worker_, &PredictWorker::modelLoadFailed, this, &MainWindow::reportModelLoadFailure);
    connect(worker_, &PredictWorker::failed, this, &MainWindow::showError);
    connect(worker_, &PredictWorker::predicted, this, &MainWindow::showResult);
    connect(worker_, &PredictWorker::predictionFailed, this, &MainWindow::showPredictionFailure);
    connect(worker_, &PredictWorker::graphsChanged, graphsPage_, &GraphsPage::setGraphs);
    connect(worker_, &PredictWorker::videoFinished, this, [this](const QString& path, int frames) {
        statusBar()->showMessage(tr("%1: %n frame(s) predicted", nullptr, frames).arg(path), 10000);
        Q_EMIT videoFinished(frames);
    });
    connect(graphsPage_, &GraphsPage::captureRequested, worker_, &PredictWorker::captureGraph, Qt::QueuedConnection);
    connect(graphsPage_, &GraphsPage::releaseRequested, worker_, &PredictWorker::releaseGraphs, Qt::QueuedConnection);
    connect(controls_, &PredictControls::deviceChanged, this, [this](const QString& device) {
        // No model (its load failed, perhaps on the device just replaced): load it on this one.
        if (modelDescription_.isEmpty()) {
            openModel(modelRequest_);
            return;
        }
        modelLabel_->setFullText(tr("moving the model to %1…").arg(device));
        QMetaObject::invokeMethod(
            worker_,
            [worker = worker_, device, options = controls_->options()] {
                worker->moveModel(device);
                worker->predictAgain(options);
            },
            Qt::QueuedConnection);
    });
    workerThread_.start();
    openModel(model);

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

QString MainWindow::modelStatus() const {
    return modelLabel_->fullText();
}

QString MainWindow::resultStatus() const {
    return resultLabel_->fullText();
}

void MainWindow::openModel(const QString& nameOrPath) {
    modelRequest_ = nameOrPath;
    modelLabel_->setFullText(tr("loading %1…").arg(nameOrPath));
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, nameOrPath, device = controls_->device()] { worker->loadModel(nameOrPath, device); },
        Qt::QueuedConnection);
    if (lastPath_.isEmpty()) return;
    resultLabel_->setFullText(tr("predicting %1…").arg(lastPath_));
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, options = controls_->options()] { worker->predictAgain(options); },
        Qt::QueuedConnection);
}

void MainWindow::openModelDialog() {
    // The weights of the run just trained are the likeliest choice.
    const QString folder = lastRunWeights_.isEmpty() ? QFileInfo(modelRequest_).path() : lastRunWeights_;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open model weights"), folder, tr("Weights (*.safetensors *.pt)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::showModel(const QString& description) {
    modelDescription_ = description;
    modelLabel_->setFullText(description);
}

void MainWindow::reportModelLoadFailure(const QString& nameOrPath, const QString& reason, bool previousKept) {
    const QString message = PredictWorker::loadFailureMessage(nameOrPath, reason);
    if (previousKept)
        modelLabel_->setFullText(modelDescription_);
    else
        modelLabel_->setFullText(tr("no model: %1").arg(reason));
    showBlockingError(tr("Cannot load the model"),
                      previousKept ? tr("%1\n\nStill using %2.").arg(message, modelDescription_) : message);
    Q_EMIT modelLoadFailed(message);
    showError(message);
}

void MainWindow::showResult(const QImage& image, const libreyolo::Result& result) {
    view_->setPrediction(image, result);
    statusBar()->clearMessage();
    if (result.frame < 0) results_.insert(QString::fromStdString(result.path), result);  // videos are not saved
    const libreyolo::Speed& s = result.speed;
    QString text =
        tr("%n detection(s) · %1 / %2 / %3 ms pre / inference / post", nullptr, static_cast<int>(result.boxes.size()))
            .arg(s.preprocess_ms, 0, 'f', 1)
            .arg(s.inference_ms, 0, 'f', 1)
            .arg(s.postprocess_ms, 0, 'f', 1);
    if (result.frame >= 0) text = tr("frame %1 · %2").arg(result.frame + 1).arg(text);
    resultLabel_->setFullText(text);
    for (int i = 0; i < thumbnails_->count(); ++i)
        if (thumbnails_->item(i)->data(Qt::UserRole).toString() == QString::fromStdString(result.path))
            thumbnails_->item(i)->setToolTip(
                tr("%1\n%n detection(s), %2 ms", nullptr, static_cast<int>(result.boxes.size()))
                    .arg(QString::fromStdString(result.path))
                    .arg(s.preprocess_ms + s.inference_ms + s.postprocess_ms, 0, 'f', 1));
    Q_EMIT predictionShown(static_cast<int>(result.boxes.size()));
}

void MainWindow::showPredictionFailure(const QString& path, const QString& message) {
    view_->showFailure(message);
    for (int i = 0; i < thumbnails_->count(); ++i)
        if (thumbnails_->item(i)->data(Qt::UserRole).toString() == path)
            thumbnails_->item(i)->setToolTip(QString("%1\n%2").arg(path, message));
    showError(message);
}

void MainWindow::openImage(const QString& path) {
    pages_->setCurrentWidget(predictPage_);
    lastPath_ = path;
    const bool video = libreyolo::VideoFrames::is_video_file(path.toStdString());
    resultLabel_->setFullText((video ? tr("playing %1…") : tr("predicting %1…")).arg(path));
    QMetaObject::invokeMethod(
        worker_,
        [worker = worker_, path, video, options = controls_->options()] {
            if (video)
                worker->playVideo(path, options);
            else
                worker->predictFile(path, options);
        },
        Qt::QueuedConnection);
}

void MainWindow::stopVideo() {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_] { worker->stopVideo(); }, Qt::QueuedConnection);
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
    QMetaObject::invokeMethod(
        thumbnailLoader_,
        [loader = thumbnailLoader_, generation = thumbnailGeneration_, files] { loader->load(generation, files); },
        Qt::QueuedConnection);
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
        showBlockingError(tr("Cannot save the results"), error);
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

// In the result field, elided, whole in its tooltip; not as a status-bar message, which the
// permanent fields would cut and which would outlive the next success.
void MainWindow::showError(const QString& message) {
    resultLabel_->setFullText(message);
    Q_EMIT errorShown(message);
}

void MainWindow::showBlockingError(const QString& title, const QString& message) {
    const QString line = QString(message).replace(QLatin1Char('\n'), QLatin1Char(' '));
    std::fprintf(stderr, "libreyolo-studio: %s\n", line.toLocal8Bit().constData());
    std::fflush(stderr);
    if (!errorDialog_) errorDialog_ = new QMessageBox(QMessageBox::Critical, title, message, QMessageBox::Ok, this);
    errorDialog_->setWindowTitle(title);
    errorDialog_->setText(message);
    // open(), not exec(): the window (and its worker, and a test driving it) keeps running.
    errorDialog_->open();
}
