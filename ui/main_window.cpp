#include "main_window.h"

#include <QDir>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <cstdio>

#include "cuda_gate.h"
#include "elided_label.h"
#include "export_dialog.h"
#include "graphs_page.h"
#include "image_strip.h"
#include "kernels_page.h"
#include "libreyolo/version.h"
#include "live_bar.h"
#include "media_paths.h"
#include "model_picker.h"
#include "predict_controller.h"
#include "predict_controls.h"
#include "predict_worker.h"
#include "prediction_view.h"
#include "pretrained_catalog.h"
#include "settings_page.h"
#include "studio_settings.h"
#include "train_page.h"
#include "weights_download.h"

namespace {

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
    setWindowTitle(tr("LibreYOLO Studio"));
    setAcceptDrops(true);
    predictor_ = new PredictController(this);
    pages_ = new QTabWidget(this);
    buildPredictPage();
    controls_->setDevice(device);
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
    controls_->setFuse(StudioSettings().fuse());
    connect(settingsPage_, &SettingsPage::fuseChanged, controls_, &PredictControls::setFuse);
    setCentralWidget(pages_);
    buildMenus();
    buildStatusBar();
    connectPredictor();
    openModel(model);
}

// The predictor and the strip, children, wait for their threads.
MainWindow::~MainWindow() = default;

void MainWindow::buildPredictPage() {
    predictPage_ = new QWidget(pages_);
    controls_ = new PredictControls(predictPage_);
    liveBar_ = new LiveBar(predictPage_);
    connect(liveBar_, &LiveBar::startRequested, this, &MainWindow::startLive);
    connect(liveBar_, &LiveBar::stopRequested, this, &MainWindow::stopLive);
    view_ = new PredictionView(predictPage_);
    strip_ = new ImageStrip(predictPage_);
    connect(strip_, &ImageStrip::imageChosen, this, &MainWindow::openImage);
    connect(strip_, &ImageStrip::thumbnailShown, this, &MainWindow::thumbnailShown);
    auto* layout = new QVBoxLayout(predictPage_);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(controls_);
    layout->addWidget(liveBar_);
    layout->addWidget(view_, 1);
    layout->addWidget(strip_);
    connect(controls_, &PredictControls::changed, this, &MainWindow::predictAgain);
    connect(controls_, &PredictControls::deviceChanged, this, &MainWindow::moveModel);
}

void MainWindow::buildMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open images…"), QKeySequence::Open, this, &MainWindow::openImagesDialog);
    file->addAction(tr("Open &model…"), this, &MainWindow::openModelDialog);
    file->addAction(tr("Open &pretrained model…"), this, &MainWindow::openPretrainedDialog);
    file->addAction(tr("Open &folder…"), this, &MainWindow::openFolderDialog);
    file->addAction(tr("&Save results…"), QKeySequence::Save, this, &MainWindow::saveResultsDialog);
    file->addAction(tr("&Export model…"), this, &MainWindow::exportModelDialog);
    file->addAction(tr("S&top video"), QKeySequence(Qt::Key_Escape), this, &MainWindow::stopVideo);
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildStatusBar() {
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
}

void MainWindow::connectPredictor() {
    connect(predictor_, &PredictController::modelLoaded, this, &MainWindow::showModel);
    connect(predictor_, &PredictController::modelLoadFailed, this, &MainWindow::reportModelLoadFailure);
    connect(predictor_, &PredictController::failed, this, &MainWindow::showError);
    connect(predictor_, &PredictController::exported, this, &MainWindow::showExported);
    connect(predictor_, &PredictController::exportFailed, this, [this](const QString& message) {
        statusBar()->clearMessage();
        showBlockingError(tr("Cannot export"), message);
        showError(message);
    });
    connect(predictor_, &PredictController::predicted, this, &MainWindow::showResult);
    connect(predictor_, &PredictController::predictionFailed, this, &MainWindow::showPredictionFailure);
    connect(predictor_, &PredictController::graphsChanged, graphsPage_, &GraphsPage::setGraphs);
    connect(predictor_, &PredictController::videoFinished, this, [this](const QString& path, int frames) {
        statusBar()->showMessage(tr("%1: %n frame(s) predicted", nullptr, frames).arg(path), 10000);
        Q_EMIT videoFinished(frames);
    });
    connect(predictor_, &PredictController::liveStarted, this,
            [this](const QString& source) { liveBar_->setStatus(tr("reading %1…").arg(source)); });
    connect(predictor_, &PredictController::liveStats, this,
            [this](double fps, double frameMs, const QString& graphState) {
                liveBar_->setStatus(
                    tr("%1 FPS · %2 ms per frame · %3").arg(fps, 0, 'f', 1).arg(frameMs, 0, 'f', 1).arg(graphState));
            });
    connect(predictor_, &PredictController::liveFinished, this,
            [this](const QString& source, int frames, const QString& reason) {
                liveBar_->setRunning(false);
                liveBar_->setStatus(tr("%1: %n frame(s), %2", nullptr, frames).arg(source, reason));
                Q_EMIT liveFinished(frames, reason);
            });
    connect(graphsPage_, &GraphsPage::captureRequested, predictor_, &PredictController::captureGraph);
    connect(graphsPage_, &GraphsPage::releaseRequested, predictor_, &PredictController::releaseGraphs);
}

