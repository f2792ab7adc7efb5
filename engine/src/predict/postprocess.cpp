#include "predict/postprocess.h"

#include "kernels/nms_slot.h"
#include "predict/letterbox.h"

namespace libreyolo::predict {

using torch::indexing::Slice;

std::vector<Detection> postprocess_detections(const torch::Tensor& prediction, const PostprocessOptions& o) {
    // Thresholds compare in float32 whatever the network's dtype.
    torch::Tensor pred = prediction.to(torch::kFloat32).transpose(0, 1);  // (anchors, 4 + nc)
    torch::Tensor scores = pred.index({Slice(), Slice(4, torch::indexing::None)});
    std::vector<torch::Tensor> candidates = torch::nonzero(scores > o.conf).unbind(1);
    if (candidates.empty() || candidates[0].numel() == 0) return {};
    torch::Tensor anchor_idx = candidates[0], class_ids = candidates[1];

    torch::Tensor boxes = pred.index({anchor_idx, Slice(0, 4)});
    torch::Tensor conf = scores.index({anchor_idx, class_ids});
    const int64_t max_nms = std::max<int64_t>(o.max_det, kMaxNmsCandidates);
    if (conf.numel() > max_nms) {
        torch::Tensor top = std::get<1>(conf.topk(max_nms));
        boxes = boxes.index_select(0, top);
        conf = conf.index_select(0, top);
        class_ids = class_ids.index_select(0, top);
    }
    // Everything up to the kept detections runs where the prediction is (the GPU, for a CUDA
    // model), so a CUDA NMS in the kernel registry applies; the portable one copies to the host.
    // Top-left padding: undoing the letterbox is a division by the ratio.
    const LetterboxGeometry g = letterbox_geometry(o.orig_h, o.orig_w, o.input_h, o.input_w);
    boxes = boxes / g.ratio;
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

    torch::Tensor kb = boxes.index_select(0, keep).to(torch::kCPU).contiguous();
    torch::Tensor ks = conf.index_select(0, keep).to(torch::kCPU).contiguous();
    torch::Tensor kc = class_ids.index_select(0, keep).to(torch::kCPU).contiguous();
    auto b = kb.accessor<float, 2>();
    auto s = ks.accessor<float, 1>();
    auto c = kc.accessor<int64_t, 1>();
    std::vector<Detection> out;
    out.reserve(keep.numel());
    for (int64_t i = 0; i < keep.numel(); ++i)
        out.push_back(Detection{b[i][0], b[i][1], b[i][2], b[i][3], s[i], static_cast<int>(c[i])});
    return out;
}

}  // namespace libreyolo::predict
