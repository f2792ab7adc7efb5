#include "train_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "qcustomplot_include.h"

#include "cuda_gate.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "train_worker.h"

namespace {

// The loss parts the engine names (TrainEvent::loss_names): YOLOv9's and RT-DETR's.
constexpr const char* kLossPartNames[] = {
    QT_TRANSLATE_NOOP("TrainPage", "box"),  QT_TRANSLATE_NOOP("TrainPage", "cls"),
    QT_TRANSLATE_NOOP("TrainPage", "dfl"),  QT_TRANSLATE_NOOP("TrainPage", "vfl"),
    QT_TRANSLATE_NOOP("TrainPage", "bbox"), QT_TRANSLATE_NOOP("TrainPage", "giou")};

// The legend gets a row of its own above the axes, so it never covers the newest data.
QCustomPlot* makePlot(const QString& xLabel, const QString& yLabel, const QStringList& series, QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    const QColor colors[] = {QColor(30, 30, 30), QColor(200, 60, 40), QColor(40, 120, 200), QColor(60, 160, 60),
                             QColor(150, 60, 170)};
    for (int i = 0; i < series.size(); ++i) {
        QCPGraph* g = plot->addGraph();
        g->setName(series[i]);
        g->setPen(QPen(colors[i % 5], 1.5));
    }
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);  // takes it out of the axis rect
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->setMinimumHeight(160);
    return plot;
}

// Steps and epochs are counted: ticks on whole numbers only.
void useIntegerTicks(QCPAxis* axis) {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
}

// A counted axis after rescaleAxes: from 0 at the least, at least one unit wide (one point or none
// would otherwise give a range around it, negative below 1).
void fitCountAxis(QCPAxis* axis) {
    const QCPRange r = axis->range();
    const double lower = std::max(0.0, std::floor(r.lower));
    axis->setRange(lower, std::max(lower + 1, std::ceil(r.upper)));
}

// Losses, learning rates and step times are never negative: neither is their axis, even when
// rescaling around a single point would take it below 0.
void keepNonNegative(QCPAxis* axis) {
    if (axis->range().lower < 0) axis->setRangeLower(0);
}

// A resumed run repeats the interrupted epoch's steps (or a validated epoch): drop what was drawn
// from key on, so every line keeps running forwards.
void dropFrom(QCPGraph* graph, double key) {
    graph->data()->removeAfter(key - 0.5);
}

}  // namespace

