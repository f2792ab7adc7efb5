#pragma once
// The studio's persistent settings (QSettings, organisation "LibreYOLO", application "LibreYOLO
// Studio"): default CUDA graph mode, fused inference on/off, device, hub kernels on/off, kernel override and language.
// The kernel settings are the engine's kernel policy for the studio's process, in place of what
// LIBREYOLO_KERNELS and LIBREYOLO_HUB_KERNELS would say: the studio never writes its environment.
#include <QString>

#include "libreyolo/cuda_graph.h"

class QCoreApplication;
class QTranslator;

class StudioSettings {
public:
    libreyolo::GraphMode graphMode() const;
    void setGraphMode(libreyolo::GraphMode mode);
    bool fuse() const;  // predict with the fused inference path (PredictOptions::fuse)
    void setFuse(bool fuse);
    QString device() const;  // "auto", "cpu", "cuda", "cuda:N"
    void setDevice(const QString& device);
    bool hubKernels() const;
    void setHubKernels(bool enabled);
    QString kernelOverride() const;  // "" (automatic), "off", "reference" or a provider name
    void setKernelOverride(const QString& value);
    QString language() const;  // "" (the system's), "en", "it"
    void setLanguage(const QString& language);

    // Hands the kernel override and hub kernels setting to the engine (libreyolo::set_kernel_policy).
    void applyKernelPolicy() const;
    // Loads the translation for language() (or the system locale) into translator; false when
    // the language is English or has no translation.
    bool loadTranslation(QTranslator& translator) const;
};
