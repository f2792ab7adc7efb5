#pragma once
// What the studio opens, by the engine's rules (libreyolo/media.h): a file dropped, a folder opened
// or a name the Open dialog offers is an image or a video exactly when predict would read it so.
#include <QString>
#include <QStringList>

namespace media_paths {

// The images of paths in order, each folder or glob pattern standing for its images (sorted, as
// predict reads them); a path that is missing or holds none adds nothing.
QStringList imageFiles(const QStringList& paths);
bool isVideo(const QString& path);
// The first of paths that names a video, or an empty string.
QString firstVideo(const QStringList& paths);
// "*.bmp *.jpeg ... *.mp4 ...": every image and video extension, for a file dialog's filter.
QString dialogPatterns();

}  // namespace media_paths
