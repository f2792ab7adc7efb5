#pragma once
// Detection mAP by the COCO rules, computed the way pycocotools' COCOeval does for bounding boxes:
// IoU thresholds .50:.05:.95, 101-point interpolated precision, at most 100 detections per image
// and class, the small/medium/large area split, classes without ground truth left out of the mean.
#include <vector>

namespace libreyolo {

struct EvalBox {
    int image = 0;  // any id; images are taken in the order given to coco_map
    int cls = 0;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // pixels
    double score = 1;                       // detections only
    double area = -1;                       // for the small/medium/large split; < 0: the box's area
};

// The twelve numbers of COCOeval.summarize() for boxes (maxDets 1, 10, 100), then LibreYOLO's
// best-confidence sweep. A value of -1 means "nothing to measure" (e.g. no small objects), as in
// pycocotools.
struct DetectionMetrics {
    double map50_95 = 0;                                  // stats[0]: AP at IoU .50:.05:.95, all sizes, 100 detections
    double map50 = 0;                                     // stats[1]
    double map75 = 0;                                     // stats[2]
    double map_small = 0, map_medium = 0, map_large = 0;  // stats[3..5]: area < 32², < 96², larger
    double ar1 = 0, ar10 = 0, ar100 = 0;                  // stats[6..8]: recall at 1, 10, 100 detections
    double ar_small = 0, ar_medium = 0, ar_large = 0;     // stats[9..11]
    int max_det = 100;
    // The confidence at which F1 (IoU .50 matching, all classes pooled) peaks and that F1;
    // 0 and 0 when no threshold gives F1 > 0.
    double best_conf = 0, best_conf_f1 = 0;
    std::vector<double> per_class_best_conf;  // 0 where no threshold gives F1 > 0
    std::vector<double> per_class_map50;      // -1 for a class without ground truth
    std::vector<double> per_class_map50_95;   // -1 likewise
    std::vector<int> per_class_instances;
    int images = 0;
    int instances = 0;
};

DetectionMetrics coco_map(const std::vector<int>& image_ids, const std::vector<EvalBox>& ground_truth,
                          const std::vector<EvalBox>& detections, int num_classes);

}  // namespace libreyolo
