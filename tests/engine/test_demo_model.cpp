// The bundled demo model (resources/models/yolo9t-shapes.safetensors, docs/demo-model.md) finds
// the shapes of the sample image where scripts/fixtures/make_sample_image.py drew them.
#include <QtTest/QtTest>

#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/synth.h"
#include "libreyolo/validate.h"

using namespace libreyolo;

namespace {

struct Truth {
    const char* name;
    float x1, y1, x2, y2;
};

// Geometry of make_sample_image.py: circle c(120,110) r62, square (250,60)-(390,190), triangle
// (470,200)(600,200)(535,70), star c(160,320) r70, circle c(420,320) r45.
const Truth kShapes[] = {{"circle", 58, 48, 182, 172},
                         {"square", 250, 60, 390, 190},
                         {"triangle", 470, 70, 600, 200},
                         {"star", 93.4f, 250, 226.6f, 376.6f},
                         {"circle", 375, 275, 465, 365}};

float iou(const Detection& d, const Truth& t) {
    const float w = std::max(0.0f, std::min(d.x2, t.x2) - std::max(d.x1, t.x1));
    const float h = std::max(0.0f, std::min(d.y2, t.y2) - std::max(d.y1, t.y1));
    const float inter = w * h;
    return inter / ((d.x2 - d.x1) * (d.y2 - d.y1) + (t.x2 - t.x1) * (t.y2 - t.y1) - inter);
}

}  // namespace

class TestDemoModel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void isTheDefaultModel() {
        QVERIFY2(default_model().ends_with("resources/models/yolo9t-shapes.safetensors"), default_model().c_str());
        const ModelInfo info = Model::load(default_model(), "cpu").info();
        QCOMPARE(info.nc, 6);
        QCOMPARE(info.names, (std::vector<std::string>{"circle", "square", "triangle", "star", "hexagon", "cross"}));
        QCOMPARE(info.imgsz, 416);
        QVERIFY(info.pretrained);
    }

    void findsTheSampleShapes() {
        Model model = Model::load(default_model(), "cpu");
        const Result r = model.predict(LIBREYOLO_SAMPLE_IMAGE).at(0);
        for (const Truth& t : kShapes) {
            const Detection* best = nullptr;
            for (const auto& d : r.boxes)
                if (!best || iou(d, t) > iou(*best, t)) best = &d;
            QVERIFY2(best && iou(*best, t) > 0.7f, t.name);
            QCOMPARE(r.class_name(best->cls), std::string(t.name));
            QVERIFY2(best->conf > 0.5f, qPrintable(QString("%1 conf %2").arg(t.name).arg(best->conf)));
        }
    }

    void validatesWellOnUnseenSyntheticImages() {
        QTemporaryDir dir;
        SynthOptions so;
        so.out = dir.filePath("shapes").toStdString();
        so.n = 40;
        so.imgsz = 416;
        so.seed = 12345;  // the demo model was trained on seed 0
        const SynthSummary s = render_synthetic_dataset(so);
        Model model = Model::load(default_model(), "cpu");
        int calls = 0;
        const ValResult r = validate(model, s.data_yaml, {}, [&](int, int) { ++calls; });
        qInfo("demo model on 8 unseen images: mAP50 %.3f, mAP50-95 %.3f", r.metrics.map50, r.metrics.map50_95);
        QCOMPARE(r.images, s.val_images);
        QVERIFY(calls > 0);
        QVERIFY(r.metrics.map50 > 0.7);
        QVERIFY(r.metrics.map50_95 > 0.5);

        Model coco = Model::create("yolo9-t", 80, "cpu");
        try {
            validate(coco, s.data_yaml);
            QFAIL("validated a model whose classes differ from the dataset's");
        } catch (const FormatError& e) {
            QVERIFY2(std::string(e.what()).find("6 classes but the model") != std::string::npos, e.what());
        }
    }
};

QTEST_APPLESS_MAIN(TestDemoModel)
#include "test_demo_model.moc"
