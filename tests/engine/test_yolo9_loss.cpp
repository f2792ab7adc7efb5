// The YOLOv9 loss and task-aligned assigner against LibreYOLO 1.6.0 on a committed fixture
// (scripts/fixtures/make_yolo9_loss.py): same head outputs and targets → same assignment, same
// loss parts within 1e-5, same gradients.
#include <QtTest/QtTest>

#include "io/safetensors.h"
#include "models/yolo9/loss.h"
#include "nn/box_iou.h"

using namespace libreyolo;
using namespace libreyolo::models::yolo9;

namespace {
constexpr int kWidth = 256, kHeight = 192;
}

class TestYolo9Loss : public QObject {
    Q_OBJECT
    io::TensorFile f_ = io::read_safetensors(LIBREYOLO_FIXTURES_DIR "/yolo9_loss/case.safetensors");
    const torch::Tensor& t(const char* name) const { return f_.tensors.at(name); }
    std::vector<torch::Tensor> raw() const { return {t("p3"), t("p4"), t("p5")}; }

private Q_SLOTS:
    void anchorGridAsLibreYOLO() {
        const AnchorGrid g = make_anchor_grid(kWidth, kHeight, {8, 16, 32}, torch::kCPU);
        QCOMPARE(g.points.size(0), int64_t(32 * 24 + 16 * 12 + 8 * 6));
        QCOMPARE(g.points[0][0].item<float>(), 4.0f);
        QCOMPARE(g.points[1][0].item<float>(), 12.0f);  // x runs fastest
        QCOMPARE(g.points[32][1].item<float>(), 12.0f);
        QCOMPARE(g.strides[-1].item<float>(), 32.0f);
    }

    void ciouOfIdenticalBoxesIsOne() {
        const torch::Tensor a = torch::tensor({{0.f, 0.f, 10.f, 20.f}, {5.f, 5.f, 6.f, 9.f}});
        QVERIFY(torch::allclose(nn::box_iou_elementwise(a, a, nn::IouKind::Ciou), torch::ones({2}), 1e-5, 1e-5));
        const torch::Tensor far = torch::tensor({{100.f, 100.f, 110.f, 120.f}, {5.f, 5.f, 6.f, 9.f}});
        QVERIFY(nn::box_iou_elementwise(a, far, nn::IouKind::Ciou)[0].item<float>() < 0.0f);
    }

    void assignerMatchesLibreYOLO() {
        const AnchorGrid g = make_anchor_grid(kWidth, kHeight, {8, 16, 32}, torch::kCPU);
        const LossInputs in = flatten_head_outputs(raw(), g, 16);
        const torch::Tensor scale = torch::tensor({1.f, float(kWidth), float(kHeight), float(kWidth), float(kHeight)});
        const Assignment a = TaskAlignedAssigner(6, 16).assign(t("targets") * scale, in.cls_logits, in.boxes, g);
        QVERIFY(torch::equal(a.positive, t("valid_mask").to(torch::kBool)));
        QVERIFY(a.positive.sum().item<int64_t>() > 20);
        const float diff = (a.targets - t("align_targets")).abs().max().item<float>();
        QVERIFY2(diff < 1e-5f, qPrintable(QString::number(diff)));
    }

    void lossPartsAndGradientsMatchLibreYOLO() {
        std::vector<torch::Tensor> preds;
        for (const auto& p : raw()) preds.push_back(p.clone().requires_grad_(true));
        YOLO9Loss loss(6);
        const LossParts parts = loss(preds, t("targets"), kWidth, kHeight);
        for (auto [got, want] : {std::pair{parts.total, "loss_total"},
                                 {parts.box, "loss_box"},
                                 {parts.dfl, "loss_dfl"},
                                 {parts.cls, "loss_cls"}}) {
            const float g = got.item<float>(), w = t(want).item<float>();
            qInfo("%s: ours %.8f LibreYOLO %.8f", want, g, w);
            QVERIFY2(std::abs(g - w) < 1e-5f, want);
        }
        parts.total.backward();
        for (int i = 0; i < 3; ++i) {
            const torch::Tensor& want = t(i == 0 ? "grad_p3" : i == 1 ? "grad_p4" : "grad_p5");
            const float diff = (preds[i].grad() - want).abs().max().item<float>();
            const float scale = want.abs().max().item<float>();
            QVERIFY2(diff <= 1e-5f * std::max(1.0f, scale), qPrintable(QString("level %1: %2").arg(i).arg(diff)));
        }
    }

    void imagesWithoutTargetsGiveOnlyClassLoss() {
        YOLO9Loss loss(6);
        const LossParts parts = loss(raw(), torch::zeros({2, 0, 5}), kWidth, kHeight);
        QCOMPARE(parts.box.item<float>(), 0.0f);
        QCOMPARE(parts.dfl.item<float>(), 0.0f);
        QVERIFY(parts.cls.item<float>() > 0.0f);
        QCOMPARE(parts.positives_per_image, 0.0);
    }
};

QTEST_APPLESS_MAIN(TestYolo9Loss)
#include "test_yolo9_loss.moc"
