#include "train_page.h"

#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

#include "train_charts.h"
#include "train_controller.h"
#include "train_form.h"

TrainPage::TrainPage(QWidget* parent) : QWidget(parent) {
    form_ = new TrainForm(this);

    startButton_ = new QPushButton(tr("Start"), this);
    stopButton_ = new QPushButton(tr("Stop"), this);
    resumeButton_ = new QPushButton(tr("Resume"), this);
    stopButton_->setToolTip(tr("Ends after the current batch; Resume continues from the last finished epoch"));
    connect(startButton_, &QPushButton::clicked, this, &TrainPage::start);
    connect(stopButton_, &QPushButton::clicked, this, &TrainPage::stop);
    connect(resumeButton_, &QPushButton::clicked, this, &TrainPage::resume);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(startButton_);
    buttons->addWidget(stopButton_);
    buttons->addWidget(resumeButton_);
    buttons->addStretch(1);

    progress_ = new QProgressBar(this);
    progress_->setRange(0, 1000);
    progress_->setValue(0);
    status_ = new QLabel(tr("idle"), this);
    status_->setObjectName("status");
    // Wrapped within the column's width, never widening it while a run reports progress.
    status_->setWordWrap(true);
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

    auto* left = new QVBoxLayout;
    left->addWidget(form_);
    left->addLayout(buttons);
    left->addWidget(progress_);
    left->addWidget(status_);
    left->addStretch(1);
    auto* leftWidget = new QWidget(this);
    leftWidget->setLayout(left);

    charts_ = new TrainCharts(this);
    log_ = new QPlainTextEdit(this);
    log_->setObjectName("log");
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(charts_);
    right->addWidget(log_);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);

    auto* layout = new QHBoxLayout(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(leftWidget);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

    run_ = new TrainController(this);
    connect(this, &TrainPage::startRequested, run_, &TrainController::start);
    connect(run_, &TrainController::runningChanged, this, &TrainPage::showRunning);
    connect(run_, &TrainController::event, this, &TrainPage::onEvent);
    connect(run_, &TrainController::logLine, this, &TrainPage::appendLog);
    connect(run_, &TrainController::finished, this, &TrainPage::onFinished);
    connect(run_, &TrainController::failed, this, &TrainPage::onFailed);
    connect(form_, &TrainForm::familyDefaultsApplied, this, &TrainPage::appendLog);
    showRunning(false);
}

// The controller (a child) stops and waits for a run still going.
TrainPage::~TrainPage() = default;

libreyolo::TrainOptions TrainPage::options() const {
    return form_->options();
}

void TrainPage::setOptions(const libreyolo::TrainOptions& options) {
    form_->setOptions(options);
}

bool TrainPage::isRunning() const {
    return run_->isRunning();
}

QCustomPlot* TrainPage::lossPlot() const {
    return charts_->lossPlot();
}

QCustomPlot* TrainPage::metricPlot() const {
    return charts_->metricPlot();
}

QCustomPlot* TrainPage::ratePlot() const {
    return charts_->ratePlot();
}

void TrainPage::start() {
    if (isRunning()) return;
    if (form_->options().data.empty()) {
        const QString message = tr("Choose a dataset YAML first");
        status_->setText(message);
        form_->focusData();
        Q_EMIT runFailed(message);
        return;
    }
    if (const QString problem = form_->problem(); !problem.isEmpty()) {
        status_->setText(problem);
        Q_EMIT runFailed(problem);
        return;
    }
    const libreyolo::TrainOptions o = form_->newRunOptions();
    charts_->clear();
    appendLog(tr("training %1 on %2").arg(QString::fromStdString(o.model), QString::fromStdString(o.data)));
    launch(o);
}

void TrainPage::resume() {
    if (isRunning()) return;
    libreyolo::TrainOptions o = form_->options();
    o.resume = true;  // the data and the rest come from the run's checkpoint
    appendLog(tr("resuming %1").arg(QDir(QString::fromStdString(o.project)).filePath(QString::fromStdString(o.name))));
    launch(o);
}

void TrainPage::stop() {
    if (!isRunning()) return;
    run_->stop();
    status_->setText(tr("stopping after this batch…"));
}

