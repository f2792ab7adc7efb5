#pragma once
// The Predict page's strip of the images open, shown when there are several: a cell per file with
// its name and a preview, which a ThumbnailLoader reads on its own thread so that a folder of
// thousands never stalls the window. The cell chosen is the image to predict.
#include <QListWidget>
#include <QThread>

class ThumbnailLoader;

class ImageStrip : public QListWidget {
    Q_OBJECT
public:
    explicit ImageStrip(QWidget* parent = nullptr);
    ~ImageStrip() override;

    // Lists files in place of the images before (whose previews still loading are dropped), and
    // chooses the first.
    void setFiles(const QStringList& files);
    // The tooltip of path's cell, if it is listed: its detections, or why it failed.
    void describe(const QString& path, const QString& text);

Q_SIGNALS:
    void imageChosen(const QString& path);
    void thumbnailShown(int index);

private:
    QThread thread_;
    ThumbnailLoader* loader_ = nullptr;
    int generation_ = 0;  // of the list shown: previews for an earlier one are ignored
};
