#include "train_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

#include <map>

#include "cuda_gate.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "model_picker.h"
#include "pretrained_catalog.h"
#include "weights_download.h"

namespace {

// Set by the page's buttons (Start: a new run, never over another; Resume), not by rows.
bool setByButtons(const libreyolo::OptionSpec& spec) {
    return spec.key == "resume" || spec.key == "exist_ok";
}

// The family of model, or "" for a file or a mistyped name (train() explains those at start).
std::string familyOf(const std::string& model) {
    if (!libreyolo::looks_like_model_name(model)) return "";
    try {
        return libreyolo::parse_model_name(model).family;
    } catch (const std::exception&) {
        return "";
    }
}

QString sectionTitle(libreyolo::OptionSection section) {
    switch (section) {
        case libreyolo::OptionSection::Optimisation:
            return TrainForm::tr("Optimisation");
        case libreyolo::OptionSection::Augmentation:
            return TrainForm::tr("Augmentation");
        case libreyolo::OptionSection::Run:
            return TrainForm::tr("The run");
        default:
            return QString();
    }
}

// An editor whose text is a line edit's, in a row with a button beside it.
OptionEditor lineWithButton(QLineEdit* line, QPushButton* button, QWidget* parent) {
    auto* row = new QWidget(parent);
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(line, 1);
    layout->addWidget(button);
    return {row, [line] { return line->text().trimmed(); }, [line](const QString& t) { line->setText(t); }};
}

// A check box that stays unchecked (and disabled) without a GPU: the form shows what the run will do.
OptionEditor gpuCheckBox(const libreyolo::OptionSpec& spec, QWidget* parent, const QString& noGpu) {
    OptionEditor e = makeOptionEditor(spec, parent);
    auto* box = static_cast<QCheckBox*>(e.widget);
    cuda_gate::disableWithoutGpu(box, noGpu);
    e.setText = [box](const QString& t) { box->setChecked(t == "true" && box->isEnabled()); };
    return e;
}

}  // namespace

OptionEditor TrainForm::makeEditor(const libreyolo::OptionSpec& spec) {
    if (spec.key == "model") {
        model_ = new QLineEdit(this);
        model_->setObjectName("model");
        model_->setToolTip(tr("A model name (%1) or a .safetensors or LibreYOLO .pt file to start from")
                               .arg(QString::fromStdString(libreyolo::model_names_summary(true))));
        connect(model_, &QLineEdit::editingFinished, this, &TrainForm::applyFamilyDefaults);
        auto* pick = new QPushButton(tr("Pretrained…"), this);
        pick->setObjectName("choosePretrained");
        connect(pick, &QPushButton::clicked, this, &TrainForm::choosePretrainedModel);
        return lineWithButton(model_, pick, this);
    }
    if (spec.key == "data") {
        data_ = new QLineEdit(this);
        data_->setObjectName("data");
        data_->setPlaceholderText(tr("data.yaml"));
        auto* browse = new QPushButton(tr("Browse…"), this);
        connect(browse, &QPushButton::clicked, this, [this] {
            const QString path =
                QFileDialog::getOpenFileName(this, tr("Dataset YAML"), QString(), tr("YAML (*.yaml *.yml)"));
            if (!path.isEmpty()) data_->setText(path);
        });
        return lineWithButton(data_, browse, this);
    }
    if (spec.key == "device") {
        auto* device = new QComboBox(this);
        device->setObjectName("device");
        device->setEditable(true);
        device->addItems({"auto", "cpu", "cuda"});
        cuda_gate::disableMissingDevices(device);
        return {device, [device] { return device->currentText().trimmed(); },
                [device](const QString& t) { device->setCurrentText(t); }};
    }
    if (spec.key == "amp") return gpuCheckBox(spec, this, cuda_gate::noGpuForAmp());
    if (spec.key == "cuda_graph") return gpuCheckBox(spec, this, cuda_gate::noGpuForGraphs());
    OptionEditor e = makeOptionEditor(spec, this);
    if (spec.key == "imgsz") {
        auto* spin = static_cast<QSpinBox*>(e.widget);
        spin->setSingleStep(libreyolo::kImageSizeMultiple);
        connect(spin, &QSpinBox::editingFinished, this,
                [spin] { spin->setValue(libreyolo::nearest_image_size(spin->value())); });
    }
    if (spec.key == "name") name_ = static_cast<QLineEdit*>(e.widget);
    return e;
}