QString TrainPage::graphStatusText(const libreyolo::TrainingGraphStatus& status) {
    using State = libreyolo::TrainingGraphStatus::State;
    switch (status.state) {
        case State::Off:
            return tr("off");
        case State::RuledOut:
            return tr("not used, training eager: %1").arg(QString::fromStdString(status.reason));
        case State::Waiting:
            return tr("requested: eager until a batch shape has come %n time(s)", nullptr,
                      libreyolo::kTrainingGraphRepeatsBeforeCapture);
        case State::Replaying:
            return tr("replaying the training step for batches of %1").arg(QString::fromStdString(status.shape));
        case State::FellBack:
            return tr("eager after a failure: %1").arg(QString::fromStdString(status.reason));
    }
    return tr("off");
}

void TrainPage::launch(const libreyolo::TrainOptions& o) {
    progress_->setValue(0);
    status_->setText(tr("starting…"));
    libreyolo::TrainingGraphStatus requested;
    if (o.cuda_graph) requested.state = libreyolo::TrainingGraphStatus::State::Waiting;
    Q_EMIT graphStateChanged(o.cuda_graph ? graphStatusText(requested) : tr("off (CUDA graph unchecked)"));
    Q_EMIT startRequested(o);  // the controller starts the run
}

void TrainPage::onEvent(const libreyolo::TrainEvent& e) {
    // The form shows the folder the run writes into from its first event (exp2 when exp was taken).
    if (const QString dir = QString::fromStdString(e.save_dir); QFileInfo(dir).fileName() != form_->runFolderName())
        form_->showRunFolder(dir);
    switch (e.kind) {
        case libreyolo::TrainEvent::Kind::Graph:  // its line reaches the log through the engine's log
            Q_EMIT graphStateChanged(graphStatusText(e.graph));
            return;
        case libreyolo::TrainEvent::Kind::Batch: {
            const int eta = static_cast<int>(e.eta_seconds);
            progress_->setValue(1000 * e.step / std::max(1, e.steps));
            status_->setText(tr("epoch %1/%2, batch %3/%4, loss %5, %6 ms a step, ETA %7:%8")
                                 .arg(e.epoch)
                                 .arg(e.epochs)
                                 .arg(e.batch)
                                 .arg(e.batches)
                                 .arg(e.loss, 0, 'f', 4)
                                 .arg(e.step_ms, 0, 'f', 0)
                                 .arg(eta / 60)
                                 .arg(eta % 60, 2, 10, QChar('0')));
            charts_->addBatch(e);
            return;
        }
        case libreyolo::TrainEvent::Kind::Epoch:
            charts_->addEpoch(e);
            appendLog(tr("epoch %1/%2: loss %3%4, %5 s")
                          .arg(e.epoch)
                          .arg(e.epochs)
                          .arg(e.loss, 0, 'f', 4)
                          .arg(e.map50 >= 0
                                   ? tr(", mAP50 %1, mAP50-95 %2").arg(e.map50, 0, 'f', 4).arg(e.map50_95, 0, 'f', 4)
                                   : QString())
                          .arg(e.epoch_seconds, 0, 'f', 1));
            return;
    }
}

void TrainPage::onFinished(const QString& dir, bool stopped, double best,
                           const libreyolo::TrainingGraphStatus& cudaGraph) {
    form_->showRunFolder(dir);
    Q_EMIT graphStateChanged(tr("last run: %1").arg(graphStatusText(cudaGraph)));
    status_->setText(stopped ? tr("stopped; Resume continues %1").arg(dir)
                             : tr("finished: best mAP50-95 %1, results in %2").arg(best, 0, 'f', 4).arg(dir));
    Q_EMIT runFinished(dir, stopped);
}

void TrainPage::onFailed(const QString& message) {
    status_->setText(tr("failed: %1").arg(message));
    appendLog(tr("error: %1").arg(message));
    Q_EMIT runFailed(message);
}

void TrainPage::showRunning(bool running) {
    startButton_->setEnabled(!running);
    resumeButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
}

void TrainPage::appendLog(const QString& line) {
    log_->appendPlainText(line);
}
