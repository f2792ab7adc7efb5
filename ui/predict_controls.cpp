#include "predict_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "cuda_gate.h"
#include "libreyolo/image_size.h"

PredictControls::PredictControls(QWidget* parent) : QWidget(parent) {
    const libreyolo::PredictOptions defaults;
    auto threshold = [this](double value) {
        auto* s = new QDoubleSpinBox(this);
        s->setRange(0.0, 1.0);
        s->setDecimals(3);
        s->setSingleStep(0.05);
        s->setValue(value);
        connect(s, &QDoubleSpinBox::valueChanged, this, &PredictControls::changed);
        return s;
    };
    conf_ = threshold(defaults.conf);
    iou_ = threshold(defaults.iou);
    iou_->setMinimum(0.01);
    imgsz_ = new QSpinBox(this);
    imgsz_->setRange(0, 4096);
    imgsz_->setSingleStep(32);
    imgsz_->setSpecialValueText(tr("model's"));
    imgsz_->setValue(0);
    // A typed size off the stride snaps, visibly, to the nearest one the engine takes.
    connect(imgsz_, &QSpinBox::editingFinished, this, [this] {
        if (imgsz_->value() > 0) imgsz_->setValue(libreyolo::nearest_image_size(imgsz_->value()));
        Q_EMIT changed();
    });
    graph_ = new QComboBox(this);
    graph_->addItem(tr("off"), static_cast<int>(libreyolo::GraphMode::Off));
    graph_->addItem(tr("on"), static_cast<int>(libreyolo::GraphMode::On));
    graph_->addItem(tr("auto"), static_cast<int>(libreyolo::GraphMode::Auto));
    graph_->setToolTip(
        tr("Replay the network as a CUDA graph: on captures each new input shape, auto "
           "captures when a shape comes again (CUDA devices only)"));
    cuda_gate::disableGraphModesWithoutGpu(graph_, static_cast<int>(libreyolo::GraphMode::Off));
    connect(graph_, &QComboBox::currentIndexChanged, this, &PredictControls::changed);
    fuse_ = new QCheckBox(tr("fuse"), this);
    fuse_->setObjectName("fuse");
    fuse_->setToolTip(
        tr("Predict with an inference copy of the network whose BatchNorms are folded into its "
           "convolutions: faster, the same boxes up to rounding"));
    connect(fuse_, &QCheckBox::toggled, this, &PredictControls::changed);
    device_ = new QComboBox(this);
    device_->setEditable(true);
    device_->addItems({"auto", "cpu", "cuda", "cuda:0"});
    device_->setToolTip(tr("Where the model runs: auto, cpu, cuda or cuda:N"));
    cuda_gate::disableMissingDevices(device_);
    connect(device_, &QComboBox::activated, this, [this] { Q_EMIT deviceChanged(device()); });
    connect(device_->lineEdit(), &QLineEdit::editingFinished, this, [this] { Q_EMIT deviceChanged(device()); });

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    const std::pair<QString, QWidget*> items[] = {{tr("conf"), conf_},   {tr("iou"), iou_},
                                                  {tr("imgsz"), imgsz_}, {tr("CUDA graph"), graph_},
                                                  {QString(), fuse_},    {tr("device"), device_}};
    for (const auto& [label, widget] : items) {
        if (!label.isEmpty()) row->addWidget(new QLabel(label, this));
        row->addWidget(widget);
    }
    row->addStretch(1);
}

libreyolo::PredictOptions PredictControls::options() const {
    libreyolo::PredictOptions o;
    o.conf = static_cast<float>(conf_->value());
    o.iou = static_cast<float>(iou_->value());
    o.imgsz = imgsz_->value() > 0 ? libreyolo::nearest_image_size(imgsz_->value()) : 0;
    o.cuda_graph = static_cast<libreyolo::GraphMode>(graph_->currentData().toInt());
    o.fuse = fuse_->isChecked();
    return o;
}

void PredictControls::setFuse(bool fuse) {
    fuse_->setChecked(fuse);
}

void PredictControls::setConf(double conf) {
    conf_->setValue(conf);
}

void PredictControls::setGraphMode(libreyolo::GraphMode mode) {
    graph_->setCurrentIndex(graph_->findData(static_cast<int>(mode)));
}

QString PredictControls::device() const {
    return device_->currentText().trimmed();
}

void PredictControls::setDevice(const QString& device) {
    const QSignalBlocker quiet(device_);
    device_->setCurrentText(device);
}
