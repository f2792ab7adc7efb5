// The whole D-FINE and DEIM networks against LibreYOLO 1.6.0's (tests/fixtures/dfine_model, written
// by scripts/fixtures/make_dfine_model.py): every size's state_dict keys, shapes and parameter count
// for both families; for n and s of each, on seeded weights, the decoder's logits and boxes within
// 1e-5 and predict()'s detections (Pillow's bilinear stretch, top-k without NMS) the same; model
// names and checkpoints that load back as their family.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <fstream>

#include "image/input_resize.h"
#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/dfine_network/dfine_network.h"
#include "support/detection_compare.h"
#include "support/seeded_weights.h"
#include "support/state_dict_layout.h"
#include "support/tensor_compare.h"

using namespace libreyolo;
using libreyolo::testing::fraction_found;
using models::dfine_network::DFINENetworkImpl;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/dfine_model/";

// make_dfine_model.py's seeded_with_constants: seeded_fill, then the constant entries as built and
// the affine blocks' scales around 1.
void seeded_with_constants(DFINENetworkImpl& net, int64_t seed) {
    testing::seeded_fill(net, seed);
    torch::NoGradGuard no_grad;
    net.decoder->reset_constants();
    for (auto& [name, t] : io::state_dict(net))
        if (name.ends_with(".lab.scale")) t.add_(1);
}

}  // namespace

class TestDfineModel : public QObject {
    Q_OBJECT
    nlohmann::json keys_ = nlohmann::json::parse(std::ifstream(kDir + "keys.json"));
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "detections.json"));
    io::TensorFile forward_ = io::read_safetensors(kDir + "forward.safetensors");
    QTemporaryDir dir_;

    Model seeded_model(const std::string& name) const {
        Model model = Model::create(name, expected_["nc"].get<int>(), "cpu");
        auto* net = dynamic_cast<DFINENetworkImpl*>(model.impl().net.get());
        if (!net) throw std::runtime_error(name + " is not a D-FINE network");
        seeded_with_constants(*net, expected_[name]["seed"].get<int64_t>());
        return model;
    }

    static void add_names() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"dfine-n", "dfine-s", "deim-n", "deim-s"}) QTest::newRow(name) << QString(name);
    }

    // The decoder treats its queries as a set, and the query selection orders them by score: two
    // queries whose scores differ in the last bits come out in either order depending on the CPU
    // kernels (LibreYOLO's own dfine-s swaps two under ATEN_CPU_CAPABILITY=avx2). Each of
    // LibreYOLO's queries is paired with our closest one; the pairing must be one-to-one.
    static torch::Tensor in_libreyolos_query_order(const torch::Tensor& ours, const torch::Tensor& libreyolo) {
        const torch::Tensor distance = torch::cdist(libreyolo[0], ours[0], /*p=*/1.0);
        const torch::Tensor closest = distance.argmin(1);
        if (std::get<0>(torch::_unique(closest)).numel() != closest.numel())
            throw std::runtime_error("queries do not pair one-to-one with LibreYOLO's");
        return ours.index_select(1, closest);
    }

