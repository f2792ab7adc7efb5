#include "image_strip.h"

#include <QFileInfo>

#include "thumbnail_loader.h"

ImageStrip::ImageStrip(QWidget* parent) : QListWidget(parent) {
    setViewMode(QListView::IconMode);
    setFlow(QListView::LeftToRight);
    setWrapping(false);
    setIconSize({ThumbnailLoader::kSize, ThumbnailLoader::kSize});
    // Every cell the size of a full preview and its name, before the previews arrive.
    setGridSize({ThumbnailLoader::kSize + 24, ThumbnailLoader::kSize + 28});
    setFixedHeight(ThumbnailLoader::kSize + 48);
    setMovement(QListView::Static);
    setTextElideMode(Qt::ElideMiddle);
    hide();
    connect(this, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0) Q_EMIT imageChosen(item(row)->data(Qt::UserRole).toString());
    });

    loader_ = new ThumbnailLoader;
    loader_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, loader_, &QObject::deleteLater);
    connect(loader_, &ThumbnailLoader::loaded, this, [this](int generation, int index, const QImage& image) {
        if (generation != generation_ || index >= count()) return;
        item(index)->setIcon(QIcon(QPixmap::fromImage(image)));
        Q_EMIT thumbnailShown(index);
    });
    thread_.start();
}

ImageStrip::~ImageStrip() {
    loader_->supersede(-1);
    thread_.quit();
    thread_.wait();
}

void ImageStrip::setFiles(const QStringList& files) {
    loader_->supersede(++generation_);
    {
        const QSignalBlocker quiet(this);
        clear();
        for (const QString& f : files) {
            auto* cell = new QListWidgetItem(QFileInfo(f).fileName(), this);
            cell->setData(Qt::UserRole, f);
            cell->setToolTip(f);
        }
    }
    setVisible(files.size() > 1);
    QMetaObject::invokeMethod(
        loader_, [loader = loader_, generation = generation_, files] { loader->load(generation, files); },
        Qt::QueuedConnection);
    setCurrentRow(0);  // chooses the first
}

void ImageStrip::describe(const QString& path, const QString& text) {
    for (int i = 0; i < count(); ++i)
        if (item(i)->data(Qt::UserRole).toString() == path) item(i)->setToolTip(text);
}