TrainPage::TrainPage(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<libreyolo::TrainOptions>();
    qRegisterMetaType<libreyolo::TrainEvent>();
    qRegisterMetaType<libreyolo::TrainingGraphStatus>();

    const libreyolo::TrainOptions defaults;
    model_ = new QLineEdit(QString::fromStdString(defaults.model), this);
    model_->setObjectName("model");
    model_->setToolTip(
        tr("A model name (yolo9-t, -s, -m, -c; rtdetr-r18, -r34, -r50: from scratch) or a .safetensors file "
           "(fine-tune)"));
    family_ = libreyolo::parse_model_name(defaults.model).family;
    connect(model_, &QLineEdit::editingFinished, this, &TrainPage::applyFamilyDefaults);
    data_ = new QLineEdit(this);
    data_->setObjectName("data");
    data_->setPlaceholderText(tr("data.yaml"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getOpenFileName(this, tr("Dataset YAML"), QString(), tr("YAML (*.yaml *.yml)"));
        if (!path.isEmpty()) data_->setText(path);
    });
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(data_, 1);
    dataRow->addWidget(browse);
    auto spin = [this](int lo, int hi, int value, int step = 1) {
        auto* s = new QSpinBox(this);
        s->setRange(lo, hi);
        s->setSingleStep(step);
        s->setValue(value);
        return s;
    };
    epochs_ = spin(1, 10000, defaults.epochs);
    batch_ = spin(1, 1024, defaults.batch);
    imgsz_ = spin(32, 4096, defaults.imgsz, 32);
    connect(imgsz_, &QSpinBox::editingFinished, this,
            [this] { imgsz_->setValue(libreyolo::nearest_image_size(imgsz_->value())); });
    device_ = new QComboBox(this);
    device_->setEditable(true);
    device_->addItems({"auto", "cpu", "cuda"});
    cuda_gate::disableMissingDevices(device_);
    optimizer_ = new QComboBox(this);
    optimizer_->addItems({"SGD", "Adam", "AdamW"});
    lr0_ = new QDoubleSpinBox(this);
    lr0_->setDecimals(5);
    lr0_->setRange(1e-6, 1.0);
    lr0_->setSingleStep(0.001);
    lr0_->setValue(defaults.lr0);
    amp_ = new QCheckBox(tr("mixed precision (CUDA)"), this);
    amp_->setObjectName("amp");
    amp_->setChecked(defaults.amp);
    cuda_gate::disableWithoutGpu(amp_, cuda_gate::noGpuForAmp());
    cudaGraph_ = new QCheckBox(tr("capture the training step as a CUDA graph"), this);
    cudaGraph_->setObjectName("cudaGraph");
    cuda_gate::disableWithoutGpu(cudaGraph_, cuda_gate::noGpuForGraphs());
    project_ = new QLineEdit(QString::fromStdString(defaults.project), this);
    name_ = new QLineEdit(QString::fromStdString(defaults.name), this);
    name_->setObjectName("name");

    auto* form = new QFormLayout;
    form->addRow(tr("Model"), model_);
    form->addRow(tr("Data"), dataRow);
    form->addRow(tr("Epochs"), epochs_);
    form->addRow(tr("Batch"), batch_);
    form->addRow(tr("Image size"), imgsz_);
    form->addRow(tr("Device"), device_);
    form->addRow(tr("Optimizer"), optimizer_);
    form->addRow(tr("lr0"), lr0_);
    form->addRow(tr("AMP"), amp_);
    form->addRow(tr("CUDA graph"), cudaGraph_);
    form->addRow(tr("Project folder"), project_);
    form->addRow(tr("Run name"), name_);

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
    left->addLayout(form);
    left->addLayout(buttons);
    left->addWidget(progress_);
    left->addWidget(status_);
    left->addStretch(1);
    auto* leftWidget = new QWidget(this);
    leftWidget->setLayout(left);

    lossPlot_ = makePlot(tr("step"), tr("loss"), {tr("loss"), tr("box"), tr("cls"), tr("dfl"), tr("epoch mean")}, this);
    lossPlot_->graph(4)->setLineStyle(QCPGraph::lsNone);
    lossPlot_->graph(4)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    metricPlot_ = makePlot(tr("epoch"), tr("mAP"), {tr("mAP50"), tr("mAP50-95")}, this);
    // Discs: the first validation is a single point, which a line alone would not show.
    for (int i = 0; i < metricPlot_->graphCount(); ++i)
        metricPlot_->graph(i)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    metricPlot_->yAxis->setRange(0, 1);
    metricPlot_->xAxis->setRange(0, 1);
    ratePlot_ = makePlot(tr("step"), tr("learning rate"), {tr("lr"), tr("step ms")}, this);
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_}) useIntegerTicks(plot->xAxis);
    // Step time on its own axis, at the right.
    ratePlot_->yAxis2->setVisible(true);
    ratePlot_->yAxis2->setLabel(tr("ms a step"));
    ratePlot_->graph(1)->setValueAxis(ratePlot_->yAxis2);
    log_ = new QPlainTextEdit(this);
    log_->setReadOnly(true);
    log_->setMaximumBlockCount(2000);
    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(lossPlot_);
    right->addWidget(metricPlot_);
    right->addWidget(ratePlot_);
    right->addWidget(log_);

    auto* layout = new QHBoxLayout(this);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(leftWidget);
    split->addWidget(right);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

    worker_ = new TrainWorker;
    worker_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, worker_, &QObject::deleteLater);
    connect(this, &TrainPage::startRequested, worker_, &TrainWorker::run, Qt::QueuedConnection);
    connect(worker_, &TrainWorker::event, this, &TrainPage::onEvent);
    connect(worker_, &TrainWorker::logLine, this, &TrainPage::appendLog);
    connect(
        worker_, &TrainWorker::finished, this,
        [this](const QString& dir, bool stopped, double best, const libreyolo::TrainingGraphStatus& cudaGraph) {
            setRunning(false);
            showRunFolder(dir);
            Q_EMIT graphStateChanged(tr("last run: %1").arg(graphStatusText(cudaGraph)));
            status_->setText(stopped ? tr("stopped; Resume continues %1").arg(dir)
                                     : tr("finished: best mAP50-95 %1, results in %2").arg(best, 0, 'f', 4).arg(dir));
            Q_EMIT runFinished(dir, stopped);
        });
    connect(worker_, &TrainWorker::failed, this, [this](const QString& message) {
        setRunning(false);
        status_->setText(tr("failed: %1").arg(message));
        appendLog(tr("error: %1").arg(message));
        Q_EMIT runFailed(message);
    });
    thread_.start();
    setRunning(false);
}

