// HGNetv2, the backbone of D-FINE and DEIM, against LibreYOLO 1.6.0's
// (scripts/fixtures/make_dfine_backbone.py): for every size, LibreYOLO's state_dict keys and
// shapes, parameter count, frozen stem and output channels; for n (affine blocks, BatchNorm) and
// l (no affine blocks, frozen BatchNorm), on seeded weights, the features of every returned stage
// within 1e-5 of LibreYOLO's.
#include <QtTest/QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "models/dfine_network/hgnetv2.h"
#include "support/seeded_weights.h"
#include "support/state_dict_layout.h"
#include "support/tensor_compare.h"

using namespace libreyolo;
using models::dfine_network::HGNetv2;
using models::dfine_network::hgnetv2_options_for_size;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/dfine_backbone/";
constexpr int64_t kSeed = 1000;  // make_dfine_backbone.py's SEED

std::int64_t trainable_parameters(const torch::nn::Module& net) {
    std::int64_t n = 0;
    for (const auto& p : net.parameters())
        if (p.requires_grad()) n += p.numel();
    return n;
}

}  // namespace

class TestDfineBackbone : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "keys.json"));

private Q_SLOTS:
    void everySizeHasLibreYOLOsLayout_data() {
        QTest::addColumn<QString>("size");
        for (const char* size : {"n", "s", "m", "l", "x"}) QTest::newRow(size) << QString(size);
    }
    void everySizeHasLibreYOLOsLayout() {
        QFETCH(QString, size);
        const auto& want = expected_[size.toStdString()];
        HGNetv2 net(hgnetv2_options_for_size(size.toStdString()));
        testing::compare_layout(*net, want);
        QCOMPARE(static_cast<qint64>(trainable_parameters(*net)), want["trainable"].get<qint64>());
        QCOMPARE(net->out_channels(), want["out_channels"].get<std::vector<int64_t>>());
    }

    void stagesGiveLibreYOLOsFeatures_data() {
        QTest::addColumn<QString>("size");
        QTest::newRow("n: affine blocks, BatchNorm") << QString("n");
        QTest::newRow("l: frozen BatchNorm") << QString("l");
    }
    void stagesGiveLibreYOLOsFeatures() {
        QFETCH(QString, size);
        HGNetv2 net(hgnetv2_options_for_size(size.toStdString()));
        testing::seeded_fill(*net, kSeed);
        net->eval();
        const io::TensorFile fixture = io::read_safetensors(kDir + "forward.safetensors");
        torch::NoGradGuard no_grad;
        const std::vector<torch::Tensor> outs = net->forward(fixture.tensors.at("input"));
        QCOMPARE(outs.size(), net->out_channels().size());
        for (std::size_t i = 0; i < outs.size(); ++i) {
            const torch::Tensor& want = fixture.tensors.at(size.toStdString() + "_out" + std::to_string(i));
            QCOMPARE(outs[i].sizes().vec(), want.sizes().vec());
            const double gap = testing::max_relative_difference(outs[i], want);
            qInfo("%s stage output %zu: max |ours - LibreYOLO| / max |LibreYOLO| = %.2e", qPrintable(size), i, gap);
            QVERIFY(gap < 1e-5);
        }
    }

    void unknownSizesAndArchitecturesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, hgnetv2_options_for_size("q"));
        models::dfine_network::HGNetv2Options o;
        o.arch = "B9";
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, HGNetv2{o});
    }
};

QTEST_GUILESS_MAIN(TestDfineBackbone)
#include "test_dfine_backbone.moc"
