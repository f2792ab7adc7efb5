#include "settings_page.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "cuda_gate.h"
#include "studio_settings.h"

SettingsPage::SettingsPage(QWidget* parent) : QWidget(parent) {
    const StudioSettings settings;

    graphMode_ = new QComboBox(this);
    graphMode_->addItem(tr("off"), static_cast<int>(libreyolo::GraphMode::Off));
    graphMode_->addItem(tr("on"), static_cast<int>(libreyolo::GraphMode::On));
    graphMode_->addItem(tr("auto"), static_cast<int>(libreyolo::GraphMode::Auto));
    cuda_gate::disableGraphModesWithoutGpu(graphMode_, static_cast<int>(libreyolo::GraphMode::Off));
    graphMode_->setCurrentIndex(graphMode_->findData(static_cast<int>(settings.graphMode())));
    connect(graphMode_, &QComboBox::currentIndexChanged, this, [this] {
        const auto mode = static_cast<libreyolo::GraphMode>(graphMode_->currentData().toInt());
        StudioSettings().setGraphMode(mode);
        Q_EMIT graphModeChanged(mode);
    });

    device_ = new QComboBox(this);
    device_->setEditable(true);
    device_->addItems({"auto", "cpu", "cuda", "cuda:0", "cuda:1"});
    cuda_gate::disableMissingDevices(device_);
    device_->setCurrentText(settings.device());
    connect(device_, &QComboBox::currentTextChanged, this, [](const QString& d) { StudioSettings().setDevice(d); });

    fuse_ = new QCheckBox(tr("Fuse the network for inference (BatchNorm folded into the convolutions)"), this);
    fuse_->setChecked(settings.fuse());
    connect(fuse_, &QCheckBox::toggled, this, [this](bool on) {
        StudioSettings().setFuse(on);
        Q_EMIT fuseChanged(on);
    });
    hubKernels_ = new QCheckBox(tr("Allow pinned hub kernel plugins"), this);
    hubKernels_->setChecked(settings.hubKernels());
    connect(hubKernels_, &QCheckBox::toggled, this, [](bool on) { StudioSettings().setHubKernels(on); });

    kernelOverride_ = new QComboBox(this);
    kernelOverride_->setEditable(true);
    kernelOverride_->addItem(tr("automatic"), QString());
    kernelOverride_->addItem("reference", "reference");
    kernelOverride_->addItem("off", "off");
    const QString override = settings.kernelOverride();
    const int known = kernelOverride_->findData(override);
    if (known >= 0)
        kernelOverride_->setCurrentIndex(known);
    else
        kernelOverride_->setCurrentText(override);  // a provider name
    kernelOverride_->setToolTip(
        tr("reference (or off) forces the portable implementations; a provider name restricts selection to "
           "that provider. In place of LIBREYOLO_KERNELS, for the studio"));
    connect(kernelOverride_, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        const int index = kernelOverride_->findText(text);
        StudioSettings().setKernelOverride(index >= 0 ? kernelOverride_->itemData(index).toString() : text);
    });

    language_ = new QComboBox(this);
    language_->addItem(tr("System"), QString());
    language_->addItem("English", "en");
    language_->addItem("Italiano", "it");
    language_->setCurrentIndex(std::max(0, language_->findData(settings.language())));
    connect(language_, &QComboBox::currentIndexChanged, this,
            [this] { StudioSettings().setLanguage(language_->currentData().toString()); });

    auto* form = new QFormLayout;
    form->addRow(tr("Default CUDA graph mode"), graphMode_);
    form->addRow(tr("Fused inference"), fuse_);
    form->addRow(tr("Device"), device_);
    form->addRow(tr("Hub kernels"), hubKernels_);
    form->addRow(tr("Kernel override"), kernelOverride_);
    form->addRow(tr("Language"), language_);
    auto* note = new QLabel(tr("Settings are saved as they change. The device applies when a model is loaded (next "
                               "start), the language at the next start."),
                            this);
    note->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addStretch(1);
}