QListWidget* MainWindow::thumbnails() const {
    return strip_;
}

QString MainWindow::modelStatus() const {
    return modelLabel_->fullText();
}

QString MainWindow::resultStatus() const {
    return resultLabel_->fullText();
}

void MainWindow::openModel(const QString& nameOrPath) {
    if (weightsNeedDownload(nameOrPath)) {
        downloadThenOpen(nameOrPath);
        return;
    }
    modelLabel_->setFullText(tr("loading %1…").arg(nameOrPath));
    predictor_->loadModel(nameOrPath, controls_->device());
    predictAgain();
}

void MainWindow::predictAgain() {
    if (liveBar_->running()) {
        predictor_->predictAgain(controls_->options());  // the frames to come
        return;
    }
    if (lastPath_.isEmpty()) return;
    resultLabel_->setFullText(tr("predicting %1…").arg(lastPath_));
    predictor_->predictAgain(controls_->options());
}

void MainWindow::moveModel(const QString& device) {
    // No model (its load failed, perhaps on the device just replaced): load it on this one.
    if (predictor_->modelDescription().isEmpty()) {
        openModel(predictor_->modelRequest());
        return;
    }
    modelLabel_->setFullText(tr("moving the model to %1…").arg(device));
    predictor_->moveModel(device);
    predictor_->predictAgain(controls_->options());
}

void MainWindow::openPretrainedDialog() {
    if (!picker_) {
        picker_ = new ModelPickerDialog(this);
        connect(picker_, &ModelPickerDialog::modelChosen, this, &MainWindow::openModel);
    } else {
        picker_->catalog()->refreshFiles();  // a download since it was last open
    }
    picker_->select(predictor_->modelRequest());
    picker_->open();
}

void MainWindow::downloadThenOpen(const QString& name) {
    modelLabel_->setFullText(tr("downloading %1…").arg(name));
    auto* download = new WeightsDownloadDialog(name, this);
    download->setReportsErrors(false);  // this window reports them, as any load failure
    const auto restoreStatus = [this, name] {
        const QString kept = predictor_->modelDescription();
        modelLabel_->setFullText(kept.isEmpty() ? tr("no model: %1 is not downloaded").arg(name) : kept);
    };
    connect(download, &WeightsDownloadDialog::downloaded, this,
            [this](const QString&, const QString& path) { openModel(path); });
    connect(download, &WeightsDownloadDialog::cancelled, this, restoreStatus);
    connect(download, &WeightsDownloadDialog::failed, this,
            [this, restoreStatus](const QString& failedName, const QString& message) {
                restoreStatus();
                showBlockingError(tr("Cannot download %1").arg(failedName), message);
                Q_EMIT modelLoadFailed(message);
                showError(message);
            });
    download->start();
}

void MainWindow::exportModelDialog() {
    if (predictor_->modelDescription().isEmpty()) {
        showBlockingError(tr("Cannot export"), tr("No model is loaded: open one first (File ▸ Open model…)."));
        return;
    }
    auto* dialog = new ExportDialog(predictor_->modelRequest(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] { exportModel(dialog->options()); });
    dialog->open();
}

void MainWindow::exportModel(const libreyolo::ExportOptions& options) {
    statusBar()->showMessage(tr("Exporting %1 to ONNX…").arg(predictor_->modelRequest()));
    predictor_->exportModel(options);
}

void MainWindow::showExported(const QString& path, qulonglong bytes) {
    const QString text = tr("Exported %1 (%2 MB).").arg(path).arg(static_cast<double>(bytes) / 1e6, 0, 'f', 1);
    statusBar()->showMessage(text, 10000);
    if (!exportMessage_)
        exportMessage_ = new QMessageBox(QMessageBox::Information, tr("Export finished"), text, QMessageBox::Ok, this);
    exportMessage_->setText(text);
    exportMessage_->open();  // not exec(): the window keeps running
    Q_EMIT modelExported(path, bytes);
}

