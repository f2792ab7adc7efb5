#include "libreyolo/validate.h"

namespace libreyolo {

std::vector<std::pair<std::string, double>> metric_columns(const ValResult& r) {
    const DetectionMetrics& m = r.metrics;
    return {{"metrics/precision", m.map50_95},
            {"metrics/recall", m.ar100},
            {"metrics/mAP50-95", m.map50_95},
            {"metrics/mAP50", m.map50},
            {"metrics/mAP75", m.map75},
            {"metrics/precision(B)", m.map50_95},
            {"metrics/recall(B)", m.ar100},
            {"metrics/mAP50(B)", m.map50},
            {"metrics/mAP50-95(B)", m.map50_95},
            {"metrics/mAP_small", m.map_small},
            {"metrics/mAP_medium", m.map_medium},
            {"metrics/mAP_large", m.map_large},
            {"metrics/AR1", m.ar1},
            {"metrics/AR10", m.ar10},
            {"metrics/AR100", m.ar100},
            {"metrics/AR_max_det", m.ar100},
            {"metrics/max_det", double(m.max_det)},
            {"metrics/AR_small", m.ar_small},
            {"metrics/AR_medium", m.ar_medium},
            {"metrics/AR_large", m.ar_large},
            {"metrics/best_conf", m.best_conf},
            {"metrics/best_conf_f1", m.best_conf_f1},
            {"speed/preprocess_ms", r.preprocess_ms},
            {"speed/inference_ms", r.inference_ms},
            {"speed/postprocess_ms", r.postprocess_ms},
            {"speed/total_ms", r.total_ms},
            {"speed/total_s", r.total_s},
            {"speed/images_seen", double(r.images)}};
}

}  // namespace libreyolo
