#include "export_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "libreyolo/pretrained.h"

namespace {

// Where the engine writes the file when the form leaves it empty (ExportOptions::output).
QString defaultFileText(const QString& model) {
    const QFileInfo file(model);
    if (file.isFile()) return QObject::tr("%1.onnx beside the weights").arg(file.completeBaseName());
    try {
        return QString("weights/%1.onnx")
            .arg(QFileInfo(QString::fromStdString(libreyolo::pretrained_file_name(model.toStdString())))
                     .completeBaseName());
    } catch (const std::exception&) {
        return QObject::tr("weights/<model>.onnx");
    }
}

}  // namespace

ExportDialog::ExportDialog(const QString& model, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Export model to ONNX"));
    auto* form = new QFormLayout;

    output_ = new QLineEdit(this);
    output_->setPlaceholderText(defaultFileText(model));
    output_->setToolTip(tr("The .onnx file to write; empty: the default shown (_fp16 added for float16)"));
    auto* browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, &ExportDialog::browse);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(output_, 1);
    fileRow->addWidget(browse);
    form->addRow(tr("File:"), fileRow);

    imgsz_ = new QSpinBox(this);
    imgsz_->setRange(0, 4096);
    imgsz_->setSingleStep(32);
    imgsz_->setSpecialValueText(tr("the model's"));
    imgsz_->setToolTip(tr("Square input size, a multiple of 32"));
    form->addRow(tr("Input size:"), imgsz_);

    dynamic_ = new QCheckBox(tr("Dynamic batch (any batch size at run time)"), this);
    batch_ = new QSpinBox(this);
    batch_->setRange(1, 1024);
    form->addRow(QString(), dynamic_);
    form->addRow(tr("Batch:"), batch_);

    half_ = new QCheckBox(tr("Float16 weights, input and output"), this);
    form->addRow(QString(), half_);

    nms_ = new QCheckBox(tr("NMS inside the graph (%1; batch 1)")
                             .arg(QString::fromStdString(libreyolo::onnx_embedded_nms_families_text())),
                         this);
    nms_->setToolTip(tr("Outputs `output` (1, max_det, 6): x1 y1 x2 y2 score class, and `raw`"));
    form->addRow(QString(), nms_);
    conf_ = new QDoubleSpinBox(this);
    conf_->setRange(0.0, 0.99);
    conf_->setDecimals(3);
    conf_->setSingleStep(0.05);
    iou_ = new QDoubleSpinBox(this);
    iou_->setRange(0.01, 1.0);
    iou_->setSingleStep(0.05);
    maxDet_ = new QSpinBox(this);
    maxDet_->setRange(1, 10000);
    form->addRow(tr("NMS confidence:"), conf_);
    form->addRow(tr("NMS IoU:"), iou_);
    form->addRow(tr("Max detections:"), maxDet_);

    opset_ = new QSpinBox(this);
    opset_->setRange(12, 17);
    opset_->setSpecialValueText(
        tr("the family's (%1)").arg(QString::fromStdString(libreyolo::onnx_default_opsets_text())));
    form->addRow(tr("Opset:"), opset_);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Export"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);

    connect(dynamic_, &QCheckBox::toggled, this, &ExportDialog::updateEnabled);
    connect(nms_, &QCheckBox::toggled, this, &ExportDialog::updateEnabled);
    setOptions({});
}

libreyolo::ExportOptions ExportDialog::options() const {
    libreyolo::ExportOptions o;
    o.output = output_->text().trimmed().toStdString();
    o.imgsz = imgsz_->value();
    o.nms = nms_->isChecked();
    o.dynamic = dynamic_->isChecked() && !o.nms;
    o.batch = o.nms ? 1 : batch_->value();
    o.half = half_->isChecked();
    o.conf = static_cast<float>(conf_->value());
    o.iou = static_cast<float>(iou_->value());
    o.max_det = maxDet_->value();
    // The spin box's lowest value reads "the family's" (0).
    o.opset = opset_->value() == opset_->minimum() ? 0 : opset_->value();
    return o;
}

void ExportDialog::setOptions(const libreyolo::ExportOptions& o) {
    output_->setText(QString::fromStdString(o.output));
    imgsz_->setValue(o.imgsz);
    dynamic_->setChecked(o.dynamic);
    batch_->setValue(o.batch);
    half_->setChecked(o.half);
    nms_->setChecked(o.nms);
    conf_->setValue(o.conf);
    iou_->setValue(o.iou);
    maxDet_->setValue(o.max_det);
    opset_->setValue(o.opset == 0 ? opset_->minimum() : o.opset);
    updateEnabled();
}

void ExportDialog::browse() {
    const QString path = QFileDialog::getSaveFileName(this, tr("Export to"), output_->text(), tr("ONNX (*.onnx)"));
    if (!path.isEmpty()) output_->setText(path.endsWith(".onnx") ? path : path + ".onnx");
}

// Embedded NMS exports one image at a time; a dynamic batch has no fixed size.
void ExportDialog::updateEnabled() {
    const bool nms = nms_->isChecked();
    dynamic_->setEnabled(!nms);
    batch_->setEnabled(!nms && !dynamic_->isChecked());
    for (QWidget* w : {static_cast<QWidget*>(conf_), static_cast<QWidget*>(iou_), static_cast<QWidget*>(maxDet_)})
        w->setEnabled(nms);
}
