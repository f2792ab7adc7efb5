// The fused inference path (PredictOptions::fuse, Model::fuse): every BatchNorm folded into its
// convolution in a copy of the network. On the parity fixtures' weights its outputs are the eager
// network's within 1e-4 of their scale (YOLOv9-t, YOLOX-n; RT-DETR-r18's encoder features, and its
// decoder's queries from the same features, twice: the second call reads the kept anchors), its
// boxes the same; the model's
// own network is untouched; a change of dtype builds the copy again; a quantized model refuses.
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <fstream>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "model/model_impl.h"
#include "models/rtdetr/rtdetr.h"
#include "support/detection_compare.h"
#include "support/query_pairing.h"
#include "support/seeded_weights.h"

using namespace libreyolo;

namespace {

const std::string kFixtures = LIBREYOLO_FIXTURES_DIR;

// max |fused − eager| / max |eager|: the gap against the output's own scale (boxes in pixels and
// scores share one tensor, so a coordinate near 0 is measured against the box sizes).
float relative_gap(const torch::Tensor& eager, const torch::Tensor& fused) {
    return ((fused - eager).abs().max() / eager.abs().max()).item<float>();
}

// The outputs' gap. RT-DETR: its encoder's feature maps, the convolutional part that folding
// changes; the top-300 query selection after it is a discrete choice that a rounding-level change
// may flip between near-tied cells.
float fused_gap(Model& model, const torch::Tensor& input) {
    torch::InferenceMode guard;
    auto* eager_detr = dynamic_cast<models::rtdetr::RTDETRModelImpl*>(model.impl().net.get());
    if (!eager_detr) {
        const torch::Tensor eager = model.impl().forward(input, GraphMode::Off, false);
        return relative_gap(eager, model.impl().forward(input, GraphMode::Off, true));
    }
    auto& fused_detr = dynamic_cast<models::rtdetr::RTDETRModelImpl&>(model.impl().fused_network());
    const auto eager = eager_detr->encoder->forward(eager_detr->backbone->forward(input));
    const auto fused = fused_detr.encoder->forward(fused_detr.backbone->forward(input));
    float gap = 0;
    for (std::size_t i = 0; i < eager.size(); ++i) gap = std::max(gap, relative_gap(eager[i], fused[i]));
    return gap;
}

torch::Tensor fixture_input(const std::string& file) {
    return io::read_safetensors(kFixtures + file).tensors.at("input_u8").to(torch::kFloat32) / 255.0;
}

}  // namespace

