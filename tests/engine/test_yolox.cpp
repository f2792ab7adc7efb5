// YOLOX against LibreYOLO 1.6.0 (tests/fixtures/yolox_parity, written by
// scripts/fixtures/make_yolox_parity.py): parameter and state-dict counts of every size, the
// checkpoint's keys, model names, Pillow's bilinear resize, the preprocess (Pillow letterbox, BGR,
// 0–255), the forward of seeded YOLOX-n weights, the post-processing, and predict end to end.
#include <QtTest/QtTest>

#include "support/detection_compare.h"

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <algorithm>
#include <fstream>
#include <tuple>

#include "image/pil_resize.h"
#include "image/preprocess.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/yolox/yolox.h"
#include "nn/flop_counter.h"
#include "predict/postprocess.h"
#include "registry/network_spec.h"

using namespace libreyolo;
using libreyolo::testing::compare_detections;
using torch::indexing::Slice;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/yolox_parity/";

// LibreYOLO's forward on the fixture's input as three CPUs' kernels compute it: the fixture's
// machine (AVX-512), an AVX2 CPU and a baseline one (what the cpu-capability runs select).
const char* const kReferences[] = {"output", "output_avx2", "output_default"};

std::vector<Detection> expected_boxes(const nlohmann::json& j) {
    std::vector<Detection> boxes;
    for (std::size_t i = 0; i < j["boxes"].size(); ++i) {
        const auto& b = j["boxes"][i];
        boxes.push_back({b[0], b[1], b[2], b[3], j["scores"][i], j["classes"][i]});
    }
    return boxes;
}

// LibreYOLO's decoded output (1, anchors, 85: cx, cy, w, h, objectness, classes) as the engine's
// detector output for one image (84, anchors: xyxy, objectness × class), with its postprocess's
// arithmetic.
torch::Tensor as_detector_output(const torch::Tensor& decoded) {
    const torch::Tensor d = decoded[0];
    const torch::Tensor centre = d.index({Slice(), Slice(0, 2)}), size = d.index({Slice(), Slice(2, 4)});
    const torch::Tensor scores = d.index({Slice(), Slice(4, 5)}) * d.index({Slice(), Slice(5, torch::indexing::None)});
    return torch::cat({centre - size / 2, centre + size / 2, scores}, 1).transpose(0, 1);
}

cv::Mat sample_rgb() {
    cv::Mat rgb;
    cv::cvtColor(cv::imread(LIBREYOLO_SAMPLE_IMAGE, cv::IMREAD_COLOR), rgb, cv::COLOR_BGR2RGB);
    return rgb;
}

}  // namespace

class TestYolox : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "boxes.json"));
    io::TensorFile io_ = io::read_safetensors(kDir + "io.safetensors");
    Model model_ = Model::load(kDir + "weights.safetensors", "cpu");

    predict::PostprocessOptions post_options() const {
        predict::PostprocessOptions o;
        o.conf = expected_["conf"];
        o.iou = expected_["iou"];
        o.max_det = expected_["max_det"];
        o.input_h = o.input_w = 416;
        o.orig_w = expected_["original_size_wh"][0];
        o.orig_h = expected_["original_size_wh"][1];
        o.resize = InputResize::LetterboxPil;
        o.best_class_only = true;
        return o;
    }

    torch::Tensor our_forward(const torch::Tensor& input) const {
        torch::NoGradGuard g;
        return model_.impl().net->forward(input);
    }

    // The reference LibreYOLO output that ours equals bit for bit ("" when none does).
    std::string identical_reference(const torch::Tensor& ours) const {
        for (const char* name : kReferences)
            if (torch::equal(ours, as_detector_output(io_.tensors.at(name)))) return name;
        return "";
    }

    // The fixture's input as the engine hands it to every network: RGB in [0, 1].
    torch::Tensor fixture_input() const { return io_.tensors.at("input_bgr").flip({1}).to(torch::kFloat32) / 255.0; }

