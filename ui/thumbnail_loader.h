#pragma once
// Reads small previews of image files on its own thread, so that dropping a folder of thousands of
// images never stalls the window. A new request supersedes the one before (its generation).
#include <QImage>
#include <QObject>
#include <QStringList>

#include <atomic>

class ThumbnailLoader : public QObject {
    Q_OBJECT
public:
    static constexpr int kSize = 80;
    explicit ThumbnailLoader(QObject* parent = nullptr);
    // Callable from any thread: the running request, if older, stops at its next image.
    void supersede(int generation) { latest_ = generation; }

public Q_SLOTS:
    void load(int generation, const QStringList& paths);

Q_SIGNALS:
    void loaded(int generation, int index, const QImage& thumbnail);

private:
    std::atomic<int> latest_{0};
};
