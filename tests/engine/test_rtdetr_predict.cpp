// RT-DETR prediction against LibreYOLO's own (tests/fixtures/rtdetr_model, written by
// scripts/fixtures/make_rtdetr_model.py from LibreYOLO 1.6.0): model names, the stretched
// resize, the whole RT-DETR-r18's logits and boxes on seeded weights, the NMS-free top-k
// post-processing, predict end to end, and checkpoints that load back as RT-DETR.
#include <QtTest/QtTest>

#include "support/detection_compare.h"
#include "support/query_pairing.h"
#include "support/seeded_weights.h"
#include "support/tensor_compare.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cmath>
#include <fstream>

#include "image/input_resize.h"
#include "image/preprocess.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/rtdetr/rtdetr.h"
#include "predict/postprocess.h"

using namespace libreyolo;
using libreyolo::testing::fraction_found;
using libreyolo::testing::max_relative_difference;
using libreyolo::testing::seeded_fill;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/rtdetr_model/";

}  // namespace

class TestRtdetrPredict : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "detections.json"));
    io::TensorFile forward_ = io::read_safetensors(kDir + "forward.safetensors");
    QTemporaryDir dir_;

    Model seeded_model() const {
        Model model = Model::create("rtdetr-r18", expected_["nc"].get<int>(), "cpu");
        seeded_fill(*model.impl().net, expected_["seed"].get<int64_t>());
        return model;
    }

    std::vector<Detection> libreyolo_detections() const {
        std::vector<Detection> out;
        for (std::size_t i = 0; i < expected_["boxes"].size(); ++i) {
            const auto b = expected_["boxes"][i].get<std::vector<float>>();
            out.push_back(
                {b[0], b[1], b[2], b[3], expected_["scores"][i].get<float>(), expected_["classes"][i].get<int>()});
        }
        return out;
    }

