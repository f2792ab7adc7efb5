// D-FINE's hybrid encoder (shared with DEIM) against LibreYOLO 1.6.0's
// (scripts/fixtures/make_dfine_encoder.py): for every size, LibreYOLO's state_dict keys, shapes and
// parameter count; for n (two maps, the encoder on the coarser) and s (three maps), on seeded
// weights, every output map within 1e-5 of LibreYOLO's, relative to its scale.
#include <QtTest/QtTest>

#include <fstream>
#include <nlohmann/json.hpp>

#include "io/safetensors.h"
#include "libreyolo/errors.h"
#include "models/dfine_network/hybrid_encoder.h"
#include "support/seeded_weights.h"
#include "support/state_dict_layout.h"
#include "support/tensor_compare.h"

using namespace libreyolo;
using models::dfine_network::hybrid_encoder_options_for_size;
using models::dfine_network::HybridEncoder;

namespace {

const std::string kDir = LIBREYOLO_FIXTURES_DIR "/dfine_encoder/";
constexpr int64_t kSeed = 2000;  // make_dfine_encoder.py's SEED

}  // namespace

class TestDfineEncoder : public QObject {
    Q_OBJECT
    nlohmann::json expected_ = nlohmann::json::parse(std::ifstream(kDir + "keys.json"));

private Q_SLOTS:
    void everySizeHasLibreYOLOsLayout_data() {
        QTest::addColumn<QString>("size");
        for (const char* size : {"n", "s", "m", "l", "x"}) QTest::newRow(size) << QString(size);
    }
    void everySizeHasLibreYOLOsLayout() {
        QFETCH(QString, size);
        HybridEncoder net(hybrid_encoder_options_for_size(size.toStdString()));
        testing::compare_layout(*net, expected_[size.toStdString()]);
    }

    void mapsGiveLibreYOLOsOutputs_data() {
        QTest::addColumn<QString>("size");
        QTest::newRow("n: two maps") << QString("n");
        QTest::newRow("s: three maps") << QString("s");
    }
    void mapsGiveLibreYOLOsOutputs() {
        QFETCH(QString, size);
        const std::string s = size.toStdString();
        const auto options = hybrid_encoder_options_for_size(s);
        HybridEncoder net(options);
        testing::seeded_fill(*net, kSeed);
        net->eval();
        const io::TensorFile fixture = io::read_safetensors(kDir + "forward.safetensors");
        std::vector<torch::Tensor> maps;
        for (std::size_t i = 0; i < options.in_channels.size(); ++i)
            maps.push_back(fixture.tensors.at(s + "_in" + std::to_string(i)));
        torch::NoGradGuard no_grad;
        const std::vector<torch::Tensor> outs = net->forward(maps);
        QCOMPARE(outs.size(), maps.size());
        for (std::size_t i = 0; i < outs.size(); ++i) {
            const torch::Tensor& want = fixture.tensors.at(s + "_out" + std::to_string(i));
            QCOMPARE(outs[i].sizes().vec(), want.sizes().vec());
            const double gap = testing::max_relative_difference(outs[i], want);
            qInfo("%s output %zu: max |ours - LibreYOLO| / max |LibreYOLO| = %.2e", s.c_str(), i, gap);
            QVERIFY(gap < 1e-5);
        }
    }

    void unknownSizesAndBadIndicesAreRefused() {
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, hybrid_encoder_options_for_size("q"));
        auto o = hybrid_encoder_options_for_size("s");
        o.use_encoder_idx = {3};
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, HybridEncoder{o});
    }
};

QTEST_GUILESS_MAIN(TestDfineEncoder)
#include "test_dfine_encoder.moc"