class TestFuse : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fusedOutputsAreTheEagerOnesWithin1e4_data() {
        QTest::addColumn<QString>("model");
        QTest::newRow("yolo9-t") << "yolo9-t";
        QTest::newRow("yolo9-t 448x640") << "yolo9-t 448x640";  // predict's letterboxed size, channels-last
        QTest::newRow("yolox-n") << "yolox-n";
        QTest::newRow("rtdetr-r18") << "rtdetr-r18";
    }
    void fusedOutputsAreTheEagerOnesWithin1e4() {
        QFETCH(QString, model);
        Model m = [&] {
            if (model.startsWith("yolo9-t"))
                return Model::load(kFixtures + "/yolo9t_parity/weights.safetensors", "cpu");
            if (model == "yolox-n") return Model::load(kFixtures + "/yolox_parity/weights.safetensors", "cpu");
            const auto expected = nlohmann::json::parse(std::ifstream(kFixtures + "/rtdetr_model/detections.json"));
            Model seeded = Model::create("rtdetr-r18", expected["nc"].get<int>(), "cpu");
            testing::seeded_fill(*seeded.impl().net, expected["seed"].get<int64_t>());
            return seeded;
        }();
        const torch::Tensor input = model == "yolo9-t"           ? fixture_input("/yolo9t_parity/io.safetensors")
                                    : model == "yolo9-t 448x640" ? torch::rand({1, 3, 448, 640})
                                    : model == "yolox-n"
                                        ? io::read_safetensors(kFixtures + "/yolox_parity/io.safetensors")
                                                  .tensors.at("input_bgr")
                                                  .to(torch::kFloat32) /
                                              255.0
                                        : io::read_safetensors(kFixtures + "/rtdetr_model/forward.safetensors")
                                                  .tensors.at("canvas")
                                                  .permute({2, 0, 1})
                                                  .unsqueeze(0)
                                                  .to(torch::kFloat32) /
                                              255.0;
        const auto before = io::state_dict(*m.impl().net);
        const int folded = m.fuse();
        QVERIFY2(folded > 0, qPrintable(QString::number(folded)));
        const float gap = fused_gap(m, input);
        qInfo("%s: %d BatchNorms folded, max relative |fused - eager| %g", qPrintable(model), folded, gap);
        QVERIFY2(gap <= 1e-4f, qPrintable(QString::number(gap)));
        // The model's own network is what it was.
        for (const auto& [name, t] : io::state_dict(*m.impl().net))
            QVERIFY2(torch::equal(t, before.at(name)), name.c_str());
    }

    // RT-DETR's fused decoder (projections folded and written into the memory, anchors kept, value
    // projections before the layers, ReLUs in the products) on the eager encoder's features: the eager
    // decoder's queries within 1e-4 of their scale, on both calls. Queries are paired first: two cells
    // of near-equal score may be selected in the other order on another CPU's last bits. Batch 2 (the
    // image and its mirror) writes each image's projections at the memory's batch stride.
    void fusedRtdetrDecoderGivesTheEagerQueries_data() {
        QTest::addColumn<int>("batch");
        QTest::newRow("batch 1") << 1;
        QTest::newRow("batch 2") << 2;
    }

    void fusedRtdetrDecoderGivesTheEagerQueries() {
        QFETCH(int, batch);
        const auto expected = nlohmann::json::parse(std::ifstream(kFixtures + "/rtdetr_model/detections.json"));
        Model m = Model::create("rtdetr-r18", expected["nc"].get<int>(), "cpu");
        testing::seeded_fill(*m.impl().net, expected["seed"].get<int64_t>());
        const torch::Tensor image = io::read_safetensors(kFixtures + "/rtdetr_model/forward.safetensors")
                                        .tensors.at("canvas")
                                        .permute({2, 0, 1})
                                        .unsqueeze(0)
                                        .to(torch::kFloat32) /
                                    255.0;
        const torch::Tensor input = batch == 1 ? image : torch::cat({image, image.flip(3)});
        torch::InferenceMode guard;
        auto& eager = dynamic_cast<models::rtdetr::RTDETRModelImpl&>(*m.impl().net);
        auto& fused = dynamic_cast<models::rtdetr::RTDETRModelImpl&>(m.impl().fused_network());
        const auto features = eager.encoder->forward(eager.backbone->forward(input));
        const models::rtdetr::DecoderOutput want = eager.decoder->forward(features);
        std::vector<torch::Tensor> channels_last;
        for (const torch::Tensor& f : features)
            channels_last.push_back(f.contiguous(torch::MemoryFormat::ChannelsLast));
        for (int call = 0; call < 2; ++call) {
            const models::rtdetr::DecoderOutput got = fused.decoder->forward(channels_last);
            const torch::Tensor pairing = testing::pair_queries(torch::cat({got.boxes, got.logits}, -1),
                                                                torch::cat({want.boxes, want.logits}, -1));
            const float boxes = relative_gap(testing::in_order(want.boxes, pairing), got.boxes),
                        logits = relative_gap(testing::in_order(want.logits, pairing), got.logits);
            qInfo("call %d: max relative |fused - eager| boxes %g, logits %g", call, boxes, logits);
            QVERIFY2(boxes <= 1e-4f && logits <= 1e-4f, qPrintable(QString("%1 %2").arg(boxes).arg(logits)));
        }
    }

    // The bundled demo model predicts the sample image with the same boxes fused or not.
    void fusedPredictionsAreTheEagerOnes() {
        Model m = Model::load(default_model(), "cpu");
        PredictOptions o;
        const Result eager = m.predict(LIBREYOLO_SAMPLE_IMAGE, o).front();
        o.fuse = true;
        const Result fused = m.predict(LIBREYOLO_SAMPLE_IMAGE, o).front();
        QVERIFY(!eager.boxes.empty());
        testing::compare_detections(fused.boxes, eager.boxes, 1e-3f);
    }

    void theCopyFollowsTheModelAndQuantizedModelsRefuse() {
        Model m = Model::create("yolo9-t", 80, "cpu");
        const int folded = m.fuse();
        QCOMPARE(m.fuse(), folded);  // built once
        m.set_dtype("float16");      // builds it again, in float16
        QCOMPARE(m.fuse(), folded);
        QCOMPARE(m.impl().fused->parameters().front().scalar_type(), torch::kFloat16);
        m.set_dtype("float32");
        m.quantize(QuantizeOptions{});
        QVERIFY_THROWS_EXCEPTION(NotSupported, m.fuse());
    }
};

QTEST_GUILESS_MAIN(TestFuse)
#include "test_fuse.moc"