private Q_SLOTS:
    void modelNamesResolve() {
        QCOMPARE(QString::fromStdString(parse_model_name("rtdetr-r18").canonical()), QString("rtdetr-r18"));
        QCOMPARE(QString::fromStdString(parse_model_name("LibreRTDETRr50").canonical()), QString("rtdetr-r50"));
        QCOMPARE(QString::fromStdString(parse_model_name("rtdetr_r34").canonical()), QString("rtdetr-r34"));
        QVERIFY(looks_like_model_name("LibreRTDETRr18"));
        try {
            parse_model_name("rtdetr-l");
            QFAIL("rtdetr-l parsed");
        } catch (const UnknownModel& e) {
            QVERIFY2(std::string(e.what()).find("r18, r34, r50") != std::string::npos, e.what());
        }
        const FamilyTraits& traits = family_traits("rtdetr");
        QVERIFY(traits.nms_free);
        QVERIFY(traits.input_resize == InputResize::Stretch);
    }

    void stretchedResizeIsLibreYOLOs() {
        cv::Mat rgb;
        cv::cvtColor(cv::imread(LIBREYOLO_SAMPLE_IMAGE), rgb, cv::COLOR_BGR2RGB);
        const int imgsz = expected_["imgsz"].get<int>();
        const cv::Mat ours = image::resize_to_input(rgb, imgsz, imgsz, InputResize::Stretch);
        const torch::Tensor want = forward_.tensors.at("canvas");
        const torch::Tensor got = torch::from_blob(ours.data, {imgsz, imgsz, 3}, torch::kUInt8);
        QVERIFY(torch::equal(got, want));
    }

    // 160: every cell of the three maps has a valid anchor. 416: the stride-8 map's border cells do
    // not; the query selection ignores them, but LibreYOLO's decoder still attends over them.
    void wholeModelMatchesLibreYOLO_data() {
        QTest::addColumn<QString>("fixture");
        QTest::newRow("160") << QString::fromStdString(kDir);
        QTest::newRow("416, border cells invalid") << QString(LIBREYOLO_FIXTURES_DIR "/rtdetr_model_416/");
    }
    void wholeModelMatchesLibreYOLO() {
        QFETCH(QString, fixture);
        const std::string dir = fixture.toStdString();
        const nlohmann::json expected = nlohmann::json::parse(std::ifstream(dir + "detections.json"));
        const io::TensorFile forward = io::read_safetensors(dir + "forward.safetensors");
        const int imgsz = expected["imgsz"].get<int>();
        Model model = Model::create("rtdetr-r18", expected["nc"].get<int>(), "cpu");
        seeded_fill(*model.impl().net, expected["seed"].get<int64_t>());
        auto* net = dynamic_cast<models::rtdetr::RTDETRModelImpl*>(model.impl().net.get());
        QVERIFY(net);
        const torch::Tensor canvas = forward.tensors.at("canvas");
        const torch::Tensor input = canvas.permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat32) / 255.0;
        torch::NoGradGuard no_grad;
        const models::rtdetr::DecoderOutput out = net->forward_queries(input);
        // Near-tied encoder cells may take their top-300 ranks in the other order on another CPU's kernels.
        const torch::Tensor want_logits = forward.tensors.at("logits"), want_boxes = forward.tensors.at("boxes");
        torch::Tensor pairing;
        try {
            pairing = testing::pair_queries(torch::cat({out.boxes, out.logits}, -1),
                                            torch::cat({want_boxes, want_logits}, -1));
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QString("our queries do not pair with LibreYOLO's: %1").arg(e.what())));
        }
        const double logits = max_relative_difference(out.logits, testing::in_order(want_logits, pairing));
        const double boxes = max_relative_difference(out.boxes, testing::in_order(want_boxes, pairing));
        qInfo("RT-DETR-r18 at %d: logits %.2e, boxes %.2e max relative difference to LibreYOLO", imgsz, logits, boxes);
        QVERIFY(logits < 1e-4);
        QVERIFY(boxes < 1e-4);
        // The detector layout: xyxy in input pixels over the sigmoid scores.
        const torch::Tensor layout = net->forward(input);
        QCOMPARE(layout.sizes().vec(), (std::vector<int64_t>{1, 4 + 3, 300}));
        QVERIFY(torch::allclose(layout[0][4], out.logits[0].select(1, 0).sigmoid()));
        QVERIFY(torch::allclose(layout[0][0], (out.boxes[0].select(1, 0) - out.boxes[0].select(1, 2) / 2) * imgsz));
    }

    void topKPostprocessIsLibreYOLOs() {
        // LibreYOLO's raw output, through our layout and post-processing.
        const int imgsz = expected_["imgsz"].get<int>();
        const torch::Tensor logits = forward_.tensors.at("logits"), boxes = forward_.tensors.at("boxes");
        const std::vector<torch::Tensor> c = boxes[0].unbind(-1);
        const torch::Tensor layout = torch::cat({torch::stack({(c[0] - c[2] / 2) * imgsz, (c[1] - c[3] / 2) * imgsz,
                                                               (c[0] + c[2] / 2) * imgsz, (c[1] + c[3] / 2) * imgsz}),
                                                 logits[0].sigmoid().t()});
        predict::PostprocessOptions o;
        o.conf = expected_["conf"].get<float>();
        o.input_h = o.input_w = imgsz;
        o.orig_h = expected_["orig_h"].get<int>();
        o.orig_w = expected_["orig_w"].get<int>();
        o.resize = InputResize::Stretch;
        const std::vector<Detection> ours = predict::top_k_detections(layout, o);
        const std::vector<Detection> want = libreyolo_detections();
        QCOMPARE(ours.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(ours[i].cls, want[i].cls);
            QVERIFY(std::abs(ours[i].conf - want[i].conf) < 1e-6f);
            QVERIFY(std::abs(ours[i].x1 - want[i].x1) < 1e-3f && std::abs(ours[i].y2 - want[i].y2) < 1e-3f);
        }
    }

    void topKTakesSeveralClassesPerQuery() {
        // Two queries, two classes: query 0 is best in both classes; max_det 3 takes (0, 1), (0, 0)
        // and (1, 0); conf drops the rest.
        const torch::Tensor prediction =
            torch::tensor({{0.f, 10.f}, {0.f, 20.f}, {10.f, 30.f}, {20.f, 40.f}, {0.8f, 0.6f}, {0.9f, 0.1f}});
        predict::PostprocessOptions o;
        o.conf = 0.5f;
        o.max_det = 3;
        o.input_h = o.input_w = 40;
        o.orig_h = 80;
        o.orig_w = 20;
        o.resize = InputResize::Stretch;
        const std::vector<Detection> d = predict::top_k_detections(prediction, o);
        QCOMPARE(d.size(), std::size_t(3));
        QCOMPARE(d[0].cls, 1);
        QCOMPARE(d[0].conf, 0.9f);
        QCOMPARE(d[1].cls, 0);
        QCOMPARE(d[1].conf, 0.8f);
        QCOMPARE(d[2].cls, 0);
        QCOMPARE(d[2].conf, 0.6f);
        // Stretched back: x by 20 / 40, y by 80 / 40.
        QCOMPARE(d[0].x2, 5.0f);
        QCOMPARE(d[0].y2, 40.0f);
        QCOMPARE(d[2].x1, 5.0f);
        QCOMPARE(d[2].y2, 80.0f);
        o.max_det = 1;
        QCOMPARE(predict::top_k_detections(prediction, o).size(), std::size_t(1));
    }

    void predictMatchesLibreYOLO() {
        Model model = seeded_model();
        PredictOptions o;
        o.imgsz = expected_["imgsz"].get<int>();
        o.conf = expected_["conf"].get<float>();
        const std::vector<Result> results = model.predict(LIBREYOLO_SAMPLE_IMAGE, o);
        QCOMPARE(results.size(), std::size_t(1));
        const std::vector<Detection> want = libreyolo_detections();
        const double found = fraction_found(want, results[0].boxes, 0.01f);
        qInfo("%zu of LibreYOLO's %zu detections found", static_cast<std::size_t>(found * want.size()), want.size());
        QCOMPARE(results[0].boxes.size(), want.size());
        QVERIFY(found > 0.99);
    }

    void checkpointsLoadBackAsRtdetr() {
        Model model = seeded_model();
        const std::string path = dir_.filePath("rtdetr.safetensors").toStdString();
        model.save(path);
        Model loaded = Model::load(path, "cpu");
        QCOMPARE(QString::fromStdString(loaded.info().family), QString("rtdetr"));
        QCOMPARE(QString::fromStdString(loaded.info().size), QString("r18"));
        QCOMPARE(loaded.info().nc, 3);

        // Bare weights (no checkpoint fields): family, size and nc from the keys, as LibreYOLO.
        const std::string bare = dir_.filePath("bare.safetensors").toStdString();
        io::write_safetensors(bare, io::state_dict(*model.impl().net), {});
        Model from_keys = Model::load(bare, "cpu");
        QCOMPARE(QString::fromStdString(from_keys.info().family), QString("rtdetr"));
        QCOMPARE(QString::fromStdString(from_keys.info().size), QString("r18"));
        QCOMPARE(from_keys.info().nc, 3);
        const torch::Tensor x = torch::rand({1, 3, 160, 160});
        torch::NoGradGuard no_grad;
        QVERIFY(torch::equal(model.impl().net->forward(x), from_keys.impl().net->forward(x)));

        // LibreYOLO's r50 backbone uses FrozenBatchNorm2d, without num_batches_tracked: such files load.
        auto frozen_norms = io::state_dict(*Model::create("rtdetr-r50", 2, "cpu").impl().net);
        for (auto it = frozen_norms.begin(); it != frozen_norms.end();)
            it = it->first.rfind("backbone.", 0) == 0 && it->first.ends_with(".num_batches_tracked")
                     ? frozen_norms.erase(it)
                     : std::next(it);
        const std::string r50_path = dir_.filePath("r50.safetensors").toStdString();
        io::write_safetensors(r50_path, frozen_norms, {});
        QCOMPARE(QString::fromStdString(Model::load(r50_path, "cpu").info().size), QString("r50"));

        Model r34 = Model::create("rtdetr-r34", 2, "cpu");
        const std::string r34_path = dir_.filePath("r34.safetensors").toStdString();
        io::write_safetensors(r34_path, io::state_dict(*r34.impl().net), {});
        QCOMPARE(QString::fromStdString(Model::load(r34_path, "cpu").info().size), QString("r34"));
    }
};

QTEST_APPLESS_MAIN(TestRtdetrPredict)
#include "test_rtdetr_predict.moc"
