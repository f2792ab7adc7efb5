#include "image/pil_resize.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "libreyolo/errors.h"

namespace libreyolo::image {
namespace {

// Pillow's PRECISION_BITS for 8-bit images: 255 × 2^22 and the rounding half fit in an int32.
constexpr int kPrecisionBits = 32 - 8 - 2;

// For every output position along one axis: the first input index, how many inputs, and their
// fixed-point weights (ksize per position, zero-padded).
struct AxisWeights {
    int ksize = 0;
    std::vector<int> first, count;
    std::vector<int32_t> weights;
};

double triangle(double x) {
    x = std::abs(x);
    return x < 1.0 ? 1.0 - x : 0.0;
}

// Pillow's precompute_coeffs with the bilinear filter (support 1) over the whole input, then
// normalize_coeffs_8bpc. The casts truncate as C's (int) does; the arithmetic is in double.
AxisWeights axis_weights(int in_size, int out_size) {
    const double scale = static_cast<double>(in_size) / out_size;
    const double filterscale = std::max(scale, 1.0);
    const double support = 1.0 * filterscale;
    AxisWeights a;
    a.ksize = static_cast<int>(std::ceil(support)) * 2 + 1;
    a.first.resize(out_size);
    a.count.resize(out_size);
    a.weights.assign(static_cast<std::size_t>(out_size) * a.ksize, 0);
    std::vector<double> k(a.ksize);
    for (int xx = 0; xx < out_size; ++xx) {
        const double center = (xx + 0.5) * scale;
        const double ss = 1.0 / filterscale;
        int xmin = static_cast<int>(center - support + 0.5);
        xmin = std::max(xmin, 0);
        int xmax = static_cast<int>(center + support + 0.5);
        xmax = std::min(xmax, in_size) - xmin;
        double ww = 0.0;
        for (int x = 0; x < xmax; ++x) {
            k[x] = triangle((x + xmin - center + 0.5) * ss);
            ww += k[x];
        }
        int32_t* out = &a.weights[static_cast<std::size_t>(xx) * a.ksize];
        for (int x = 0; x < xmax; ++x) {
            const double w = ww != 0.0 ? k[x] / ww : k[x];
            const double fixed = w * (1 << kPrecisionBits);
            out[x] = static_cast<int32_t>(w < 0 ? -0.5 + fixed : 0.5 + fixed);
        }
        a.first[xx] = xmin;
        a.count[xx] = xmax;
    }
    return a;
}

uint8_t clip8(int32_t sum) {
    return static_cast<uint8_t>(std::clamp(sum >> kPrecisionBits, 0, 255));
}

cv::Mat resample_horizontal(const cv::Mat& in, int out_w) {
    const AxisWeights a = axis_weights(in.cols, out_w);
    const int channels = in.channels();
    cv::Mat out(in.rows, out_w, in.type());
    for (int y = 0; y < in.rows; ++y) {
        const uint8_t* src = in.ptr<uint8_t>(y);
        uint8_t* dst = out.ptr<uint8_t>(y);
        for (int xx = 0; xx < out_w; ++xx) {
            const int32_t* k = &a.weights[static_cast<std::size_t>(xx) * a.ksize];
            for (int c = 0; c < channels; ++c) {
                int32_t sum = 1 << (kPrecisionBits - 1);
                for (int x = 0; x < a.count[xx]; ++x) sum += src[(x + a.first[xx]) * channels + c] * k[x];
                dst[xx * channels + c] = clip8(sum);
            }
        }
    }
    return out;
}

cv::Mat resample_vertical(const cv::Mat& in, int out_h) {
    const AxisWeights a = axis_weights(in.rows, out_h);
    const int row_bytes = in.cols * in.channels();
    cv::Mat out(out_h, in.cols, in.type());
    for (int yy = 0; yy < out_h; ++yy) {
        const int32_t* k = &a.weights[static_cast<std::size_t>(yy) * a.ksize];
        uint8_t* dst = out.ptr<uint8_t>(yy);
        for (int i = 0; i < row_bytes; ++i) {
            int32_t sum = 1 << (kPrecisionBits - 1);
            for (int y = 0; y < a.count[yy]; ++y) sum += in.ptr<uint8_t>(y + a.first[yy])[i] * k[y];
            dst[i] = clip8(sum);
        }
    }
    return out;
}

}  // namespace

cv::Mat pil_bilinear_resize(const cv::Mat& image, int out_w, int out_h) {
    if (image.empty() || image.depth() != CV_8U)
        throw InvalidArgument("pil_bilinear_resize: needs a non-empty 8-bit image");
    if (out_w <= 0 || out_h <= 0)
        throw InvalidArgument("pil_bilinear_resize: output size must be positive, got " + std::to_string(out_w) + "x" +
                              std::to_string(out_h));
    // Pillow skips a pass whose axis keeps its size (its box is the whole image), and since 13.0
    // runs the vertical pass first when the height shrinks by more than twice as many pixels as
    // the width does; the 8-bit rounding between the passes makes the order visible.
    const int shrink_h = image.rows - out_h, shrink_w = image.cols - out_w;
    const bool vertical_first = shrink_h > 0 && shrink_h > shrink_w * 2;
    cv::Mat out = image;
    if (vertical_first && out_h != image.rows) out = resample_vertical(out, out_h);
    if (out_w != image.cols) out = resample_horizontal(out, out_w);
    if (!vertical_first && out_h != image.rows) out = resample_vertical(out, out_h);
    return out.data == image.data ? image.clone() : out;
}

}  // namespace libreyolo::image
