// RT-DETR against LibreYOLO's own (tests/fixtures/rtdetr_parts, written by
// scripts/fixtures/make_rtdetr_parts.py from LibreYOLO 1.6.0): the whole model's state_dict keys,
// shapes and parameter counts for r18, r34 and r50, the same for PResNet-18/34/50, RT-DETR-r18's
// hybrid encoder and decoder head, and the outputs of PResNet-18 and that encoder with every tensor
// filled by the fixture's formula (within 1e-4 relative, as the YOLOv9 parity allows another CPU's
// float32 kernels). The decoder's and the whole model's outputs are compared in
// test_rtdetr_predict and test_rtdetr_loss, on seeded weights: with formula weights the top-300
// query selection is all near-equal scores, where last bits decide.
#include <QtTest/QtTest>

#include "support/state_dict_layout.h"
#include "support/tensor_compare.h"

#include <nlohmann/json.hpp>

#include <fstream>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "models/rtdetr/decoder.h"
#include "models/rtdetr/hybrid_encoder.h"
#include "models/rtdetr/presnet.h"
#include "models/rtdetr/rtdetr.h"
#include "nn/flop_counter.h"
#include "registry/network_spec.h"

using namespace libreyolo;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/rtdetr_parts/";

// Entry k of the sorted state_dict: 0.1 · sin(0.37 · i + k); running_var 1 + |that|.
void fill_by_formula(torch::nn::Module& net) {
    torch::NoGradGuard no_grad;
    int k = 0;
    for (auto& [name, t] : io::state_dict(net)) {
        if (t.is_floating_point()) {
            const torch::Tensor pattern = 0.1 * torch::sin(0.37 * torch::arange(t.numel(), torch::kFloat32) + k);
            t.copy_((name.ends_with("running_var") ? 1 + pattern.abs() : pattern).view_as(t));
        }
        ++k;
    }
}

void compare_outputs(const std::vector<torch::Tensor>& ours, const io::TensorFile& theirs, const std::string& prefix) {
    QCOMPARE(ours.size(), std::size_t(3));
    for (int i = 0; i < 3; ++i) {
        const torch::Tensor& want = theirs.tensors.at(prefix + std::to_string(i));
        QCOMPARE(ours[i].sizes().vec(), want.sizes().vec());
        const double relative = testing::max_relative_difference(ours[i], want);
        qInfo("%s%d: max |ours - LibreYOLO| / max |LibreYOLO| = %.2e", prefix.c_str(), i, relative);
        QVERIFY(relative < 1e-4);
    }
}

}  // namespace

class TestRtdetrArchitecture : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "keys.json"));

private Q_SLOTS:
    void backbonesHaveLibreYOLOsKeysShapesAndParameterCounts_data() {
        QTest::addColumn<int>("depth");
        QTest::addColumn<qint64>("parameters");
        QTest::newRow("r18") << 18 << qint64(11199968);
        QTest::newRow("r34") << 34 << qint64(21308128);
        QTest::newRow("r50") << 50 << qint64(23527264);
    }
    void backbonesHaveLibreYOLOsKeysShapesAndParameterCounts() {
        QFETCH(int, depth);
        QFETCH(qint64, parameters);
        models::rtdetr::PResNet net(depth);
        const auto& want = expected_[std::to_string(depth)];
        QCOMPARE(want["parameters"].get<qint64>(), parameters);
        QCOMPARE(static_cast<qint64>(nn::count_parameters(*net)), parameters);
        testing::compare_layout(*net, want);
        for (int i = 0; i < 3; ++i) QCOMPARE(net->out_channels()[i], want["out_channels"][i].get<int64_t>());
    }

    void presnet18GivesLibreYOLOsFeatures() {
        models::rtdetr::PResNet net(18);
        fill_by_formula(*net);
        net->eval();
        const torch::Tensor x =
            (0.5 + 0.5 * torch::sin(0.11 * torch::arange(3 * 64 * 64, torch::kFloat32))).view({1, 3, 64, 64});
        torch::NoGradGuard no_grad;
        compare_outputs(net->forward(x), io::read_safetensors(kDir + "forward.safetensors"), "out");
    }

    void theR18EncoderHasLibreYOLOsLayoutAndOutputs() {
        models::rtdetr::HybridEncoderOptions o;
        o.in_channels = {128, 256, 512};
        o.expansion = 0.5;
        models::rtdetr::HybridEncoder encoder(o);
        testing::compare_layout(*encoder, nlohmann::json::parse(std::ifstream(kDir + "encoder.json")));
        QCOMPARE(static_cast<qint64>(nn::count_parameters(*encoder)), qint64(4965120));
        fill_by_formula(*encoder);
        encoder->eval();
        std::vector<torch::Tensor> maps;
        const std::array<std::pair<int64_t, int64_t>, 3> sizes = {{{128, 8}, {256, 4}, {512, 2}}};
        for (int c = 0; c < 3; ++c) {
            const auto [channels, side] = sizes[static_cast<std::size_t>(c)];
            maps.push_back((0.5 * torch::sin(0.13 * torch::arange(channels * side * side, torch::kFloat32) + c))
                               .view({1, channels, side, side}));
        }
        torch::NoGradGuard no_grad;
        compare_outputs(encoder->forward(maps), io::read_safetensors(kDir + "forward.safetensors"), "encoder_out");
    }

    // Layout only: with formula weights the decoder's top-300 query selection is all ties, so its
    // outputs are compared on seeded weights, in the whole model (test_rtdetr_predict,
    // test_rtdetr_loss).
    void theR18DecoderHasLibreYOLOsLayout() {
        models::rtdetr::DecoderOptions o;
        o.num_layers = 3;
        models::rtdetr::RTDETRTransformer decoder(o, std::array<int64_t, 3>{256, 256, 256});
        testing::compare_layout(*decoder, nlohmann::json::parse(std::ifstream(kDir + "decoder.json")));
        QCOMPARE(static_cast<qint64>(nn::count_parameters(*decoder)), qint64(4019376));
        QCOMPARE(11199968 + 4965120 + 4019376, 20184464);  // LibreYOLO's RT-DETR-r18, all three parts
    }

    void wholeModelsHaveLibreYOLOsLayout_data() {
        QTest::addColumn<QString>("size");
        QTest::addColumn<qint64>("parameters");
        QTest::newRow("r18") << "r18" << qint64(20184464);
        QTest::newRow("r34") << "r34" << qint64(31441668);
        QTest::newRow("r50") << "r50" << qint64(42944620);
    }
    void wholeModelsHaveLibreYOLOsLayout() {
        QFETCH(QString, size);
        QFETCH(qint64, parameters);
        models::rtdetr::RTDETRModel model(size.toStdString(), 80);
        const auto want = nlohmann::json::parse(std::ifstream(kDir + "model.json"))[size.toStdString()];
        QCOMPARE(want["parameters"].get<qint64>(), parameters);
        testing::compare_layout(*model, want);
        QVERIFY_THROWS_EXCEPTION(UnknownModel, models::rtdetr::RTDETRModel("r99", 80));
    }
};

QTEST_APPLESS_MAIN(TestRtdetrArchitecture)
#include "test_rtdetr_architecture.moc"
