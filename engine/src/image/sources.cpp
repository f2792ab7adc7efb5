#include "image/sources.h"

#include <glob.h>

#include <algorithm>
#include <set>

#include "core/text.h"
#include "libreyolo/errors.h"
#include "libreyolo/media.h"

namespace libreyolo::image {
namespace fs = std::filesystem;

const std::set<std::string> kImageExtensions = {".bmp",  ".jpg",  ".jpeg", ".png", ".tif",
                                                ".tiff", ".webp", ".pbm",  ".pgm", ".ppm"};
const std::set<std::string> kVideoExtensions = {".mp4", ".avi", ".mov",  ".mkv", ".webm",
                                                ".m4v", ".mpg", ".mpeg", ".wmv", ".gif"};

namespace {

std::string joined(const std::set<std::string>& items) {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : " ") + i;
    return out;
}

bool is_media(const fs::path& p) {
    return is_image_file(p) || is_video_file(p);
}

SourceItem item_for(const fs::path& p) {
    return {p, is_video_file(p) ? SourceKind::Video : SourceKind::Image};
}

}  // namespace

bool is_image_file(const fs::path& path) {
    return kImageExtensions.count(lower_case(path.extension().string())) != 0;
}
bool is_video_file(const fs::path& path) {
    return kVideoExtensions.count(lower_case(path.extension().string())) != 0;
}

std::vector<SourceItem> expand_source(const std::string& source) {
    if (source.empty()) throw InvalidArgument("source: empty (give an image, video, folder or glob pattern)");
    std::vector<SourceItem> items;
    std::error_code ec;

    if (source.find_first_of("*?[") != std::string::npos && !fs::exists(source, ec)) {
        glob_t matches{};
        const int rc = ::glob(source.c_str(), 0, nullptr, &matches);
        if (rc == 0)
            for (std::size_t i = 0; i < matches.gl_pathc; ++i)
                if (fs::path p = matches.gl_pathv[i]; fs::is_regular_file(p, ec) && is_media(p))
                    items.push_back(item_for(p));
        globfree(&matches);
        if (items.empty()) throw FileNotFound("source: no images or videos match '" + source + "'");
    } else if (fs::is_directory(source, ec)) {
        std::vector<fs::path> files;
        for (const auto& entry : fs::directory_iterator(source, ec))
            if (entry.is_regular_file() && is_media(entry.path())) files.push_back(entry.path());
        if (ec) throw FileNotFound("source: cannot list folder '" + source + "': " + ec.message());
        std::sort(files.begin(), files.end());
        for (const auto& f : files) items.push_back(item_for(f));
        if (items.empty()) throw FileNotFound("source: folder '" + source + "' has no images or videos");
    } else if (fs::exists(source, ec)) {
        const fs::path p(source);
        if (!is_media(p))
            throw FormatError(source + ": unsupported file type '" + p.extension().string() +
                              "' (images: " + joined(kImageExtensions) + "; videos: " + joined(kVideoExtensions) + ")");
        items.push_back(item_for(p));
    } else {
        throw FileNotFound("source: '" + source + "': no such file or folder");
    }
    std::sort(items.begin(), items.end(), [](const SourceItem& a, const SourceItem& b) { return a.path < b.path; });
    return items;
}

}  // namespace libreyolo::image

namespace libreyolo {

bool is_image_file(const std::string& path) {
    return image::is_image_file(path);
}
bool is_video_file(const std::string& path) {
    return image::is_video_file(path);
}
std::vector<std::string> image_extensions() {
    return {image::kImageExtensions.begin(), image::kImageExtensions.end()};
}
std::vector<std::string> video_extensions() {
    return {image::kVideoExtensions.begin(), image::kVideoExtensions.end()};
}

std::vector<std::string> media_files(const std::string& source) {
    std::vector<std::string> files;
    for (const auto& item : image::expand_source(source)) files.push_back(item.path.string());
    return files;
}

}  // namespace libreyolo
