// COCO-rule mAP against pycocotools on a committed fixture (scripts/fixtures/make_coco_map.py).
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include "libreyolo/metrics.h"

using namespace libreyolo;

namespace {

std::vector<EvalBox> boxes_of(const nlohmann::json& list) {
    std::vector<EvalBox> out;
    for (const auto& b : list)
        out.push_back({b["image"], b["cls"], b["box"][0], b["box"][1], b["box"][2], b["box"][3],
                       b.contains("score") ? b["score"].get<double>() : 1.0});
    return out;
}

}  // namespace

class TestCocoMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesPycocotools() {
        std::ifstream in(LIBREYOLO_FIXTURES_DIR "/coco_map/case.json");
        const nlohmann::json c = nlohmann::json::parse(in);
        const DetectionMetrics m =
            coco_map(c["images"].get<std::vector<int>>(), boxes_of(c["ground_truth"]), boxes_of(c["detections"]), 4);
        const auto& e = c["expected"];
        qInfo("mAP50-95 ours %.10f pycocotools %.10f; mAP50 ours %.10f pycocotools %.10f", m.map50_95,
              e["map50_95"].get<double>(), m.map50, e["map50"].get<double>());
        QVERIFY(std::abs(m.map50_95 - e["map50_95"].get<double>()) < 1e-4);
        QVERIFY(std::abs(m.map50 - e["map50"].get<double>()) < 1e-4);
        for (int k = 0; k < 4; ++k)
            QVERIFY(std::abs(m.per_class_map50_95[k] - e["per_class_map50_95"][k].get<double>()) < 1e-4);
        QCOMPARE(m.instances, static_cast<int>(c["ground_truth"].size()));
    }

    void perfectDetectionsScoreOne() {
        const std::vector<EvalBox> gt = {{1, 0, 10, 10, 50, 60, 1}, {2, 1, 0, 0, 20, 20, 1}};
        const DetectionMetrics m = coco_map({1, 2}, gt, gt, 3);
        QCOMPARE(m.map50_95, 1.0);
        QCOMPARE(m.per_class_map50_95[2], -1.0);  // no ground truth: left out
    }

    void noDetectionsScoreZero() {
        const DetectionMetrics m = coco_map({1}, {{1, 0, 10, 10, 50, 60, 1}}, {}, 1);
        QCOMPARE(m.map50, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestCocoMap)
#include "test_coco_map.moc"
