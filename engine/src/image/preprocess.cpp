#include "image/preprocess.h"

#include <opencv2/imgproc.hpp>

#include <cstring>

#include "image/input_resize.h"
#include "libreyolo/errors.h"

namespace libreyolo::image {

torch::Tensor to_input_tensor(const std::vector<cv::Mat>& canvases, torch::Device device, torch::Dtype dtype) {
    std::vector<torch::Tensor> images;
    for (const cv::Mat& c : canvases) {
        cv::Mat contiguous = c.isContinuous() ? c : c.clone();
        images.push_back(torch::from_blob(contiguous.data, {contiguous.rows, contiguous.cols, 3}, torch::kUInt8));
    }
    // stack copies out of the canvases before they go away.
    const torch::Tensor hwc = torch::stack(images).to(device);
    // The layout change happens on the bytes; one float pass, then the cast.
    return hwc.permute({0, 3, 1, 2}).contiguous().to(torch::kFloat32).div_(255.0).to(dtype);
}

torch::Tensor prepare_input(const std::vector<cv::Mat>& rgb, int imgsz, InputResize how, torch::Device device,
                            torch::Dtype dtype) {
    std::vector<cv::Mat> canvases;
    canvases.reserve(rgb.size());
    for (const cv::Mat& image : rgb) canvases.push_back(resize_to_input(image, imgsz, imgsz, how));
    return to_input_tensor(canvases, device, dtype);
}

torch::Tensor upload_pixels(const std::vector<cv::Mat>& rgb, torch::Device device) {
    const int h = rgb.at(0).rows, w = rgb.at(0).cols;
    const auto batch = static_cast<int64_t>(rgb.size());
    // LibTorch's caching host allocator keeps the page-locked block from being reused until the
    // copy started below has read it.
    torch::Tensor host =
        torch::empty({batch, h, w, 3}, torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(true));
    const std::size_t row_bytes = static_cast<std::size_t>(w) * 3;
    auto* out = host.data_ptr<std::uint8_t>();
    for (const cv::Mat& image : rgb) {
        if (image.rows != h || image.cols != w || image.type() != CV_8UC3)
            throw InvalidArgument("upload_pixels: the images of a batch must be 8-bit RGB of one size");
        for (int y = 0; y < h; ++y, out += row_bytes) std::memcpy(out, image.ptr(y), row_bytes);
    }
    return host.to(device, /*non_blocking=*/true).permute({0, 3, 1, 2});
}

cv::Mat to_rgb(const ImageView& image) {
    if (image.data == nullptr || image.width <= 0 || image.height <= 0)
        throw InvalidArgument("image: empty in-memory image");
    int channels = 3, code = -1;
    switch (image.format) {
        case PixelFormat::RGB8:
            break;
        case PixelFormat::BGR8:
            code = cv::COLOR_BGR2RGB;
            break;
        case PixelFormat::RGBA8:
            channels = 4;
            code = cv::COLOR_RGBA2RGB;
            break;
        case PixelFormat::BGRA8:
            channels = 4;
            code = cv::COLOR_BGRA2RGB;
            break;
        case PixelFormat::Gray8:
            channels = 1;
            code = cv::COLOR_GRAY2RGB;
            break;
    }
    const std::size_t step = image.bytes_per_line > 0 ? static_cast<std::size_t>(image.bytes_per_line)
                                                      : static_cast<std::size_t>(image.width) * channels;
    if (step < static_cast<std::size_t>(image.width) * channels)
        throw InvalidArgument("image: bytes_per_line " + std::to_string(step) + " is shorter than a row");
    cv::Mat view(image.height, image.width, CV_8UC(channels), const_cast<std::uint8_t*>(image.data), step);
    cv::Mat rgb;
    if (code < 0)
        rgb = view.clone();
    else
        cv::cvtColor(view, rgb, code);
    return rgb;
}

}  // namespace libreyolo::image
