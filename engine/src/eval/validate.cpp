#include "libreyolo/validate.h"

#include <chrono>

#include "image/media_io.h"
#include "libreyolo/dataset.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo {

ValResult validate(Model& model, const std::string& data_yaml, const ValOptions& o,
                   const std::function<void(int, int)>& progress) {
    const DatasetConfig config = load_dataset_config(data_yaml);
    const ModelInfo info = model.info();
    const int nc = static_cast<int>(config.names.size());
    if (nc != info.nc)
        throw FormatError(data_yaml + ": the dataset has " + std::to_string(nc) + " classes but the model " +
                          info.source + " has " + std::to_string(info.nc));
    if (o.split == "test" && config.test.empty()) throw FormatError(data_yaml + ": key 'test' is missing");
    const std::vector<LabelledImage> images = load_split_labels(config, o.split);
    if (images.empty()) throw FileNotFound(data_yaml + ": the " + o.split + " split has no images");

    PredictOptions po;
    po.conf = o.conf;
    po.iou = o.iou;
    po.imgsz = o.imgsz;
    po.max_det = o.max_det;
    po.fuse = o.fuse;
    po.batch = std::max(1, o.batch);

    ValResult result;
    result.names = config.names;
    std::vector<int> image_ids;
    std::vector<EvalBox> ground_truth, detections;
    double stage_ms[3] = {0, 0, 0};
    const auto started = std::chrono::steady_clock::now();
    const int total = static_cast<int>(images.size());
    for (int start = 0; start < total; start += po.batch) {
        std::vector<cv::Mat> decoded;  // BGR, as predict takes it without a conversion
        std::vector<int> ids;
        for (int i = start; i < std::min(total, start + po.batch); ++i) {
            cv::Mat bgr = image::read_image(images[i].image);
            if (bgr.empty()) {
                log_warning("val", images[i].image + ": cannot decode image; skipped");
                ++result.skipped;
                continue;
            }
            decoded.push_back(bgr);
            ids.push_back(i);
            const double w = bgr.cols, h = bgr.rows;
            for (const auto& b : images[i].labels.boxes)
                ground_truth.push_back({i, b.cls, (b.cx - b.w / 2) * w, (b.cy - b.h / 2) * h, (b.cx + b.w / 2) * w,
                                        (b.cy + b.h / 2) * h, 1.0, b.area});
        }
        if (decoded.empty()) continue;
        std::vector<ImageView> views;
        for (const auto& m : decoded)
            views.push_back({m.data, m.cols, m.rows, static_cast<int>(m.step), PixelFormat::BGR8});
        const std::vector<Result> results = model.predict(views, po);
        for (std::size_t r = 0; r < results.size(); ++r) {
            const Speed& s = results[r].speed;
            stage_ms[0] += s.preprocess_ms;
            stage_ms[1] += s.inference_ms;
            stage_ms[2] += s.postprocess_ms;
            image_ids.push_back(ids[r]);
            for (const auto& d : results[r].boxes)
                detections.push_back({ids[r], d.cls, d.x1, d.y1, d.x2, d.y2, d.conf});
        }
        if (progress) progress(std::min(total, start + po.batch), total);
    }
    result.images = static_cast<int>(image_ids.size());
    result.metrics = coco_map(image_ids, ground_truth, detections, nc);
    result.total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    if (result.images) {
        result.preprocess_ms = stage_ms[0] / result.images;
        result.inference_ms = stage_ms[1] / result.images;
        result.postprocess_ms = stage_ms[2] / result.images;
        result.total_ms = result.total_s * 1000 / result.images;
    }
    return result;
}

}  // namespace libreyolo
