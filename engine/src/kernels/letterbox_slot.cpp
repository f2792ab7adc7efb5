#include "kernels/letterbox_slot.h"

#include <algorithm>
#include <string>

#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/letterbox_cuda.h"
#include "kernels/in_tree_cuda.h"
#endif

namespace libreyolo::kernels {
namespace {

void check_fits(const torch::Tensor& pixels, const InputCanvas& c) {
    if (pixels.dim() != 4 || pixels.size(1) != 3 || pixels.scalar_type() != torch::kUInt8)
        throw InvalidArgument("letterbox: pixels must be (B, 3, H, W) uint8");
    if (pixels.size(2) < 1 || pixels.size(3) < 1 || c.image_height < 1 || c.image_width < 1 ||
        c.image_height > c.height || c.image_width > c.width)
        throw InvalidArgument("letterbox: a " + std::to_string(c.image_height) + "x" + std::to_string(c.image_width) +
                              " image does not fit a " + std::to_string(c.height) + "x" + std::to_string(c.width) +
                              " canvas");
}

// OpenCV INTER_LINEAR's source coordinates for `out` output positions from `in` input ones: the
// first of the two source indices, the second, and the second's weight.
struct Taps {
    torch::Tensor first, second, weight;
};

Taps linear_taps(int64_t in, int64_t out, const torch::Device& device) {
    const auto f32 = torch::TensorOptions().dtype(torch::kFloat32).device(device);
    const float scale = static_cast<float>(static_cast<double>(in) / static_cast<double>(out));
    torch::Tensor source = ((torch::arange(out, f32) + 0.5f) * scale - 0.5f).clamp_min(0.0f);
    torch::Tensor first = source.floor();
    torch::Tensor weight = source - first;
    // Past the last pixel the edge repeats: both taps on it, weight 0.
    const torch::Tensor past = first >= static_cast<float>(in - 1);
    first = first.clamp_max(static_cast<float>(in - 1));
    weight = weight.masked_fill(past, 0.0f);
    const torch::Tensor first_index = first.to(torch::kLong);
    return {first_index, (first_index + 1).clamp_max(in - 1), weight};
}

}  // namespace

InputCanvas input_canvas(int64_t h, int64_t w, int64_t input_h, int64_t input_w, bool stretch, torch::Dtype dtype,
                         bool channels_last) {
    if (h < 1 || w < 1 || input_h < 1 || input_w < 1)
        throw InvalidArgument("letterbox: sizes must be positive, got image " + std::to_string(h) + "x" +
                              std::to_string(w) + ", input " + std::to_string(input_h) + "x" + std::to_string(input_w));
    InputCanvas c;
    c.height = input_h;
    c.width = input_w;
    c.dtype = dtype;
    c.channels_last = channels_last;
    if (stretch) {
        c.image_height = input_h;
        c.image_width = input_w;
        return c;
    }
    // image::letterbox_geometry's rule (Python's int(orig * ratio)).
    const double ratio = std::min(static_cast<double>(input_h) / h, static_cast<double>(input_w) / w);
    c.image_height = std::max<int64_t>(static_cast<int64_t>(h * ratio), 1);
    c.image_width = std::max<int64_t>(static_cast<int64_t>(w * ratio), 1);
    return c;
}

torch::Tensor letterbox_reference(const torch::Tensor& pixels, const InputCanvas& c) {
    check_fits(pixels, c);
    const torch::Device device = pixels.device();
    const Taps rows = linear_taps(pixels.size(2), c.image_height, device);
    const Taps cols = linear_taps(pixels.size(3), c.image_width, device);
    const torch::Tensor p = pixels.to(torch::kFloat32);
    const torch::Tensor wx = cols.weight.view({1, 1, 1, -1}), wy = rows.weight.view({1, 1, -1, 1});
    auto across = [&](const torch::Tensor& row) {
        return row.index_select(3, cols.first) * (1.0f - wx) + row.index_select(3, cols.second) * wx;
    };
    const torch::Tensor top = across(p.index_select(2, rows.first));
    const torch::Tensor bottom = across(p.index_select(2, rows.second));
    const torch::Tensor image = (top * (1.0f - wy) + bottom * wy) * kPixelScale;
    const auto format = c.channels_last ? torch::MemoryFormat::ChannelsLast : torch::MemoryFormat::Contiguous;
    torch::Tensor canvas = torch::empty({pixels.size(0), 3, c.height, c.width}, p.options().memory_format(format))
                               .fill_(static_cast<float>(c.fill) * kPixelScale);
    using torch::indexing::Slice;
    canvas.index_put_({Slice(), Slice(), Slice(0, c.image_height), Slice(0, c.image_width)}, image);
    return canvas.to(c.dtype);
}

Slot<LetterboxSignature>& letterbox_slot() {
    static Slot<LetterboxSignature>& slot = []() -> Slot<LetterboxSignature>& {
        static Slot<LetterboxSignature> s("letterbox",
                                          "8-bit pixels -> network input: bilinear resize (OpenCV INTER_LINEAR), "
                                          "letterbox or stretch, /255, dtype and layout: (pixels, canvas) -> input",
                                          &letterbox_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::letterbox, &cuda::letterbox_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
