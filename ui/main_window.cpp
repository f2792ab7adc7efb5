#include "main_window.h"

#include <QDragEnterEvent>
#include <QFileDialog>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include "graphs_page.h"
#include "libreyolo/version.h"
#include "predict_controls.h"
#include "predict_worker.h"
#include "prediction_view.h"
#include "settings_page.h"
#include "studio_settings.h"
#include "train_page.h"

MainWindow::MainWindow(const QString& model, const QString& device, QWidget* parent) : QMainWindow(parent) {
    qRegisterMetaType<libreyolo::Result>();
    qRegisterMetaType<libreyolo::PredictOptions>();
    qRegisterMetaType<std::vector<libreyolo::GraphInfo>>();
    setWindowTitle(tr("LibreYOLO Studio"));
    setAcceptDrops(true);
    pages_ = new QTabWidget(this);
    predictPage_ = new QWidget(pages_);
    controls_ = new PredictControls(predictPage_);
    view_ = new PredictionView(predictPage_);
    auto* predictLayout = new QVBoxLayout(predictPage_);
    predictLayout->setContentsMargins(0, 0, 0, 0);
    predictLayout->addWidget(controls_);
    predictLayout->addWidget(view_, 1);
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
    settingsPage_ = new SettingsPage(pages_);
    pages_->addTab(settingsPage_, tr("Settings"));
    controls_->setGraphMode(StudioSettings().graphMode());
    connect(settingsPage_, &SettingsPage::graphModeChanged, controls_, &PredictControls::setGraphMode);
    setCentralWidget(pages_);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open image…"), QKeySequence::Open, this, &MainWindow::openImageDialog);
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
    connect(worker_, &PredictWorker::predicted, this, [this](const QImage& image, const libreyolo::Result& result) {
        view_->setPrediction(image, result);
        resultLabel_->setText(tr("%n detection(s), %1 ms", nullptr, static_cast<int>(result.boxes.size()))
                                  .arg(result.speed.inference_ms, 0, 'f', 1));
        Q_EMIT predictionShown(static_cast<int>(result.boxes.size()));
    });
    connect(worker_, &PredictWorker::graphsChanged, graphsPage_, &GraphsPage::setGraphs);
    connect(graphsPage_, &GraphsPage::captureRequested, worker_, &PredictWorker::captureGraph, Qt::QueuedConnection);
    connect(graphsPage_, &GraphsPage::releaseRequested, worker_, &PredictWorker::releaseGraphs, Qt::QueuedConnection);
    workerThread_.start();
    QMetaObject::invokeMethod(worker_, "loadModel", Qt::QueuedConnection, Q_ARG(QString, model),
                              Q_ARG(QString, device));
}

MainWindow::~MainWindow() {
    workerThread_.quit();
    workerThread_.wait();
}

void MainWindow::openImage(const QString& path) {
    pages_->setCurrentWidget(predictPage_);
    lastPath_ = path;
    resultLabel_->setText(tr("predicting %1…").arg(path));
    QMetaObject::invokeMethod(worker_, "predictFile", Qt::QueuedConnection, Q_ARG(QString, path),
                              Q_ARG(libreyolo::PredictOptions, controls_->options()));
}

void MainWindow::openImageDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open image"), QString(), tr("Images (*.png *.jpg *.jpeg *.bmp *.webp)"));
    if (!path.isEmpty()) openImage(path);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile()) {
            openImage(url.toLocalFile());
            break;  // the first version shows one image at a time
        }
}

void MainWindow::showError(const QString& message) {
    resultLabel_->setText(message);
    statusBar()->showMessage(message, 10000);
    Q_EMIT errorShown(message);
}
