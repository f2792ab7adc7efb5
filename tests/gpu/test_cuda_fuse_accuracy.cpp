// The fast path's accuracy contract on the GPU: the bundled demo model validated on its val split
// with fuse=true in float16 (BatchNorm folded, NHWC, cuDNN's fused convolutions) keeps the eager
// float32 network's mAP50-95 within 0.001, and finds at least 99 % of the eager float32 boxes again
// with the same class at IoU ≥ 0.99.
#include <QtTest/QtTest>

#include <algorithm>

#include "libreyolo/device.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/validate.h"

using namespace libreyolo;

namespace {

float iou(const Detection& a, const Detection& b) {
    const float w = std::max(0.0f, std::min(a.x2, b.x2) - std::max(a.x1, b.x1));
    const float h = std::max(0.0f, std::min(a.y2, b.y2) - std::max(a.y1, b.y1));
    const float inter = w * h;
    return inter / ((a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter);
}

Model demo_model(bool half) {
    Model model = Model::load(default_model(), "cuda");
    if (half) model.set_dtype("float16");
    return model;
}

}  // namespace

class TestCudaFuseAccuracy : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    SynthSummary data_;

private Q_SLOTS:
    void initTestCase() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
        // The demo model's own data (docs/demo-model.md): its val split is the 140 images it was
        // validated on, and BMP is readable where the build has no image codecs.
        SynthOptions o;
        o.out = dir_.filePath("shapes").toStdString();
        o.n = 700;
        o.imgsz = 416;
        o.seed = 0;
        o.format = "bmp";
        data_ = render_synthetic_dataset(o);
        QCOMPARE(data_.val_images, 140);
    }

    void theFusedHalfPathKeepsTheMap() {
        Model eager = demo_model(false);
        const ValResult want = validate(eager, data_.data_yaml);
        Model fast = demo_model(true);
        ValOptions o;
        o.fuse = true;
        const ValResult got = validate(fast, data_.data_yaml, o);
        qInfo("demo model, %d images: mAP50-95 eager float32 %.5f, fused float16 %.5f", want.images,
              want.metrics.map50_95, got.metrics.map50_95);
        QVERIFY(want.metrics.map50_95 > 0.5);  // the comparison means something only on a working model
        QVERIFY2(std::abs(got.metrics.map50_95 - want.metrics.map50_95) <= 0.001,
                 qPrintable(QString::number(got.metrics.map50_95 - want.metrics.map50_95)));
    }

    void theFusedHalfPathFindsTheSameBoxes() {
        Model eager = demo_model(false), fast = demo_model(true);
        PredictOptions fused;
        fused.fuse = true;
        const std::string images = dir_.filePath("shapes/images/val").toStdString();
        const std::vector<Result> want = eager.predict(images), got = fast.predict(images, fused);
        QCOMPARE(got.size(), want.size());
        int boxes = 0, matched = 0;
        for (std::size_t i = 0; i < want.size(); ++i)
            for (const Detection& d : want[i].boxes) {
                ++boxes;
                matched += std::any_of(got[i].boxes.begin(), got[i].boxes.end(),
                                       [&](const Detection& e) { return e.cls == d.cls && iou(d, e) >= 0.99f; });
            }
        qInfo("%d of %d eager float32 boxes found by the fused float16 path at IoU >= 0.99", matched, boxes);
        QVERIFY(boxes >= 500);
        QVERIFY2(matched >= 0.99 * boxes, qPrintable(QString("%1 of %2").arg(matched).arg(boxes)));
    }
};

QTEST_GUILESS_MAIN(TestCudaFuseAccuracy)
#include "test_cuda_fuse_accuracy.moc"