void MainWindow::openModelDialog() {
    // The weights of the run just trained are the likeliest choice.
    const QString folder = lastRunWeights_.isEmpty() ? QFileInfo(predictor_->modelRequest()).path() : lastRunWeights_;
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open model weights"), folder, tr("Weights (*.safetensors *.pt)"));
    if (!path.isEmpty()) openModel(path);
}

void MainWindow::showModel(const QString& description) {
    modelLabel_->setFullText(description);
}

void MainWindow::reportModelLoadFailure(const QString& nameOrPath, const QString& reason, bool previousKept) {
    const QString message = PredictWorker::loadFailureMessage(nameOrPath, reason);
    const QString kept = predictor_->modelDescription();
    if (previousKept)
        modelLabel_->setFullText(kept);
    else
        modelLabel_->setFullText(tr("no model: %1").arg(reason));
    showBlockingError(tr("Cannot load the model"),
                      previousKept ? tr("%1\n\nStill using %2.").arg(message, kept) : message);
    Q_EMIT modelLoadFailed(message);
    showError(message);
}

void MainWindow::showResult(const QImage& image, const libreyolo::Result& result) {
    view_->setPrediction(image, result);
    statusBar()->clearMessage();
    results_.add(result);
    const libreyolo::Speed& s = result.speed;
    QString text =
        tr("%n detection(s) · %1 / %2 / %3 ms pre / inference / post", nullptr, static_cast<int>(result.boxes.size()))
            .arg(s.preprocess_ms, 0, 'f', 1)
            .arg(s.inference_ms, 0, 'f', 1)
            .arg(s.postprocess_ms, 0, 'f', 1);
    if (controls_->options().fuse) text = tr("%1 (fused)").arg(text);
    if (result.frame >= 0) text = tr("frame %1 · %2").arg(result.frame + 1).arg(text);
    resultLabel_->setFullText(text);
    const QString path = QString::fromStdString(result.path);
    strip_->describe(path, tr("%1\n%n detection(s), %2 ms", nullptr, static_cast<int>(result.boxes.size()))
                               .arg(path)
                               .arg(s.preprocess_ms + s.inference_ms + s.postprocess_ms, 0, 'f', 1));
    Q_EMIT predictionShown(static_cast<int>(result.boxes.size()));
}

void MainWindow::showPredictionFailure(const QString& path, const QString& message) {
    view_->showFailure(message);
    strip_->describe(path, QString("%1\n%2").arg(path, message));
    showError(message);
}

void MainWindow::openImage(const QString& path) {
    pages_->setCurrentWidget(predictPage_);
    lastPath_ = path;
    const bool video = media_paths::isVideo(path);
    resultLabel_->setFullText((video ? tr("playing %1…") : tr("predicting %1…")).arg(path));
    if (video)
        predictor_->playVideo(path, controls_->options());
    else
        predictor_->predictFile(path, controls_->options());
}

void MainWindow::stopVideo() {
    predictor_->stopVideo();
    stopLive();  // Escape stops whatever plays
}

void MainWindow::startLive(const QString& source, bool track) {
    pages_->setCurrentWidget(predictPage_);
    strip_->hide();
    lastPath_.clear();  // an options change now applies to the live frames to come
    liveBar_->setSource(source);
    liveBar_->setTracking(track);
    liveBar_->setRunning(true);
    liveBar_->setStatus(tr("opening %1…").arg(source));
    resultLabel_->setFullText(tr("opening %1…").arg(source));
    predictor_->playLive(source, controls_->options(), track);
}

void MainWindow::stopLive() {
    if (liveBar_->running()) predictor_->stopLive();
}

QStringList MainWindow::imageFiles(const QStringList& paths) {
    return media_paths::imageFiles(paths);
}

void MainWindow::openPaths(const QStringList& paths) {
    const QStringList files = imageFiles(paths);
    if (!files.isEmpty()) {
        strip_->setFiles(files);  // predicts the first
        return;
    }
    if (const QString video = media_paths::firstVideo(paths); !video.isEmpty()) {
        strip_->hide();
        openImage(video);  // plays it
        return;
    }
    showError(tr("No image among %1").arg(paths.join(", ")));
}

void MainWindow::openImagesDialog() {
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Open images or a video"), QString(), tr("Images and videos (%1)").arg(media_paths::dialogPatterns()));
    if (!paths.isEmpty()) openPaths(paths);
}

void MainWindow::openFolderDialog() {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Open a folder of images"));
    if (!dir.isEmpty()) openPaths({dir});
}

int MainWindow::saveResults(const QString& folder, QString* error) {
    return results_.save(folder, error);
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
