// A port of what pycocotools' COCOeval does for bounding boxes (evaluateImg, accumulate,
// summarize), kept to the same order of operations so that the numbers agree to rounding, plus
// LibreYOLO's best-confidence sweep over the same matches.
#include "libreyolo/metrics.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>

namespace libreyolo {
namespace {

constexpr int kThresholds = 10;
constexpr int kRecallPoints = 101;
constexpr std::array<int, 3> kMaxDets = {1, 10, 100};
constexpr int kAreas = 4;  // all, small, medium, large
constexpr std::array<std::array<double, 2>, kAreas> kAreaRanges = {
    {{0, 1e10}, {0, 32 * 32}, {32 * 32, 96 * 96}, {96 * 96, 1e10}}};

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
double area_of(const EvalBox& b) {
    return b.area >= 0 ? b.area : (b.x2 - b.x1) * (b.y2 - b.y1);
}

double iou(const Xywh& d, const Xywh& g) {
    const double w = std::min(d.x + d.w, g.x + g.w) - std::max(d.x, g.x);
    if (w <= 0) return 0;
    const double h = std::min(d.y + d.h, g.y + g.h) - std::max(d.y, g.y);
    if (h <= 0) return 0;
    const double inter = w * h;
    return inter / (d.w * d.h + g.w * g.h - inter);
}

// evaluateImg for one image, class and area range: detections best first (at most 100), whether
// each matched a ground truth and whether it is ignored, per IoU threshold.
struct ImageEval {
    std::vector<double> scores;
    std::vector<std::array<bool, kThresholds>> matched, ignored;
    int counted_gts = 0;  // ground truths inside the area range
};

// One image and class, sorted once and shared by the four area ranges.
struct ImageClass {
    std::vector<const EvalBox*> dets;  // best first, at most 100
    std::vector<const EvalBox*> gts;
    std::vector<std::vector<double>> ious;  // dets × gts, gts in input order
};

ImageClass prepare(std::vector<const EvalBox*> dets, std::vector<const EvalBox*> gts) {
    std::stable_sort(dets.begin(), dets.end(), [](const EvalBox* a, const EvalBox* b) { return a->score > b->score; });
    if (dets.size() > std::size_t(kMaxDets.back())) dets.resize(kMaxDets.back());
    ImageClass c{std::move(dets), std::move(gts), {}};
    std::vector<Xywh> g(c.gts.size());
    for (std::size_t j = 0; j < c.gts.size(); ++j) g[j] = to_xywh(*c.gts[j]);
    c.ious.assign(c.dets.size(), std::vector<double>(c.gts.size()));
    for (std::size_t i = 0; i < c.dets.size(); ++i) {
        const Xywh d = to_xywh(*c.dets[i]);
        for (std::size_t j = 0; j < c.gts.size(); ++j) c.ious[i][j] = iou(d, g[j]);
    }
    return c;
}

ImageEval evaluate_image(const ImageClass& c, const std::array<double, 2>& range) {
    auto outside = [&](const EvalBox* b) {
        const double a = area_of(*b);
        return a < range[0] || a > range[1];
    };
    // Ground truths inside the range first, each group in input order (a stable sort on "ignore").
    std::vector<std::size_t> order;
    for (int pass = 0; pass < 2; ++pass)
        for (std::size_t j = 0; j < c.gts.size(); ++j)
            if (outside(c.gts[j]) == (pass == 1)) order.push_back(j);
    std::vector<bool> gt_ignored(order.size());
    ImageEval e;
    for (std::size_t j = 0; j < order.size(); ++j) {
        gt_ignored[j] = outside(c.gts[order[j]]);
        e.counted_gts += gt_ignored[j] ? 0 : 1;
    }
    const std::size_t n = c.dets.size();
    e.scores.reserve(n);
    for (const auto* d : c.dets) e.scores.push_back(d->score);
    e.matched.assign(n, {});
    e.ignored.assign(n, {});
    for (int t = 0; t < kThresholds; ++t) {
        std::vector<bool> gt_taken(order.size(), false);
        for (std::size_t i = 0; i < n; ++i) {
            double best = std::min(threshold(t), 1 - 1e-10);
            int match = -1;
            for (std::size_t j = 0; j < order.size(); ++j) {
                if (gt_taken[j]) continue;
                // Already matched to a counted ground truth: ignored ones (sorted last) cannot win.
                if (match > -1 && !gt_ignored[match] && gt_ignored[j]) break;
                const double v = c.ious[i][order[j]];
                if (v < best) continue;
                best = v;
                match = static_cast<int>(j);
            }
            if (match < 0) {
                // An unmatched detection outside the range does not count against it.
                e.ignored[i][t] = outside(c.dets[i]);
                continue;
            }
            e.matched[i][t] = true;
            e.ignored[i][t] = gt_ignored[match];
            gt_taken[match] = true;
        }
    }
    return e;
}

// accumulate for one class, area and detection cap: the 101-point precision per IoU threshold
// (summed, for the mean) and the final recall per threshold. False when no ground truth counts.
struct Curve {
    std::array<double, kThresholds> precision_sum{};  // over the 101 recall points
    std::array<double, kThresholds> recall{};
};

bool accumulate(const std::vector<const ImageEval*>& evals, int max_det, Curve& out) {
    std::vector<double> scores;
    std::vector<const std::array<bool, kThresholds>*> matched, ignored;
    int positives = 0;
    for (const ImageEval* e : evals) {
        const std::size_t n = std::min(e->scores.size(), std::size_t(max_det));
        for (std::size_t i = 0; i < n; ++i) {
            scores.push_back(e->scores[i]);
            matched.push_back(&e->matched[i]);
            ignored.push_back(&e->ignored[i]);
        }
        positives += e->counted_gts;
    }
    if (positives == 0) return false;
    std::vector<std::size_t> order(scores.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
    const std::size_t n = order.size();
    std::vector<double> recall(n), precision(n);
    for (int t = 0; t < kThresholds; ++t) {
        double tp = 0, fp = 0;
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t k = order[i];
            if (!(*ignored[k])[t]) ((*matched[k])[t] ? tp : fp) += 1;
            recall[i] = tp / positives;
            precision[i] = tp / (fp + tp + std::numeric_limits<double>::epsilon());
        }
        out.recall[t] = n ? recall[n - 1] : 0;
        for (std::size_t i = n; i-- > 1;)
            if (precision[i] > precision[i - 1]) precision[i - 1] = precision[i];
        double sum = 0;
        for (int r = 0; r < kRecallPoints; ++r) {
            const auto it = std::lower_bound(recall.begin(), recall.end(), recall_point(r));
            sum += it == recall.end() ? 0.0 : precision[static_cast<std::size_t>(it - recall.begin())];
        }
        out.precision_sum[t] = sum;
    }
    return true;
}

// Mean over the measured entries, -1 when there are none (summarize's rule).
struct Mean {
    double sum = 0;
    long count = 0;
    void add(double v, long n = 1) { sum += v, count += n; }
    double value() const { return count ? sum / count : -1; }
};

// LibreYOLO's _best_f1_threshold: F1 = 2·TP / (TP + FP + positives) at the last detection of each
// distinct score; the first maximum (the highest threshold) wins. {0, 0} when F1 never exceeds 0.
std::pair<double, double> best_f1(std::vector<std::pair<double, bool>> dets, int positives) {
    if (dets.empty() || positives <= 0) return {0, 0};
    std::stable_sort(dets.begin(), dets.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    double tp = 0, fp = 0, best = 0, at = 0;
    for (std::size_t i = 0; i < dets.size(); ++i) {
        (dets[i].second ? tp : fp) += 1;
        if (i + 1 < dets.size() && dets[i + 1].first == dets[i].first) continue;
        const double f1 = 2 * tp / (tp + fp + positives);
        if (f1 > best) best = f1, at = dets[i].first;
    }
    return best > 0 ? std::make_pair(at, best) : std::make_pair(0.0, 0.0);
}

}  // namespace

DetectionMetrics coco_map(const std::vector<int>& image_ids, const std::vector<EvalBox>& ground_truth,
                          const std::vector<EvalBox>& detections, int num_classes) {
    // (image, class) → boxes, in input order.
    std::map<std::pair<int, int>, std::vector<const EvalBox*>> gts, dets;
    for (const auto& g : ground_truth) gts[{g.image, g.cls}].push_back(&g);
    for (const auto& d : detections) dets[{d.image, d.cls}].push_back(&d);

    DetectionMetrics m;
    m.images = static_cast<int>(image_ids.size());
    m.max_det = kMaxDets.back();
    m.per_class_map50.assign(num_classes, -1);
    m.per_class_map50_95.assign(num_classes, -1);
    m.per_class_best_conf.assign(num_classes, 0);
    m.per_class_instances.assign(num_classes, 0);
    Mean ap[kAreas], ap50, ap75, ar[kAreas][kMaxDets.size()];
    std::vector<std::pair<double, bool>> pooled;  // (score, true positive at IoU .50), all classes
    int pooled_positives = 0;

    for (int k = 0; k < num_classes; ++k) {
        std::vector<std::array<ImageEval, kAreas>> evals;
        for (int image : image_ids) {
            const auto g = gts.find({image, k});
            const auto d = dets.find({image, k});
            const std::vector<const EvalBox*> none;
            const auto& gl = g == gts.end() ? none : g->second;
            const auto& dl = d == dets.end() ? none : d->second;
            m.per_class_instances[k] += static_cast<int>(gl.size());
            if (gl.empty() && dl.empty()) continue;
            const ImageClass c = prepare(dl, gl);
            auto& e = evals.emplace_back();
            for (int a = 0; a < kAreas; ++a) e[a] = evaluate_image(c, kAreaRanges[a]);
        }
        m.instances += m.per_class_instances[k];

        for (int a = 0; a < kAreas; ++a) {
            std::vector<const ImageEval*> area_evals;
            for (const auto& e : evals) area_evals.push_back(&e[a]);
            for (std::size_t cap = 0; cap < kMaxDets.size(); ++cap) {
                Curve curve;
                if (!accumulate(area_evals, kMaxDets[cap], curve)) continue;
                for (int t = 0; t < kThresholds; ++t) ar[a][cap].add(curve.recall[t]);
                if (cap != kMaxDets.size() - 1) continue;
                double class_sum = 0;
                for (int t = 0; t < kThresholds; ++t) class_sum += curve.precision_sum[t];
                ap[a].add(class_sum, kThresholds * kRecallPoints);
                if (a != 0) continue;
                ap50.add(curve.precision_sum[0], kRecallPoints);
                ap75.add(curve.precision_sum[5], kRecallPoints);
                m.per_class_map50[k] = curve.precision_sum[0] / kRecallPoints;
                m.per_class_map50_95[k] = class_sum / (kThresholds * kRecallPoints);
            }
        }

        // The best-confidence sweep reads the all-sizes matches at IoU .50, ignored ones left out.
        std::vector<std::pair<double, bool>> swept;
        int positives = 0;
        for (const auto& e : evals) {
            const ImageEval& all = e[0];
            positives += all.counted_gts;
            for (std::size_t i = 0; i < all.scores.size(); ++i)
                if (!all.ignored[i][0]) swept.emplace_back(all.scores[i], all.matched[i][0]);
        }
        m.per_class_best_conf[k] = best_f1(swept, positives).first;
        pooled.insert(pooled.end(), swept.begin(), swept.end());
        pooled_positives += positives;
    }
    m.map50_95 = ap[0].value();
    m.map50 = ap50.value();
    m.map75 = ap75.value();
    m.map_small = ap[1].value();
    m.map_medium = ap[2].value();
    m.map_large = ap[3].value();
    m.ar1 = ar[0][0].value();
    m.ar10 = ar[0][1].value();
    m.ar100 = ar[0][2].value();
    m.ar_small = ar[1][2].value();
    m.ar_medium = ar[2][2].value();
    m.ar_large = ar[3][2].value();
    std::tie(m.best_conf, m.best_conf_f1) = best_f1(pooled, pooled_positives);
    return m;
}

}  // namespace libreyolo
