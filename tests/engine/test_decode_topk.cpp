// The decode_topk slot (the fused GPU path's candidate selection) and the postprocessing that reads
// its packed result: the reference's boxes are kernels::dfl_decode's in float32, its candidates are
// postprocess_detections's (the same pairs, scores and order); the detections read from the packed
// result equal postprocess_detections's for few candidates (finished on the host), many (past
// kHostCandidates) and more than 30,000 (the top-k by score); a threshold nothing passes gives no
// candidate; levels that do not fit the head and a corrupt header are refused by name; `libreyolo
// kernels` lists the slot.
#include <QtTest/QtTest>

#include "kernels/decode_topk_slot.h"
#include "kernels/dfl_decode.h"
#include "libreyolo/errors.h"
#include "libreyolo/kernels.h"
#include "predict/candidates.h"
#include "predict/postprocess.h"

using namespace libreyolo;
using kernels::DflHead;

namespace {

// Maps of a head with the given classes over three levels (strides 8, 16, 32) of a size × size
// input; logits spread so that scores cover (0, 1).
std::vector<torch::Tensor> random_levels(int64_t batch, int64_t classes, int64_t size, int seed) {
    torch::manual_seed(seed);
    std::vector<torch::Tensor> levels;
    for (int64_t stride : {8, 16, 32})
        levels.push_back(torch::randn({batch, 64 + classes, size / stride, size / stride}) * 3);
    return levels;
}

DflHead head_of(int64_t classes) {
    return {{8, 16, 32}, 16, classes};
}

torch::Tensor decoded_of(const std::vector<torch::Tensor>& levels, int64_t classes) {
    return kernels::dfl_decode(levels, kernels::dfl_anchors(levels, {8, 16, 32}, 16), 16, classes);
}

bool same_detections(const std::vector<Detection>& a, const std::vector<Detection>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i].x1 != b[i].x1 || a[i].y1 != b[i].y1 || a[i].x2 != b[i].x2 || a[i].y2 != b[i].y2 ||
            a[i].conf != b[i].conf || a[i].cls != b[i].cls)
            return false;
    return true;
}

}  // namespace

class TestDecodeTopk : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void theReferenceSelectsWhatPostprocessSelects() {
        const int64_t classes = 7;
        const auto levels = random_levels(2, classes, 128, 1);
        const float conf = 0.6f;
        const torch::Tensor packed = kernels::decode_topk_reference(levels, head_of(classes), conf);
        const predict::PackedCandidates candidates(packed);
        QCOMPARE(candidates.layout().anchors, int64_t{16 * 16 + 8 * 8 + 4 * 4});
        QCOMPARE(candidates.layout().classes, classes);
        QCOMPARE(candidates.layout().batch, int64_t{2});
        const torch::Tensor decoded = decoded_of(levels, classes);
        for (int64_t image = 0; image < 2; ++image) {
            const torch::Tensor pred = decoded[image].transpose(0, 1);  // (anchors, 4 + classes)
            const torch::Tensor scores = pred.narrow(1, 4, classes);
            const auto nonzero = torch::nonzero(scores > conf).unbind(1);
            const auto got = candidates.select(image, torch::kCPU);
            QCOMPARE(candidates.count(image), nonzero[0].numel());
            QVERIFY(nonzero[0].numel() > 10);
            QVERIFY(torch::equal(got.class_ids, nonzero[1]));
            QVERIFY(torch::equal(got.conf, scores.index({nonzero[0], nonzero[1]})));
            QVERIFY(torch::equal(got.boxes, pred.narrow(1, 0, 4).index_select(0, nonzero[0])));
        }
    }

    void detectionsEqualPostprocessDetections_data() {
        QTest::addColumn<int>("classes");
        QTest::addColumn<float>("conf");
        QTest::addColumn<int>("least");  // candidates the image must have, to reach the route
        QTest::newRow("few: on the host") << 5 << 0.7f << 10;
        QTest::newRow("many: on the network's device") << 80 << 0.2f << int(predict::kHostCandidates) + 1;
        QTest::newRow("more than 30,000: the top-k") << 80 << 0.01f << int(predict::kMaxNmsCandidates) + 1;
    }
    void detectionsEqualPostprocessDetections() {
        QFETCH(int, classes);
        QFETCH(float, conf);
        QFETCH(int, least);
        const auto levels = random_levels(1, classes, 160, classes);
        const predict::PackedCandidates candidates(kernels::decode_topk_reference(levels, head_of(classes), conf));
        QVERIFY2(candidates.count(0) >= least, qPrintable(QString::number(candidates.count(0))));
        predict::PostprocessOptions o;
        o.conf = conf;
        o.iou = 0.5f;
        o.input_h = o.input_w = 160;
        o.orig_h = 120;
        o.orig_w = 160;
        const auto expected = predict::postprocess_detections(decoded_of(levels, classes)[0], o);
        QVERIFY(!expected.empty());
        QVERIFY(same_detections(candidates.detections(0, o), expected));
    }

    void aThresholdNothingPassesGivesNoCandidate() {
        const auto levels = random_levels(3, 4, 64, 5);
        const predict::PackedCandidates candidates(kernels::decode_topk_reference(levels, head_of(4), 1.0));
        for (int64_t image = 0; image < 3; ++image) {
            QCOMPARE(candidates.count(image), int64_t{0});
            QVERIFY(candidates.detections(image, predict::PostprocessOptions{}).empty());
        }
    }

    void levelsThatDoNotFitTheHeadAreRefused() {
        auto levels = random_levels(1, 5, 64, 2);
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::decode_topk_reference(levels, head_of(6), 0.5));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::decode_topk_reference({levels[0]}, head_of(5), 0.5));
        levels[1] = levels[1].narrow(0, 0, 0);
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, kernels::decode_topk_reference(levels, head_of(5), 0.5));
    }

    void aCorruptHeaderIsRefused() {
        torch::Tensor packed = kernels::decode_topk_reference(random_levels(1, 3, 64, 3), head_of(3), 0.5);
        packed[0] = 7;  // anchors
        QVERIFY_THROWS_EXCEPTION(Error, predict::PackedCandidates{packed});
        QVERIFY_THROWS_EXCEPTION(Error, predict::PackedCandidates{torch::zeros({2}, torch::kInt32)});
    }

    void kernelsListTheSlot() {
        bool found = false;
        for (const KernelSlotInfo& slot : kernel_report())
            if (slot.slot == "decode_topk") found = true;
        QVERIFY(found);
    }
};

QTEST_GUILESS_MAIN(TestDecodeTopk)
#include "test_decode_topk.moc"