private Q_SLOTS:
    void everySizeHasLibreYOLOsLayout_data() {
        QTest::addColumn<QString>("name");
        for (const char* family : {"dfine", "deim"})
            for (const char* size : {"n", "s", "m", "l", "x"}) {
                const std::string name = std::string(family) + "-" + size;
                QTest::newRow(name.c_str()) << QString::fromStdString(name);
            }
    }
    void everySizeHasLibreYOLOsLayout() {
        QFETCH(QString, name);
        Model model = Model::create(name.toStdString(), 80, "cpu");
        testing::compare_layout(*model.impl().net, keys_[name.toStdString()]);
        QCOMPARE(static_cast<qint64>(model.info().parameters), keys_[name.toStdString()]["parameters"].get<qint64>());
    }

    void modelNamesResolve() {
        QCOMPARE(QString::fromStdString(parse_model_name("dfine-n").canonical()), QString("dfine-n"));
        QCOMPARE(QString::fromStdString(parse_model_name("LibreDFINEx").canonical()), QString("dfine-x"));
        QCOMPARE(QString::fromStdString(parse_model_name("LibreDEIMs").canonical()), QString("deim-s"));
        QCOMPARE(QString::fromStdString(parse_model_name("deim_m").canonical()), QString("deim-m"));
        QVERIFY_THROWS_EXCEPTION(UnknownModel, parse_model_name("dfine-t"));
        for (const char* family : {"dfine", "deim"}) {
            const FamilyTraits& traits = family_traits(family);
            QVERIFY(traits.nms_free);
            QVERIFY(traits.input_resize == InputResize::StretchPil);
        }
    }

    void stretchIsPillowsBilinear() {
        const cv::Mat bgr = cv::imread(kDir + "image.png");
        cv::Mat rgb;
        cv::cvtColor(bgr, rgb, cv::COLOR_BGR2RGB);
        const int imgsz = expected_["imgsz"].get<int>();
        const cv::Mat ours = image::resize_to_input(rgb, imgsz, imgsz, InputResize::StretchPil);
        const torch::Tensor got = torch::from_blob(ours.data, {imgsz, imgsz, 3}, torch::kUInt8);
        QVERIFY(torch::equal(got, forward_.tensors.at("canvas")));
    }

    void decoderOutputsMatchLibreYOLO_data() { add_names(); }
    void decoderOutputsMatchLibreYOLO() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        Model model = seeded_model(n);
        auto* net = dynamic_cast<DFINENetworkImpl*>(model.impl().net.get());
        const torch::Tensor input =
            forward_.tensors.at("canvas").permute({2, 0, 1}).unsqueeze(0).to(torch::kFloat32) / 255.0;
        torch::NoGradGuard no_grad;
        const auto out = net->forward_queries(input);
        const torch::Tensor& want_logits = forward_.tensors.at(n + "_logits");
        const torch::Tensor& want_boxes = forward_.tensors.at(n + "_boxes");
        const torch::Tensor paired =
            in_libreyolos_query_order(torch::cat({out.logits, out.boxes}, 2), torch::cat({want_logits, want_boxes}, 2));
        const int64_t classes = want_logits.size(2);
        const double logits = testing::max_relative_difference(paired.narrow(2, 0, classes), want_logits);
        const double boxes = testing::max_relative_difference(paired.narrow(2, classes, 4), want_boxes);
        qInfo("%s: logits %.2e, boxes %.2e max relative difference to LibreYOLO", n.c_str(), logits, boxes);
        QVERIFY(logits < 1e-5);
        QVERIFY(boxes < 1e-5);
    }

    void predictMatchesLibreYOLO_data() { add_names(); }
    void predictMatchesLibreYOLO() {
        QFETCH(QString, name);
        const std::string n = name.toStdString();
        Model model = seeded_model(n);
        PredictOptions o;
        o.imgsz = expected_["imgsz"].get<int>();
        o.conf = expected_["conf"].get<float>();
        const std::vector<Result> results = model.predict(kDir + "image.png", o);
        QCOMPARE(results.size(), std::size_t(1));
        const std::vector<Detection> want = testing::libreyolo_detections(expected_[n]);
        QVERIFY(!want.empty());
        const double found = fraction_found(want, results[0].boxes, 0.01f);
        qInfo("%s: %zu of LibreYOLO's %zu detections found", n.c_str(), static_cast<std::size_t>(found * want.size()),
              want.size());
        QCOMPARE(results[0].boxes.size(), want.size());
        QVERIFY(found > 0.99);
    }

    void checkpointsLoadBackAsTheirFamily() {
        for (const std::string name : {"dfine-n", "deim-n"}) {
            Model model = seeded_model(name);
            const std::string path = dir_.filePath(QString::fromStdString(name + ".safetensors")).toStdString();
            model.save(path);
            Model loaded = Model::load(path, "cpu");
            QCOMPARE(QString::fromStdString(loaded.info().family),
                     QString::fromStdString(name.substr(0, name.find('-'))));
            QCOMPARE(QString::fromStdString(loaded.info().size), QString("n"));
            QCOMPARE(loaded.info().nc, 3);
        }
        // Bare weights: D-FINE and DEIM have the same keys, so the first registered (D-FINE) takes
        // them, as in LibreYOLO; the size and class count come from the shapes.
        Model model = seeded_model("deim-s");
        const std::string bare = dir_.filePath("bare.safetensors").toStdString();
        io::write_safetensors(bare, io::state_dict(*model.impl().net), {});
        Model loaded = Model::load(bare, "cpu");
        QCOMPARE(QString::fromStdString(loaded.info().family), QString("dfine"));
        QCOMPARE(QString::fromStdString(loaded.info().size), QString("s"));
        QCOMPARE(loaded.info().nc, 3);
    }

    void tooSmallAnInputIsRefused() {
        Model model = Model::create("dfine-n", 3, "cpu");
        auto* net = dynamic_cast<DFINENetworkImpl*>(model.impl().net.get());
        torch::NoGradGuard no_grad;
        // 160 x 160: 100 + 25 cells on n's two maps, fewer than 300 queries.
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, net->forward_queries(torch::zeros({1, 3, 160, 160})));
    }
};

QTEST_GUILESS_MAIN(TestDfineModel)
#include "test_dfine_model.moc"