TrainPage::~TrainPage() {
    // A run still going is asked to stop (it leaves a resumable checkpoint) and waited for.
    if (worker_) worker_->requestStop();
    thread_.quit();
    thread_.wait();
}

void TrainPage::applyFamilyDefaults() {
    const std::string model = model_->text().trimmed().toStdString();
    if (!libreyolo::looks_like_model_name(model)) return;  // files: their family's defaults apply at start
    std::string family;
    try {
        family = libreyolo::parse_model_name(model).family;
    } catch (const std::exception&) {
        return;  // a mistyped name: train() explains it at start
    }
    if (family == family_) return;
    family_ = family;
    const libreyolo::TrainOptions d = libreyolo::train_defaults(model);
    epochs_->setValue(d.epochs);
    batch_->setValue(d.batch);
    optimizer_->setCurrentText(QString::fromStdString(d.optimizer));
    lr0_->setValue(d.lr0);
    appendLog(tr("%1: %2 defaults (optimizer %3, lr0 %4)")
                  .arg(QString::fromStdString(model),
                       QString::fromStdString(libreyolo::family_traits(family).display_name),
                       QString::fromStdString(d.optimizer))
                  .arg(d.lr0));
}

libreyolo::TrainOptions TrainPage::options() const {
    const std::string model = model_->text().trimmed().toStdString();
    libreyolo::TrainOptions o;
    try {
        o = libreyolo::train_defaults(model);
    } catch (const std::exception&) {
        o.model = model;  // an unknown name: train() says so on the worker
    }
    o.data = data_->text().trimmed().toStdString();
    o.epochs = epochs_->value();
    o.batch = batch_->value();
    o.imgsz = imgsz_->value();
    o.device = device_->currentText().trimmed().toStdString();
    o.optimizer = optimizer_->currentText().toStdString();
    o.lr0 = lr0_->value();
    o.amp = amp_->isChecked();
    o.cuda_graph = cudaGraph_->isChecked();
    o.project = project_->text().trimmed().toStdString();
    o.name = name_->text().trimmed().toStdString();
    // A run never writes over another: the engine numbers a taken name (exp, exp2, ...), and the
    // page shows the folder it chose in Run name, which is what Resume continues.
    o.exist_ok = false;
    return o;
}

void TrainPage::setOptions(const libreyolo::TrainOptions& o) {
    model_->setText(QString::fromStdString(o.model));
    data_->setText(QString::fromStdString(o.data));
    epochs_->setValue(o.epochs);
    batch_->setValue(o.batch);
    imgsz_->setValue(o.imgsz);
    device_->setCurrentText(QString::fromStdString(o.device));
    optimizer_->setCurrentText(QString::fromStdString(o.optimizer));
    lr0_->setValue(o.lr0);
    // Without a GPU these stay unchecked (and disabled): the form shows what the run will do.
    amp_->setChecked(o.amp && amp_->isEnabled());
    cudaGraph_->setChecked(o.cuda_graph && cudaGraph_->isEnabled());
    project_->setText(QString::fromStdString(o.project));
    name_->setText(QString::fromStdString(o.name));
}

void TrainPage::start() {
    if (running_) return;
    libreyolo::TrainOptions o = options();
    if (o.data.empty()) {
        const QString message = tr("Choose a dataset YAML first");
        status_->setText(message);
        data_->setFocus();
        Q_EMIT runFailed(message);
        return;
    }
    // Run name still shows the folder the page wrote there: a new run starts from the name typed
    // before it, so the engine numbers exp3 after exp2, not exp22.
    if (!runFolderName_.isEmpty() && QString::fromStdString(o.name) == runFolderName_)
        o.name = runBaseName_.toStdString();
    runBaseName_ = QString::fromStdString(o.name);
    runFolderName_.clear();
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_})
        for (int i = 0; i < plot->graphCount(); ++i) plot->graph(i)->data()->clear();
    metricPlot_->xAxis->setRange(0, 1);
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_}) plot->replot(QCustomPlot::rpQueuedReplot);
    appendLog(tr("training %1 on %2").arg(QString::fromStdString(o.model), QString::fromStdString(o.data)));
    launch(o);
}

void TrainPage::resume() {
    if (running_) return;
    libreyolo::TrainOptions o = options();
    o.resume = true;  // the data and the rest come from the run's checkpoint
    appendLog(tr("resuming %1").arg(QDir(QString::fromStdString(o.project)).filePath(QString::fromStdString(o.name))));
    launch(o);
}

void TrainPage::showRunFolder(const QString& dir) {
    if (dir.isEmpty()) return;
    runFolderName_ = QFileInfo(dir).fileName();
    name_->setText(runFolderName_);
}

