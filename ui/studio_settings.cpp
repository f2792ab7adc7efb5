#include "studio_settings.h"

#include <QLocale>
#include <QSettings>
#include <QTranslator>

#include "libreyolo/kernels.h"

namespace {

constexpr const char* kGraphMode = "predict/cuda_graph";
constexpr const char* kFuse = "predict/fuse";
constexpr const char* kDevice = "engine/device";
constexpr const char* kHubKernels = "kernels/hub";
constexpr const char* kKernelOverride = "kernels/override";
constexpr const char* kLanguage = "ui/language";

}  // namespace

libreyolo::GraphMode StudioSettings::graphMode() const {
    try {
        return libreyolo::parse_graph_mode(QSettings().value(kGraphMode, "false").toString().toStdString());
    } catch (const std::exception&) {
        return libreyolo::GraphMode::Off;  // an edited file with a value we do not know
    }
}

void StudioSettings::setGraphMode(libreyolo::GraphMode mode) {
    QSettings().setValue(kGraphMode, QString::fromLatin1(libreyolo::to_string(mode)));
}

bool StudioSettings::fuse() const {
    return QSettings().value(kFuse, false).toBool();
}

void StudioSettings::setFuse(bool fuse) {
    QSettings().setValue(kFuse, fuse);
}

QString StudioSettings::device() const {
    return QSettings().value(kDevice, "auto").toString();
}

void StudioSettings::setDevice(const QString& device) {
    QSettings().setValue(kDevice, device.trimmed().isEmpty() ? QString("auto") : device.trimmed());
}

bool StudioSettings::hubKernels() const {
    return QSettings().value(kHubKernels, true).toBool();
}

void StudioSettings::setHubKernels(bool enabled) {
    QSettings().setValue(kHubKernels, enabled);
    applyKernelPolicy();
}

QString StudioSettings::kernelOverride() const {
    return QSettings().value(kKernelOverride, QString()).toString();
}

void StudioSettings::setKernelOverride(const QString& value) {
    QSettings().setValue(kKernelOverride, value.trimmed());
    applyKernelPolicy();
}

QString StudioSettings::language() const {
    return QSettings().value(kLanguage, QString()).toString();
}

void StudioSettings::setLanguage(const QString& language) {
    QSettings().setValue(kLanguage, language);
}

void StudioSettings::applyKernelPolicy() const {
    libreyolo::set_kernel_policy(kernelOverride().toStdString(), hubKernels());
}

bool StudioSettings::loadTranslation(QTranslator& translator) const {
    const QString chosen = language();
    const QLocale locale = chosen.isEmpty() ? QLocale() : QLocale(chosen);
    if (locale.language() == QLocale::English || locale.language() == QLocale::C) return false;
    return translator.load(locale, "libreyolo_studio", "_", ":/i18n");
}
