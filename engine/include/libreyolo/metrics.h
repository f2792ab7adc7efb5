#pragma once
// Detection mAP by the COCO rules, computed the way pycocotools' COCOeval does for bounding boxes:
// IoU thresholds .50:.05:.95, 101-point interpolated precision, at most 100 detections per image
// and class, all object sizes, classes without ground truth left out of the mean.
#include <vector>

namespace libreyolo {

struct EvalBox {
    int image = 0;  // any id; images are taken in the order given to coco_map
    int cls = 0;
    double x1 = 0, y1 = 0, x2 = 0, y2 = 0;  // pixels
    double score = 1;                       // detections only
};

struct DetectionMetrics {
    double map50 = 0;                        // COCOeval stats[1]
    double map50_95 = 0;                     // COCOeval stats[0]
    std::vector<double> per_class_map50;     // -1 for a class without ground truth
    std::vector<double> per_class_map50_95;  // -1 likewise
    std::vector<int> per_class_instances;
    int images = 0;
    int instances = 0;
};

DetectionMetrics coco_map(const std::vector<int>& image_ids, const std::vector<EvalBox>& ground_truth,
                          const std::vector<EvalBox>& detections, int num_classes, int max_detections = 100);

}  // namespace libreyolo