QString TrainPage::lossPartName(const std::string& engineName) {
    for (const char* known : kLossPartNames)
        if (engineName == known) return tr(known);
    return QString::fromStdString(engineName);
}

void TrainPage::stop() {
    if (!running_) return;
    worker_->requestStop();
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
    setRunning(true);
    progress_->setValue(0);
    status_->setText(tr("starting…"));
    libreyolo::TrainingGraphStatus requested;
    if (o.cuda_graph) requested.state = libreyolo::TrainingGraphStatus::State::Waiting;
    Q_EMIT graphStateChanged(o.cuda_graph ? graphStatusText(requested) : tr("off (CUDA graph unchecked)"));
    Q_EMIT startRequested(o);
}

void TrainPage::onEvent(const libreyolo::TrainEvent& e) {
    // The form shows the folder the run writes into from its first event (exp2 when exp was taken).
    if (const QString dir = QString::fromStdString(e.save_dir); QFileInfo(dir).fileName() != runFolderName_)
        showRunFolder(dir);
    if (e.kind == libreyolo::TrainEvent::Kind::Graph) {  // its line reaches the log through the engine's log
        Q_EMIT graphStateChanged(graphStatusText(e.graph));
        return;
    }
    if (e.kind == libreyolo::TrainEvent::Kind::Batch) {
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
        for (QCustomPlot* plot : {lossPlot_, ratePlot_})
            for (int i = 0; i < plot->graphCount(); ++i) dropFrom(plot->graph(i), e.step);
        lossPlot_->graph(0)->addData(e.step, e.loss);
        // The family's three parts (YOLOv9: box, cls, dfl; RT-DETR: vfl, bbox, giou) name the curves.
        for (std::size_t i = 0; i < e.loss_parts.size() && i < 3; ++i) {
            QCPGraph* part = lossPlot_->graph(static_cast<int>(i) + 1);
            const QString name = i < e.loss_names.size() ? lossPartName(e.loss_names[i]) : QString();
            if (!name.isEmpty() && part->name() != name) part->setName(name);
            part->addData(e.step, e.loss_parts[i]);
        }
        lossPlot_->rescaleAxes();
        fitCountAxis(lossPlot_->xAxis);
        keepNonNegative(lossPlot_->yAxis);
        lossPlot_->replot(QCustomPlot::rpQueuedReplot);
        ratePlot_->graph(0)->addData(e.step, e.lr);
        ratePlot_->graph(1)->addData(e.step, e.step_ms);
        ratePlot_->rescaleAxes();
        fitCountAxis(ratePlot_->xAxis);
        keepNonNegative(ratePlot_->yAxis);
        keepNonNegative(ratePlot_->yAxis2);
        ratePlot_->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    const double lastStep = static_cast<double>(e.epoch) * e.batches;  // the epoch mean sits at its last step
    dropFrom(lossPlot_->graph(4), lastStep);
    lossPlot_->graph(4)->addData(lastStep, e.loss);
    lossPlot_->replot(QCustomPlot::rpQueuedReplot);
    appendLog(tr("epoch %1/%2: loss %3%4, %5 s")
                  .arg(e.epoch)
                  .arg(e.epochs)
                  .arg(e.loss, 0, 'f', 4)
                  .arg(e.map50 >= 0 ? tr(", mAP50 %1, mAP50-95 %2").arg(e.map50, 0, 'f', 4).arg(e.map50_95, 0, 'f', 4)
                                    : QString())
                  .arg(e.epoch_seconds, 0, 'f', 1));
    if (e.map50 >= 0) {
        for (int i = 0; i < metricPlot_->graphCount(); ++i) dropFrom(metricPlot_->graph(i), e.epoch);
        metricPlot_->graph(0)->addData(e.epoch, e.map50);
        metricPlot_->graph(1)->addData(e.epoch, e.map50_95);
        // mAP is a fraction: the whole of [0, 1] always, so epochs compare at a glance. Epochs
        // from 0 to one past the last, so the newest point is never on the edge.
        bool found = false;
        const QCPRange epochs = metricPlot_->graph(0)->getKeyRange(found);
        metricPlot_->xAxis->setRange(0, (found ? std::max(1.0, epochs.upper) : 1.0) + 1);
        metricPlot_->yAxis->setRange(0, 1);
        metricPlot_->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TrainPage::setRunning(bool running) {
    running_ = running;
    startButton_->setEnabled(!running);
    resumeButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
}

void TrainPage::appendLog(const QString& line) {
    log_->appendPlainText(line);
}
