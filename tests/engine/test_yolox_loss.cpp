// The YOLOX training loss against LibreYOLO 1.6.0 (tests/fixtures/yolox_loss, written by
// scripts/fixtures/make_yolox_loss.py): the head's training maps (decoded boxes, logits, grid,
// strides, raw regressions), SimOTA's assignments (identical), and every loss part with the L1
// term off and on.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>

#include "io/safetensors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/yolox/loss.h"
#include "models/yolox/yolox.h"
#include "support/tensor_compare.h"

using namespace libreyolo;
using libreyolo::models::yolox::TrainMaps;
using libreyolo::testing::max_relative_difference;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/yolox_loss/";

}  // namespace

class TestYoloxLoss : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "case.json"));
    io::TensorFile case_ = io::read_safetensors(kDir + "case.safetensors");

    const torch::Tensor& at(const std::string& name) const { return case_.tensors.at(name); }

    TrainMaps fixture_maps() const {
        TrainMaps m;
        m.outputs = at("outputs");
        m.x_shifts = at("x_shifts");
        m.y_shifts = at("y_shifts");
        m.strides = at("expanded_strides");
        m.raw_box = at("origin_preds");
        return m;
    }

private Q_SLOTS:
    // Bit for bit LibreYOLO's maps as one of the reference CPUs' kernels compute them (the
    // fixture's AVX-512 machine, an AVX2 CPU, a baseline one).
    void trainMapsMatchLibreYOLO() {
        Model model = Model::load(LIBREYOLO_FIXTURES_DIR "/yolox_parity/weights.safetensors", "cpu");
        auto net = std::dynamic_pointer_cast<models::yolox::YOLOXImpl>(model.impl().net);
        QVERIFY(net);
        net->eval();  // as the fixture: BatchNorm on running statistics
        torch::NoGradGuard g;
        const torch::Tensor images = at("input_bgr").flip({1}).to(torch::kFloat32) / 255.0;
        const TrainMaps ours = net->head->train_maps(net->features(images), true);
        std::string identical;
        for (const char* suffix : {"", "_avx2", "_default"})
            if (torch::equal(ours.outputs, at(std::string("parity_outputs") + suffix)) &&
                torch::equal(ours.raw_box, at(std::string("parity_origin_preds") + suffix)))
                identical = std::string("parity_outputs") + suffix;
        qInfo("training maps bit-identical to LibreYOLO's %s",
              identical.empty() ? "on no reference CPU" : identical.c_str());
        if (identical.empty()) {
            // Another CPU (its oneDNN blocks the convolutions its own way): as close to the nearest
            // reference as the references are to each other, the rule of test_yolox's forward.
            double nearest = 1e9, spread = 0;
            for (const char* a : {"", "_avx2", "_default"}) {
                const torch::Tensor& ref = at(std::string("parity_outputs") + a);
                nearest = std::min(nearest, max_relative_difference(ours.outputs, ref));
                for (const char* b : {"", "_avx2", "_default"})
                    spread = std::max(spread, max_relative_difference(ref, at(std::string("parity_outputs") + b)));
            }
            qInfo("relative difference to the nearest reference %.3g; the references' own spread %.3g", nearest,
                  spread);
            QVERIFY2(nearest <= spread, qPrintable(QString("%1 > %2").arg(nearest).arg(spread)));
        }
        // The grid and strides the loss reads are exact.
        QVERIFY(torch::equal(ours.x_shifts, at("x_shifts")));
        QVERIFY(torch::equal(ours.y_shifts, at("y_shifts")));
        QVERIFY(torch::equal(ours.strides, at("expanded_strides")));
    }

    void simotaAssignsAsLibreYOLO() {
        const TrainMaps m = fixture_maps();
        const torch::Tensor labels = at("labels");
        const torch::Tensor counts = (labels.sum(2) > 0).sum(1);
        int checked = 0;
        for (int64_t b = 0; b < labels.size(0); ++b) {
            const int64_t n = counts[b].item<int64_t>();
            if (n == 0) continue;
            using torch::indexing::Slice;
            const auto a = models::yolox::simota_assign(
                labels.index({b, Slice(0, n), Slice(1, 5)}), labels.index({b, Slice(0, n), 0}),
                m.outputs.index({b, Slice(), Slice(0, 4)}),
                m.outputs.index({b, Slice(), Slice(5, torch::indexing::None)}),
                m.outputs.index({b, Slice(), Slice(4, 5)}), m.x_shifts[0], m.y_shifts[0], m.strides[0], 80);
            const std::string s = std::to_string(b);
            QVERIFY2(torch::equal(a.positive.to(torch::kUInt8), at("fg_mask_" + s)), s.c_str());
            QVERIFY2(torch::equal(a.matched_gt, at("matched_gt_" + s)), s.c_str());
            QVERIFY2(torch::equal(a.matched_class, at("matched_classes_" + s)), s.c_str());
            QVERIFY2(max_relative_difference(a.matched_iou, at("matched_ious_" + s)) < 1e-6, s.c_str());
            QCOMPARE(a.positives, at("fg_mask_" + s).sum().item<int64_t>());
            ++checked;
        }
        QCOMPARE(checked, 2);
    }

    void lossPartsMatchLibreYOLO() {
        const models::yolox::YOLOXLoss loss(80);
        for (const bool use_l1 : {false, true}) {
            const auto& want = expected_[use_l1 ? "l1_on" : "l1_off"];
            const auto parts = loss(fixture_maps(), at("labels"), use_l1);
            const std::pair<const char*, torch::Tensor> checks[] = {{"total_loss", parts.total},
                                                                    {"iou_loss", parts.iou},
                                                                    {"obj_loss", parts.obj},
                                                                    {"cls_loss", parts.cls},
                                                                    {"l1_loss", parts.l1}};
            for (const auto& [name, value] : checks) {
                const double got = value.item<double>(), theirs = want[name].get<double>();
                const double relative = std::abs(got - theirs) / std::max(std::abs(theirs), 1e-12);
                qInfo("l1 %s %s: ours %.9g LibreYOLO %.9g", use_l1 ? "on" : "off", name, got, theirs);
                QVERIFY2(relative < 1e-5, qPrintable(QString("%1: %2 vs %3").arg(name).arg(got).arg(theirs)));
            }
            QCOMPARE(parts.positives_per_box, want["num_fg"].get<double>());
        }
    }
};

QTEST_APPLESS_MAIN(TestYoloxLoss)
#include "test_yolox_loss.moc"
