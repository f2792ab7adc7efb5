#include "image/raw_image_codecs.h"

#include <opencv2/imgproc.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "libreyolo/errors.h"

namespace libreyolo::image {
namespace {

std::uint32_t le32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
std::uint16_t le16(const unsigned char* p) {
    return std::uint16_t(p[0] | p[1] << 8);
}
void put32(unsigned char* p, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) p[i] = static_cast<unsigned char>(v >> (8 * i));
}
void put16(unsigned char* p, std::uint16_t v) {
    p[0] = static_cast<unsigned char>(v);
    p[1] = static_cast<unsigned char>(v >> 8);
}

void finish(std::ofstream& out, const std::filesystem::path& path) {
    out.flush();
    if (!out) throw Error(path.string() + ": cannot write image");
}

}  // namespace

cv::Mat read_ppm(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::string magic;
    int width = 0, height = 0, maxval = 0;
    if (!(in >> magic >> width >> height >> maxval) || magic != "P6" || width <= 0 || height <= 0 || maxval != 255)
        return {};
    in.get();  // the single whitespace before the pixels
    cv::Mat rgb(height, width, CV_8UC3);
    if (!in.read(reinterpret_cast<char*>(rgb.data), static_cast<std::streamsize>(rgb.total() * 3))) return {};
    cv::Mat bgr;
    cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
    return bgr;
}

void write_ppm(const std::filesystem::path& path, const cv::Mat& bgr) {
    cv::Mat rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    std::ofstream out(path, std::ios::binary);
    out << "P6\n" << rgb.cols << " " << rgb.rows << "\n255\n";
    out.write(reinterpret_cast<const char*>(rgb.data), static_cast<std::streamsize>(rgb.total() * 3));
    finish(out, path);
}

cv::Mat read_bmp(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::array<unsigned char, 54> h{};
    if (!in.read(reinterpret_cast<char*>(h.data()), h.size()) || h[0] != 'B' || h[1] != 'M') return {};
    const std::uint32_t offset = le32(&h[10]), info_size = le32(&h[14]);
    const auto width = static_cast<std::int32_t>(le32(&h[18])), height = static_cast<std::int32_t>(le32(&h[22]));
    if (info_size < 40 || le16(&h[26]) != 1 || le16(&h[28]) != 24 || le32(&h[30]) != 0) return {};
    if (width <= 0 || height == 0 || width > (1 << 16) || std::abs(height) > (1 << 16)) return {};
    const int rows = std::abs(height);
    const std::size_t stride = (std::size_t(width) * 3 + 3) & ~std::size_t(3);
    cv::Mat bgr(rows, width, CV_8UC3);
    std::vector<char> row(stride);
    in.seekg(offset);
    for (int r = 0; r < rows; ++r) {
        if (!in.read(row.data(), static_cast<std::streamsize>(stride))) return {};
        // Positive height: rows stored bottom-up.
        const int y = height > 0 ? rows - 1 - r : r;
        std::memcpy(bgr.ptr(y), row.data(), std::size_t(width) * 3);
    }
    return bgr;
}

void write_bmp(const std::filesystem::path& path, const cv::Mat& bgr) {
    const std::size_t stride = (std::size_t(bgr.cols) * 3 + 3) & ~std::size_t(3);
    const auto pixels = static_cast<std::uint32_t>(stride * std::size_t(bgr.rows));
    std::array<unsigned char, 54> h{};
    h[0] = 'B';
    h[1] = 'M';
    put32(&h[2], 54 + pixels);
    put32(&h[10], 54);
    put32(&h[14], 40);
    put32(&h[18], static_cast<std::uint32_t>(bgr.cols));
    put32(&h[22], static_cast<std::uint32_t>(bgr.rows));
    put16(&h[26], 1);
    put16(&h[28], 24);
    put32(&h[34], pixels);
    put32(&h[38], 2835);  // 72 dpi, as most writers put
    put32(&h[42], 2835);
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char*>(h.data()), h.size());
    std::vector<char> row(stride, 0);
    for (int y = bgr.rows - 1; y >= 0; --y) {
        std::memcpy(row.data(), bgr.ptr(y), std::size_t(bgr.cols) * 3);
        out.write(row.data(), static_cast<std::streamsize>(stride));
    }
    finish(out, path);
}

}  // namespace libreyolo::image
