#include "media_paths.h"

#include <exception>

#include "libreyolo/media.h"

namespace media_paths {

QStringList imageFiles(const QStringList& paths) {
    QStringList files;
    for (const QString& path : paths) {
        std::vector<std::string> media;
        try {
            media = libreyolo::media_files(path.toStdString());
        } catch (const std::exception&) {
            continue;  // missing, empty, unreadable or a file of another type: no image either way
        }
        for (const std::string& file : media)
            if (libreyolo::is_image_file(file)) files << QString::fromStdString(file);
    }
    return files;
}

bool isVideo(const QString& path) {
    return libreyolo::is_video_file(path.toStdString());
}

QString firstVideo(const QStringList& paths) {
    for (const QString& path : paths)
        if (isVideo(path)) return path;
    return QString();
}

QString dialogPatterns() {
    QStringList patterns;
    for (const auto& extensions : {libreyolo::image_extensions(), libreyolo::video_extensions()})
        for (const std::string& extension : extensions) patterns << "*" + QString::fromStdString(extension);
    return patterns.join(' ');
}

}  // namespace media_paths
