#include "predict/frame_batch.h"

#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string_view>

#include "image/preprocess.h"
#include "kernels/letterbox_slot.h"
#include "model/model_impl.h"
#include "predict/candidates.h"
#include "predict/postprocess.h"

namespace libreyolo {
namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// LibreYOLO's DEFAULT_MAX_DET: with a class filter, postprocessing keeps at least this many so
// that a small max_det is not spent on other classes.
constexpr int kDefaultMaxDet = 300;

// The fused path on a CUDA device takes 8-bit pixels to the device and letterboxes them there, in
// its graph: the resampling is OpenCV's INTER_LINEAR, which the letterbox slot computes; Pillow's
// (YOLOX, D-FINE) stays on the host. A batch's images must share one size. LIBREYOLO_FUSED_PIXELS=0
// keeps the host's preprocessing, for comparisons (bench_graph_inference).
bool pixels_to_device(const Model::Impl& m, const std::vector<Frame>& frames, const PredictOptions& o,
                      InputResize how) {
    if (!o.fuse || !m.device.is_cuda() || (how != InputResize::Letterbox && how != InputResize::Stretch)) return false;
    if (const char* pixels = std::getenv("LIBREYOLO_FUSED_PIXELS"); pixels && std::string_view(pixels) == "0")
        return false;
    return std::all_of(frames.begin(), frames.end(), [&](const Frame& f) { return f.rgb.size == frames[0].rgb.size; });
}

}  // namespace

Frame decoded_frame(cv::Mat bgr, std::string path, int frame) {
    cv::Mat rgb;
    cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
    return {std::move(rgb), std::move(bgr), std::move(path), frame};
}

void keep_classes(std::vector<Detection>& boxes, const std::vector<int>& classes, int max_det) {
    if (classes.empty()) return;
    std::erase_if(
        boxes, [&](const Detection& d) { return std::find(classes.begin(), classes.end(), d.cls) == classes.end(); });
    if (static_cast<int>(boxes.size()) <= max_det) return;
    std::vector<std::size_t> order(boxes.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return boxes[a].conf > boxes[b].conf; });
    order.resize(static_cast<std::size_t>(max_det));
    std::sort(order.begin(), order.end());
    std::vector<Detection> kept;
    for (std::size_t i : order) kept.push_back(boxes[i]);
    boxes = std::move(kept);
}

std::vector<Result> run_batch(Model::Impl& m, const std::vector<Frame>& frames, const PredictOptions& o) {
    const int imgsz = m.input_size(o.imgsz);
    const FamilyTraits& traits = family_traits(m.spec.name.family);
    auto t0 = Clock::now();
    std::vector<cv::Mat> rgb;
    for (const auto& f : frames) rgb.push_back(f.rgb);
    const bool on_device = pixels_to_device(m, frames, o, traits.input_resize);
    torch::Tensor input = on_device ? image::upload_pixels(rgb, m.device)
                                    : image::prepare_input(rgb, imgsz, traits.input_resize, m.device, m.dtype);
    const double pre = ms_since(t0);

    t0 = Clock::now();
    // The fused GPU path selects the candidates in its forward (and graph); NMS-free and best-class
    // families keep their own selection.
    const bool candidates = o.fuse && !traits.nms_free && !traits.best_class_only && m.has_fused_candidates();
    const std::optional<float> candidates_over = candidates ? std::optional<float>(o.conf) : std::nullopt;
    torch::Tensor output;
    {
        torch::InferenceMode guard;
        // Post-processing (never captured) selects the candidates where the output is.
        if (on_device)
            output = m.forward_pixels(
                input,
                kernels::input_canvas(rgb[0].rows, rgb[0].cols, imgsz, imgsz, is_stretch(traits.input_resize), m.dtype,
                                      /*channels_last=*/true),
                o.cuda_graph, candidates_over);
        else
            output = m.forward(input, o.cuda_graph, o.fuse, candidates_over);
        if (m.device.is_cuda()) torch::cuda::synchronize(m.device.index());  // for the stage timings
    }
    const double infer = ms_since(t0);

    t0 = Clock::now();
    std::optional<predict::PackedCandidates> packed;
    if (candidates) packed.emplace(output);
    std::vector<Result> results;
    for (std::size_t i = 0; i < frames.size(); ++i) {
        predict::PostprocessOptions po;
        po.conf = o.conf;
        po.iou = o.iou;
        po.max_det = o.classes.empty() ? o.max_det : std::max(o.max_det, kDefaultMaxDet);
        po.input_h = po.input_w = imgsz;
        po.orig_h = frames[i].rgb.rows;
        po.orig_w = frames[i].rgb.cols;
        po.resize = traits.input_resize;
        po.best_class_only = traits.best_class_only;
        Result r;
        r.path = frames[i].path;
        r.frame = frames[i].frame;
        r.orig_h = po.orig_h;
        r.orig_w = po.orig_w;
        r.names = m.meta.names;
        const auto image = static_cast<int64_t>(i);
        if (packed)
            r.boxes = packed->detections(image, po);
        else if (traits.nms_free)
            r.boxes = predict::top_k_detections(output[image], po);
        else
            r.boxes = predict::postprocess_detections(output[image], po);
        keep_classes(r.boxes, o.classes, o.max_det);
        results.push_back(std::move(r));
    }
    const double post = ms_since(t0);
    const double n = static_cast<double>(frames.size());
    for (auto& r : results) r.speed = Speed{pre / n, infer / n, post / n};
    return results;
}

}  // namespace libreyolo
