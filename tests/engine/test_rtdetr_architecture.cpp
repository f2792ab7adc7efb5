// RT-DETR's backbone against LibreYOLO's own (tests/fixtures/rtdetr_presnet, written by
// scripts/fixtures/make_rtdetr_presnet_keys.py from LibreYOLO 1.6.0): the same state_dict keys and
// shapes and parameter counts for PResNet-18, -34 and -50, and the same outputs for PResNet-18
// with every tensor filled by the fixture's formula.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include "io/checkpoint.h"
#include "io/safetensors.h"
#include "models/network_factory.h"
#include "models/rtdetr/presnet.h"

using namespace libreyolo;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/rtdetr_presnet/";

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
        QCOMPARE(static_cast<qint64>(models::count_parameters(*net)), parameters);
        const auto ours = io::state_dict(*net);
        QCOMPARE(ours.size(), want["keys"].size());
        for (const auto& [key, shape] : want["keys"].items()) {
            QVERIFY2(ours.count(key), key.c_str());
            QVERIFY2(ours.at(key).sizes().vec() == shape.get<std::vector<int64_t>>(), key.c_str());
        }
        for (int i = 0; i < 3; ++i) QCOMPARE(net->out_channels()[i], want["out_channels"][i].get<int64_t>());
    }

    void presnet18GivesLibreYOLOsFeatures() {
        models::rtdetr::PResNet net(18);
        fill_by_formula(*net);
        net->eval();
        const torch::Tensor x =
            (0.5 + 0.5 * torch::sin(0.11 * torch::arange(3 * 64 * 64, torch::kFloat32))).view({1, 3, 64, 64});
        torch::NoGradGuard no_grad;
        const std::vector<torch::Tensor> ours = net->forward(x);
        const io::TensorFile theirs = io::read_safetensors(kDir + "forward.safetensors");
        QCOMPARE(ours.size(), std::size_t(3));
        for (int i = 0; i < 3; ++i) {
            const torch::Tensor& want = theirs.tensors.at("out" + std::to_string(i));
            QCOMPARE(ours[i].sizes().vec(), want.sizes().vec());
            const double relative = ((ours[i] - want).abs().max() / want.abs().max()).item<double>();
            qInfo("stride %d: max |ours - LibreYOLO| / max |LibreYOLO| = %.2e", 8 << i, relative);
            QVERIFY(relative < 1e-5);
        }
    }
};

QTEST_APPLESS_MAIN(TestRtdetrArchitecture)
#include "test_rtdetr_architecture.moc"
