#include "thumbnail_loader.h"

#include <QImageReader>

ThumbnailLoader::ThumbnailLoader(QObject* parent) : QObject(parent) {}

void ThumbnailLoader::load(int generation, const QStringList& paths) {
    for (int i = 0; i < paths.size() && generation == latest_; ++i) {
        QImageReader reader(paths[i]);
        reader.setAutoTransform(false);
        const QSize full = reader.size();
        // Formats that can decode smaller (JPEG) do so; the rest are scaled after reading.
        if (full.isValid()) reader.setScaledSize(full.scaled(kSize, kSize, Qt::KeepAspectRatio));
        QImage image = reader.read();
        if (image.isNull()) continue;
        if (image.width() > kSize || image.height() > kSize)
            image = image.scaled(kSize, kSize, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        Q_EMIT loaded(generation, i, image);
    }
}
