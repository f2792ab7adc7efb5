#include "train_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>

#include "cuda_gate.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "model_picker.h"
#include "pretrained_catalog.h"
#include "weights_download.h"

TrainForm::TrainForm(QWidget* parent) : QWidget(parent) {
    const libreyolo::TrainOptions defaults;
    model_ = new QLineEdit(QString::fromStdString(defaults.model), this);
    model_->setObjectName("model");
    model_->setToolTip(tr("A model name (%1) or a .safetensors or LibreYOLO .pt file to start from")
                           .arg(QString::fromStdString(libreyolo::model_names_summary(true))));
    family_ = libreyolo::parse_model_name(defaults.model).family;
    connect(model_, &QLineEdit::editingFinished, this, &TrainForm::applyFamilyDefaults);
    auto* pick = new QPushButton(tr("Pretrained…"), this);
    pick->setObjectName("choosePretrained");
    connect(pick, &QPushButton::clicked, this, &TrainForm::choosePretrainedModel);
    auto* modelRow = new QHBoxLayout;
    modelRow->addWidget(model_, 1);
    modelRow->addWidget(pick);
    pretrained_ = new QCheckBox(tr("start from LibreYOLO's pretrained weights"), this);
    pretrained_->setObjectName("pretrained");
    pretrained_->setChecked(defaults.pretrained);
    pretrained_->setToolTip(
        tr("Checked: a model name starts from its published COCO weights (downloaded once). "
           "Unchecked: from random weights (LibreYOLO's pretrained=False), which takes "
           "hundreds of epochs."));
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

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Model"), modelRow);
    form->addRow(tr("Pretrained"), pretrained_);
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
}

void TrainForm::applyFamilyDefaults() {
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
    Q_EMIT familyDefaultsApplied(tr("%1: %2 defaults (optimizer %3, lr0 %4)")
                                     .arg(QString::fromStdString(model),
                                          QString::fromStdString(libreyolo::family_traits(family).display_name),
                                          QString::fromStdString(d.optimizer))
                                     .arg(d.lr0));
}

libreyolo::TrainOptions TrainForm::options() const {
    const std::string model = model_->text().trimmed().toStdString();
    libreyolo::TrainOptions o;
    try {
        o = libreyolo::train_defaults(model);
    } catch (const std::exception&) {
        o.model = model;  // an unknown name: train() says so on the worker
    }
    o.pretrained = pretrained_->isChecked();
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
    o.exist_ok = false;
    return o;
}

void TrainForm::setOptions(const libreyolo::TrainOptions& o) {
    model_->setText(QString::fromStdString(o.model));
    pretrained_->setChecked(o.pretrained);
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

libreyolo::TrainOptions TrainForm::newRunOptions() {
    libreyolo::TrainOptions o = options();
    if (!runFolderName_.isEmpty() && QString::fromStdString(o.name) == runFolderName_)
        o.name = runBaseName_.toStdString();
    runBaseName_ = QString::fromStdString(o.name);
    runFolderName_.clear();
    return o;
}

void TrainForm::showRunFolder(const QString& dir) {
    if (dir.isEmpty()) return;
    runFolderName_ = QFileInfo(dir).fileName();
    name_->setText(runFolderName_);
}

void TrainForm::focusData() {
    data_->setFocus();
}

void TrainForm::choosePretrainedModel() {
    auto* picker = new ModelPickerDialog(this);
    picker->setAttribute(Qt::WA_DeleteOnClose);
    picker->select(model_->text().trimmed());
    connect(picker, &ModelPickerDialog::modelChosen, this, [this](const QString& name) {
        model_->setText(name);
        applyFamilyDefaults();
        if (pretrained_->isChecked() && weightsNeedDownload(name)) (new WeightsDownloadDialog(name, this))->start();
    });
    picker->open();
}
