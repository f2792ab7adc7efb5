// A port of the parts of pycocotools' COCOeval (evaluateImg, accumulate, summarize) that bounding
// box mAP uses, kept to the same order of operations so that the numbers agree to rounding.
#include "libreyolo/metrics.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>

namespace libreyolo {
namespace {

constexpr int kThresholds = 10;
constexpr int kRecallPoints = 101;

double threshold(int i) {
    return i == kThresholds - 1 ? 0.95 : 0.5 + i * ((0.95 - 0.5) / (kThresholds - 1));
}
double recall_point(int i) {
    return i == kRecallPoints - 1 ? 1.0 : i * (1.0 / (kRecallPoints - 1));
}

// pycocotools keeps boxes as x, y, w, h; the IoU is computed from those, in doubles.
struct Xywh {
    double x, y, w, h;
};
Xywh to_xywh(const EvalBox& b) {
    return {b.x1, b.y1, b.x2 - b.x1, b.y2 - b.y1};
}

double iou(const Xywh& d, const Xywh& g) {
    const double w = std::min(d.x + d.w, g.x + g.w) - std::max(d.x, g.x);
    if (w <= 0) return 0;
    const double h = std::min(d.y + d.h, g.y + g.h) - std::max(d.y, g.y);
    if (h <= 0) return 0;
    const double inter = w * h;
    return inter / (d.w * d.h + g.w * g.h - inter);
}

// One image and class: detections (best first, at most max_detections) and whether each matched
// at each IoU threshold.
struct ImageEval {
    std::vector<double> scores;
    std::vector<std::array<bool, kThresholds>> matched;
};

ImageEval evaluate_image(std::vector<const EvalBox*> dets, const std::vector<const EvalBox*>& gts, int max_dets) {
    std::stable_sort(dets.begin(), dets.end(), [](const EvalBox* a, const EvalBox* b) { return a->score > b->score; });
    if (static_cast<int>(dets.size()) > max_dets) dets.resize(max_dets);
    ImageEval e;
    std::vector<Xywh> g(gts.size());
    for (std::size_t j = 0; j < gts.size(); ++j) g[j] = to_xywh(*gts[j]);
    std::vector<std::vector<double>> ious(dets.size(), std::vector<double>(gts.size()));
    for (std::size_t i = 0; i < dets.size(); ++i) {
        const Xywh d = to_xywh(*dets[i]);
        for (std::size_t j = 0; j < gts.size(); ++j) ious[i][j] = iou(d, g[j]);
    }
    e.scores.reserve(dets.size());
    for (const auto* d : dets) e.scores.push_back(d->score);
    e.matched.assign(dets.size(), {});
    for (int t = 0; t < kThresholds; ++t) {
        std::vector<bool> gt_taken(gts.size(), false);
        for (std::size_t i = 0; i < dets.size(); ++i) {
            double best = std::min(threshold(t), 1 - 1e-10);
            int match = -1;
            for (std::size_t j = 0; j < gts.size(); ++j) {
                if (gt_taken[j]) continue;
                if (ious[i][j] < best) continue;
                best = ious[i][j];
                match = static_cast<int>(j);
            }
            if (match < 0) continue;
            e.matched[i][t] = true;
            gt_taken[match] = true;
        }
    }
    return e;
}

}  // namespace

DetectionMetrics coco_map(const std::vector<int>& image_ids, const std::vector<EvalBox>& ground_truth,
                          const std::vector<EvalBox>& detections, int num_classes, int max_detections) {
    // (image, class) → boxes, in input order.
    std::map<std::pair<int, int>, std::vector<const EvalBox*>> gts, dets;
    for (const auto& g : ground_truth) gts[{g.image, g.cls}].push_back(&g);
    for (const auto& d : detections) dets[{d.image, d.cls}].push_back(&d);

    DetectionMetrics m;
    m.images = static_cast<int>(image_ids.size());
    m.per_class_map50.assign(num_classes, -1);
    m.per_class_map50_95.assign(num_classes, -1);
    m.per_class_instances.assign(num_classes, 0);
    double sum_all = 0, sum_50 = 0;
    int count_all = 0, count_50 = 0;

    for (int k = 0; k < num_classes; ++k) {
        std::vector<double> scores;
        std::vector<std::array<bool, kThresholds>> matched;
        int positives = 0;
        for (int image : image_ids) {
            const auto g = gts.find({image, k});
            const auto d = dets.find({image, k});
            const std::vector<const EvalBox*> no_boxes;
            const auto& gl = g == gts.end() ? no_boxes : g->second;
            const auto& dl = d == dets.end() ? no_boxes : d->second;
            positives += static_cast<int>(gl.size());
            if (gl.empty() && dl.empty()) continue;
            const ImageEval e = evaluate_image(dl, gl, max_detections);
            scores.insert(scores.end(), e.scores.begin(), e.scores.end());
            matched.insert(matched.end(), e.matched.begin(), e.matched.end());
        }
        m.per_class_instances[k] = positives;
        m.instances += positives;
        if (positives == 0) continue;

        std::vector<std::size_t> order(scores.size());
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });

        double class_sum = 0;
        for (int t = 0; t < kThresholds; ++t) {
            const std::size_t n = order.size();
            std::vector<double> recall(n), precision(n);
            double tp = 0, fp = 0;
            for (std::size_t i = 0; i < n; ++i) {
                (matched[order[i]][t] ? tp : fp) += 1;
                recall[i] = tp / positives;
                precision[i] = tp / (fp + tp + std::numeric_limits<double>::epsilon());
            }
            for (std::size_t i = n; i-- > 1;)
                if (precision[i] > precision[i - 1]) precision[i - 1] = precision[i];
            double ap_sum = 0;
            for (int r = 0; r < kRecallPoints; ++r) {
                const auto it = std::lower_bound(recall.begin(), recall.end(), recall_point(r));
                ap_sum += it == recall.end() ? 0.0 : precision[static_cast<std::size_t>(it - recall.begin())];
            }
            class_sum += ap_sum;
            sum_all += ap_sum;
            count_all += kRecallPoints;
            if (t == 0) {
                sum_50 += ap_sum;
                count_50 += kRecallPoints;
                m.per_class_map50[k] = ap_sum / kRecallPoints;
            }
        }
        m.per_class_map50_95[k] = class_sum / (kThresholds * kRecallPoints);
    }
    m.map50_95 = count_all ? sum_all / count_all : -1;
    m.map50 = count_50 ? sum_50 / count_50 : -1;
    return m;
}

}  // namespace libreyolo
