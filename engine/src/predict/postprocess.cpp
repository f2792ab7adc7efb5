#include "predict/postprocess.h"

#include "image/input_resize.h"
#include "kernels/nms_slot.h"

namespace libreyolo::predict {

using torch::indexing::Slice;

namespace {

std::vector<Detection> to_detections(const torch::Tensor& boxes, const torch::Tensor& conf,
                                     const torch::Tensor& class_ids) {
    const torch::Tensor kb = boxes.to(torch::kCPU).contiguous();
    const torch::Tensor ks = conf.to(torch::kCPU).contiguous();
    const torch::Tensor kc = class_ids.to(torch::kCPU).contiguous();
    auto b = kb.accessor<float, 2>();
    auto s = ks.accessor<float, 1>();
    auto c = kc.accessor<int64_t, 1>();
    std::vector<Detection> out;
    out.reserve(kb.size(0));
    for (int64_t i = 0; i < kb.size(0); ++i)
        out.push_back(Detection{b[i][0], b[i][1], b[i][2], b[i][3], s[i], static_cast<int>(c[i])});
    return out;
}

}  // namespace

std::vector<Detection> postprocess_detections(const torch::Tensor& prediction, const PostprocessOptions& o) {
    // Thresholds compare in float32 whatever the network's dtype.
    torch::Tensor pred = prediction.to(torch::kFloat32).transpose(0, 1);  // (anchors, 4 + nc)
    torch::Tensor scores = pred.index({Slice(), Slice(4, torch::indexing::None)});
    torch::Tensor boxes, conf, class_ids;
    if (o.best_class_only) {
        auto [best, best_class] = scores.max(1);
        const torch::Tensor anchor_idx = torch::nonzero(best > o.conf).view(-1);
        if (anchor_idx.numel() == 0) return {};
        boxes = pred.index({anchor_idx, Slice(0, 4)});
        conf = best.index_select(0, anchor_idx);
        class_ids = best_class.index_select(0, anchor_idx);
    } else {
        std::vector<torch::Tensor> candidates = torch::nonzero(scores > o.conf).unbind(1);
        if (candidates.empty() || candidates[0].numel() == 0) return {};
        boxes = pred.index({candidates[0], Slice(0, 4)});
        conf = scores.index({candidates[0], candidates[1]});
        class_ids = candidates[1];
    }
    return detections_of_candidates(boxes, conf, class_ids, o);
}

std::vector<Detection> detections_of_candidates(torch::Tensor boxes, torch::Tensor conf, torch::Tensor class_ids,
                                                const PostprocessOptions& o) {
    const int64_t max_nms = std::max<int64_t>(o.max_det, kMaxNmsCandidates);
    if (!o.best_class_only && conf.numel() > max_nms) {
        torch::Tensor top = std::get<1>(conf.topk(max_nms));
        boxes = boxes.index_select(0, top);
        conf = conf.index_select(0, top);
        class_ids = class_ids.index_select(0, top);
    }
    // Everything up to the kept detections runs where the prediction is (the GPU, for a CUDA
    // model), so a CUDA NMS in the kernel registry applies; the portable one copies to the host.
    boxes = image::boxes_to_original(boxes, o.orig_h, o.orig_w, o.input_h, o.input_w, o.resize);
    boxes.index_put_({Slice(), Slice(0, 4, 2)}, boxes.index({Slice(), Slice(0, 4, 2)}).clamp(0, o.orig_w));
    boxes.index_put_({Slice(), Slice(1, 4, 2)}, boxes.index({Slice(), Slice(1, 4, 2)}).clamp(0, o.orig_h));

    torch::Tensor valid = (boxes.select(1, 2) - boxes.select(1, 0) > 0) & (boxes.select(1, 3) - boxes.select(1, 1) > 0);
    valid &= torch::isfinite(boxes).all(1) & torch::isfinite(conf);
    if (!valid.all().item<bool>()) {
        torch::Tensor idx = torch::nonzero(valid).view(-1);
        boxes = boxes.index_select(0, idx);
        conf = conf.index_select(0, idx);
        class_ids = class_ids.index_select(0, idx);
    }
    if (boxes.size(0) == 0) return {};

    torch::Tensor keep = kernels::nms_slot()(boxes, conf, class_ids, o.iou).to(boxes.device());
    if (keep.numel() > o.max_det) {
        torch::Tensor order = std::get<1>(conf.index_select(0, keep).topk(o.max_det));
        keep = keep.index_select(0, order);
    }

    return to_detections(boxes.index_select(0, keep), conf.index_select(0, keep), class_ids.index_select(0, keep));
}

std::vector<Detection> top_k_detections(const torch::Tensor& prediction, const PostprocessOptions& o) {
    const torch::Tensor pred = prediction.to(torch::kFloat32);
    // (queries, nc) flattened row-major: entry q·nc + c, LibreYOLO's order, so ties break alike.
    const torch::Tensor scores = pred.index({Slice(4, torch::indexing::None)}).transpose(0, 1).flatten();
    const int64_t nc = pred.size(0) - 4;
    if (nc <= 0 || scores.numel() == 0) return {};
    auto [top_scores, top_index] = scores.topk(std::min<int64_t>(o.max_det, scores.numel()));
    const torch::Tensor above = top_scores > o.conf;
    top_scores = top_scores.index({above});
    top_index = top_index.index({above});
    const torch::Tensor queries = top_index.div(nc, "floor"), classes = top_index.remainder(nc);
    const torch::Tensor boxes = pred.index({Slice(0, 4)}).transpose(0, 1).index_select(0, queries);
    return to_detections(image::boxes_to_original(boxes, o.orig_h, o.orig_w, o.input_h, o.input_w, o.resize),
                         top_scores, classes);
}

}  // namespace libreyolo::predict
