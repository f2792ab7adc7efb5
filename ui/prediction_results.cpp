#include "prediction_results.h"

#include <QDir>
#include <QFileInfo>
#include <QImageReader>
#include <QSaveFile>

#include <algorithm>
#include <vector>

#include "prediction_view.h"

void PredictionResults::add(const libreyolo::Result& result) {
    if (result.frame < 0) byPath_.insert(QString::fromStdString(result.path), result);
}

int PredictionResults::save(const QString& folder, QString* error) const {
    const auto fail = [&](const QString& message) {
        if (error) *error = message;
        return -1;
    };
    if (!QDir().mkpath(folder)) return fail(tr("Cannot create folder %1").arg(folder));
    std::vector<libreyolo::Result> all;
    int written = 0;
    for (auto it = byPath_.cbegin(); it != byPath_.cend(); ++it) {
        all.push_back(it.value());
        QImageReader reader(it.key());
        reader.setAutoTransform(false);
        const QImage image = reader.read();
        if (image.isNull()) continue;  // moved or deleted since: its JSON entry is still written
        QSaveFile out(QDir(folder).filePath(QFileInfo(it.key()).completeBaseName() + ".png"));
        if (!out.open(QIODevice::WriteOnly) || !PredictionView::annotated(image, it.value()).save(&out, "PNG") ||
            !out.commit())
            return fail(tr("Cannot write %1: %2").arg(out.fileName(), out.errorString()));
        ++written;
    }
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
    QSaveFile json(QDir(folder).filePath("predictions.json"));
    const std::string text = libreyolo::to_json(all);
    if (!json.open(QIODevice::WriteOnly) || json.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !json.commit())
        return fail(tr("Cannot write %1: %2").arg(json.fileName(), json.errorString()));
    return written;
}