private Q_SLOTS:
    void parameterAndStateDictCountsMatchLibreYOLO() {
        for (const auto& [size, counts] : expected_["sizes"].items()) {
            models::yolox::YOLOXImpl net(size, 80);
            QCOMPARE(nn::count_parameters(net), counts["parameters"].get<int64_t>());
            QCOMPARE(io::state_dict(net).size(), counts["state_dict_entries"].get<std::size_t>());
        }
        // The figures, so a regenerated fixture cannot move them silently.
        QCOMPARE(expected_["sizes"]["n"]["parameters"].get<int64_t>(), int64_t(912159));
        QCOMPARE(expected_["sizes"]["x"]["parameters"].get<int64_t>(), int64_t(99071455));
    }

    void stateDictKeysAndShapesAreLibreYOLOs() {
        const io::TensorFile weights = io::read_safetensors(kDir + "weights.safetensors");
        const auto ours = io::state_dict(*model_.impl().net);
        QCOMPARE(ours.size(), weights.tensors.size());
        for (const auto& [key, tensor] : weights.tensors) {
            QVERIFY2(ours.count(key), key.c_str());
            QVERIFY2(ours.at(key).sizes() == tensor.sizes(), key.c_str());
        }
    }

    void namesAndDefaults() {
        for (const char* spelling : {"yolox-s", "yoloxs", "LibreYOLOXs", "libreyolox-s", "YOLOX-S"}) {
            const ModelName name = parse_model_name(spelling);
            QCOMPARE(name.family, std::string("yolox"));
            QCOMPARE(name.size, std::string("s"));
        }
        QCOMPARE(canonical_family("LibreYOLOX"), std::string("yolox"));
        const FamilyTraits& traits = family_traits("yolox");
        QCOMPARE(traits.default_imgsz_for("n"), 416);
        QCOMPARE(traits.default_imgsz_for("t"), 416);
        QCOMPARE(traits.default_imgsz_for("s"), 640);
        QCOMPARE(Model::create("yolox-n", 3, "cpu").info().imgsz, 416);
        QCOMPARE(Model::create("yolox-m", 3, "cpu").info().imgsz, 640);
        QCOMPARE(model_.info().family, std::string("yolox"));
        QCOMPARE(model_.info().imgsz, 416);
    }

    void weightsWithoutFieldsAreRecognised() {
        const io::TensorFile weights = io::read_safetensors(kDir + "weights.safetensors");
        const registry::NetworkSpec spec = registry::infer_network_spec(weights.tensors, {}, "weights");
        QCOMPARE(spec.name.family, std::string("yolox"));
        QCOMPARE(spec.name.size, std::string("n"));
        QCOMPARE(spec.nc, int64_t(80));
        io::CheckpointMeta wrong;
        wrong.model_family = "yolox";
        wrong.size = "s";
        QVERIFY_THROWS_EXCEPTION(FormatError, registry::infer_network_spec(weights.tensors, wrong, "weights"));
    }

    // YOLOX's weights see BGR bytes; the engine hands networks RGB / 255. The round trip must
    // give the bytes back exactly in both precisions the engine runs.
    void networkPixelsAreTheBytes() {
        const torch::Tensor bytes = torch::arange(256, torch::kFloat32).view({1, 1, 1, 256}).expand({1, 3, 1, 256});
        for (auto dtype : {torch::kFloat32, torch::kFloat16}) {
            const torch::Tensor unit = (bytes / 255.0).to(dtype);
            const torch::Tensor back = models::yolox::YOLOXImpl::to_network_pixels(unit.flip({1}));
            QVERIFY(torch::equal(back.to(torch::kFloat32), bytes));
        }
    }

    void pilResizeMatchesPillow() {
        const torch::Tensor source = io_.tensors.at("pil_source");
        cv::Mat image(static_cast<int>(source.size(0)), static_cast<int>(source.size(1)), CV_8UC3,
                      source.data_ptr<uint8_t>());
        for (const auto& wh : expected_["pil_sizes_wh"]) {
            const int w = wh[0], h = wh[1];
            const cv::Mat ours = image::pil_bilinear_resize(image, w, h);
            const torch::Tensor theirs = io_.tensors.at("pil_" + std::to_string(w) + "x" + std::to_string(h));
            const torch::Tensor got = torch::from_blob(ours.data, {h, w, 3}, torch::kUInt8);
            const int64_t differing = (got != theirs).sum().item<int64_t>();
            QVERIFY2(differing == 0, qPrintable(QString("%1x%2: %3 bytes differ").arg(w).arg(h).arg(differing)));
        }
    }

    void preprocessIsLibreYOLOs() {
        const torch::Tensor input = image::prepare_input({sample_rgb()}, 416, family_traits("yolox").input_resize,
                                                         torch::kCPU, torch::kFloat32);
        const torch::Tensor bgr = models::yolox::YOLOXImpl::to_network_pixels(input);
        QVERIFY(torch::equal(bgr, io_.tensors.at("input_bgr").to(torch::kFloat32)));
    }

    // Where this CPU's kernels are one of the references' (AVX-512, AVX2, baseline x86), our
    // forward is LibreYOLO's bit for bit. Elsewhere it must be as close to the nearest reference as
    // LibreYOLO's own outputs on two kinds of CPU are to each other: these random weights
    // amplify the last bits of a convolution into 1e-4 of a score.
    void forwardMatchesLibreYOLO() {
        const torch::Tensor ours = our_forward(fixture_input())[0];
        const std::string identical = identical_reference(ours);
        qInfo("forward bit-identical to LibreYOLO's %s", identical.empty() ? "on no reference CPU" : identical.c_str());
        if (!identical.empty()) return;
        const auto difference = [](const torch::Tensor& a, const torch::Tensor& b) {
            return ((a - b).abs() / b.abs().clamp_min(1.0)).max().item<double>();
        };
        double spread = 0, nearest = 1e9;
        for (const char* a : kReferences) {
            const torch::Tensor ref = as_detector_output(io_.tensors.at(a));
            nearest = std::min(nearest, difference(ours, ref));
            for (const char* b : kReferences)
                spread = std::max(spread, difference(ref, as_detector_output(io_.tensors.at(b))));
        }
        qInfo("relative difference to the nearest reference %g; the references' own spread %g", nearest, spread);
        QVERIFY2(nearest <= spread, qPrintable(QString("%1 > %2").arg(nearest).arg(spread)));
    }

    void postprocessOfLibreYOLOOutputGivesItsBoxes() {
        const auto boxes =
            predict::postprocess_detections(as_detector_output(io_.tensors.at("output")), post_options());
        QVERIFY(boxes.size() > 50);                                          // real NMS work:
        QVERIFY(expected_["candidates"].get<std::size_t>() > boxes.size());  // some were suppressed
        compare_detections(boxes, expected_boxes(expected_), 1e-6f);
    }

    void predictGivesLibreYOLOBoxes() {
        PredictOptions o;
        const std::vector<Result> results = model_.predict(LIBREYOLO_SAMPLE_IMAGE, o);
        QCOMPARE(results.size(), std::size_t(1));
        // predict() composes the stages checked above: its boxes are LibreYOLO's on the reference
        // whose forward ours equals, else those of our postprocess of our forward.
        const torch::Tensor ours = our_forward(fixture_input());
        const std::string identical = identical_reference(ours[0]);
        if (!identical.empty())
            compare_detections(results[0].boxes, expected_boxes(expected_["references"][identical]), 1e-6f);
        else
            compare_detections(results[0].boxes, predict::postprocess_detections(ours[0], post_options()), 0.0f);
    }
};

QTEST_APPLESS_MAIN(TestYolox)
#include "test_yolox.moc"
