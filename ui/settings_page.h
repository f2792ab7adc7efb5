#pragma once
// The Settings page: default CUDA graph mode, device, hub kernels, kernel override and language,
// each saved the moment it changes (StudioSettings). The graph mode applies to the Predict page
// at once, the kernel settings to the engine's kernel policy at once, the device to the next model
// load, the language at the next start.
#include <QWidget>

#include "libreyolo/cuda_graph.h"

class QCheckBox;
class QComboBox;

class SettingsPage : public QWidget {
    Q_OBJECT
public:
    explicit SettingsPage(QWidget* parent = nullptr);

    QComboBox* graphModeBox() const { return graphMode_; }
    QComboBox* deviceBox() const { return device_; }
    QCheckBox* fuseBox() const { return fuse_; }
    QCheckBox* hubKernelsBox() const { return hubKernels_; }
    QComboBox* kernelOverrideBox() const { return kernelOverride_; }
    QComboBox* languageBox() const { return language_; }

Q_SIGNALS:
    void graphModeChanged(libreyolo::GraphMode mode);
    void fuseChanged(bool fuse);

private:
    QComboBox* graphMode_ = nullptr;
    QComboBox* device_ = nullptr;
    QCheckBox* fuse_ = nullptr;
    QCheckBox* hubKernels_ = nullptr;
    QComboBox* kernelOverride_ = nullptr;
    QComboBox* language_ = nullptr;
};
