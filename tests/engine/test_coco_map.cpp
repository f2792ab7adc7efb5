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

struct Case {
    nlohmann::json json;
    DetectionMetrics metrics;  // ours, on the case's boxes
};

Case fixture_case() {
    std::ifstream in(LIBREYOLO_FIXTURES_DIR "/coco_map/case.json");
    Case c{nlohmann::json::parse(in), {}};
    c.metrics = coco_map(c.json["images"].get<std::vector<int>>(), boxes_of(c.json["ground_truth"]),
                         boxes_of(c.json["detections"]), 4);
    return c;
}

}  // namespace

class TestCocoMap : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesPycocotools() {
        const auto [c, m] = fixture_case();
        const auto& e = c["expected"];
        qInfo("mAP50-95 ours %.10f pycocotools %.10f; mAP50 ours %.10f pycocotools %.10f", m.map50_95,
              e["map50_95"].get<double>(), m.map50, e["map50"].get<double>());
        const double ours[12] = {m.map50_95, m.map50, m.map75, m.map_small, m.map_medium, m.map_large,
                                 m.ar1,      m.ar10,  m.ar100, m.ar_small,  m.ar_medium,  m.ar_large};
        for (int i = 0; i < 12; ++i) {
            const double want = e["stats"][i].get<double>();
            if (std::abs(ours[i] - want) >= 1e-4)
                qWarning("stats[%d]: ours %.10f, pycocotools %.10f", i, ours[i], want);
            QVERIFY(std::abs(ours[i] - want) < 1e-4);
        }
        for (int k = 0; k < 4; ++k)
            QVERIFY(std::abs(m.per_class_map50_95[k] - e["per_class_map50_95"][k].get<double>()) < 1e-4);
        QCOMPARE(m.instances, static_cast<int>(c["ground_truth"].size()));
        QCOMPARE(m.max_det, 100);
    }

    void bestConfidenceMatchesLibreYOLO() {
        const auto [c, m] = fixture_case();
        const auto& e = c["expected"];
        QCOMPARE(m.best_conf, e["best_conf"][0].get<double>());
        QVERIFY(std::abs(m.best_conf_f1 - e["best_conf"][1].get<double>()) < 1e-12);
        for (int k = 0; k < 4; ++k) QCOMPARE(m.per_class_best_conf[k], e["per_class_best_conf"][k].get<double>());
    }

    void givenAreaDecidesTheSizeRange() {
        // A 100×100 box whose annotation says 500 px² (a thin object's mask) counts as small.
        const std::vector<EvalBox> gt = {{1, 0, 0, 0, 100, 100, 1, 500}};
        const std::vector<EvalBox> det = {{1, 0, 0, 0, 100, 100, 0.9}};
        const DetectionMetrics m = coco_map({1}, gt, det, 1);
        QCOMPARE(m.map_large, -1.0);
        QCOMPARE(m.map_small, 1.0);
        QCOMPARE(m.best_conf, 0.9);
        QCOMPARE(m.best_conf_f1, 1.0);
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