TrainForm::TrainForm(QWidget* parent) : QWidget(parent) {
    auto* basics = new QFormLayout;
    basics->setContentsMargins(0, 0, 0, 0);
    auto* moreBox = new QWidget(this);
    auto* moreLayout = new QVBoxLayout(moreBox);
    moreLayout->setContentsMargins(0, 0, 0, 0);
    std::map<libreyolo::OptionSection, QFormLayout*> sections;
    for (const libreyolo::OptionSpec& spec : libreyolo::train_option_schema()) {
        if (setByButtons(spec) || spec.section == libreyolo::OptionSection::Distributed) continue;
        QFormLayout* form = basics;
        if (spec.section != libreyolo::OptionSection::Basics) {
            QFormLayout*& section = sections[spec.section];
            if (!section) {
                auto* group = new QGroupBox(sectionTitle(spec.section), moreBox);
                section = new QFormLayout(group);
                moreLayout->addWidget(group);
            }
            form = section;
        }
        OptionEditor editor = makeEditor(spec);
        auto* label = new QLabel(QString::fromStdString(spec.key), this);
        // Computed once: the defaults it lists come from every family and size.
        const QString tip = optionToolTip(spec);
        label->setToolTip(tip);
        if (editor.widget->toolTip().isEmpty()) editor.widget->setToolTip(tip);  // no GPU: the reason stays
        form->addRow(label, editor.widget);
        rows_.push_back({&spec, std::move(editor), form});
    }
    moreLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(moreBox);
    scroll->setVisible(false);
    more_ = new QToolButton(this);
    more_->setObjectName("moreOptions");
    more_->setText(tr("More options"));
    more_->setCheckable(true);
    more_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    more_->setArrowType(Qt::RightArrow);
    connect(more_, &QToolButton::toggled, this, [this, scroll](bool open) {
        scroll->setVisible(open);
        more_->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(basics);
    layout->addWidget(more_);
    layout->addWidget(scroll, 1);
    setOptions(libreyolo::TrainOptions{});
}

const TrainForm::Row* TrainForm::row(const std::string& key) const {
    for (const Row& r : rows_)
        if (r.spec->key == key) return &r;
    return nullptr;
}

void TrainForm::showFamilyRows(const std::string& family) {
    for (const Row& r : rows_) r.form->setRowVisible(r.editor.widget, family.empty() || r.spec->applies_to(family));
}

void TrainForm::applyFamilyDefaults() {
    const std::string model = model_->text().trimmed().toStdString();
    const std::string family = familyOf(model);
    if (family.empty() || model == defaultsModel_) return;
    libreyolo::TrainOptions before, after;
    try {
        after = libreyolo::train_defaults(model);
    } catch (const std::exception&) {
        return;
    }
    try {
        before = libreyolo::train_defaults(defaultsModel_);
    } catch (const std::exception&) {
        // a file that no longer reads: every row differing from the plain defaults takes the model's
    }
    defaultsModel_ = model;
    for (const Row& r : rows_) {
        const std::string value = r.spec->get(after);
        if (r.spec->key != "model" && value != r.spec->get(before)) r.editor.setText(QString::fromStdString(value));
    }
    showFamilyRows(family);
    Q_EMIT familyDefaultsApplied(tr("%1: %2 defaults (optimizer %3, lr0 %4)")
                                     .arg(QString::fromStdString(model),
                                          QString::fromStdString(libreyolo::family_traits(family).display_name),
                                          QString::fromStdString(std::string(libreyolo::to_string(after.optimizer))))
                                     .arg(after.lr0));
}

libreyolo::TrainOptions TrainForm::readRows(QString* problem) const {
    const std::string model = model_->text().trimmed().toStdString();
    libreyolo::TrainOptions o;
    try {
        o = libreyolo::train_defaults(model);
    } catch (const std::exception&) {
        o.model = model;  // an unknown name: train() says so on the worker
    }
    for (const Row& r : rows_) {
        if (r.spec->key == "model") continue;
        try {
            r.spec->set(o, r.editor.text().toStdString());
        } catch (const std::exception& e) {
            if (problem && problem->isEmpty()) *problem = QString::fromStdString(e.what());
        }
    }
    o.exist_ok = false;
    o.resume = false;
    return o;
}

libreyolo::TrainOptions TrainForm::options() const {
    return readRows(nullptr);
}

QString TrainForm::problem() const {
    QString problem;
    const libreyolo::TrainOptions o = readRows(&problem);
    if (!problem.isEmpty()) return problem;
    try {
        libreyolo::check_train_options(o);
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

void TrainForm::setOptions(const libreyolo::TrainOptions& o) {
    for (const Row& r : rows_) r.editor.setText(QString::fromStdString(r.spec->get(o)));
    defaultsModel_ = o.model;
    showFamilyRows(familyOf(o.model));
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
        if (row("pretrained")->editor.text() == "true" && weightsNeedDownload(name))
            (new WeightsDownloadDialog(name, this))->start();
    });
    picker->open();
}
