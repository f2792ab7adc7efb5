// YOLOv9 module tree: LibreYOLO's parameter counts, state_dict names and output shapes.
#include <QtTest/QtTest>

#include "io/checkpoint.h"
#include "libreyolo/model.h"
#include "models/yolo9/yolo9.h"
#include "nn/flop_counter.h"
#include "registry/network_spec.h"

using namespace libreyolo;
using libreyolo::models::yolo9::YOLO9;

class TestYolo9Architecture : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parameterCountsMatchLibreYOLO_data() {
        QTest::addColumn<QString>("size");
        QTest::addColumn<qint64>("parameters");
        QTest::newRow("t") << "t" << qint64(2036544);
        QTest::newRow("s") << "s" << qint64(7226192);
        QTest::newRow("m") << "m" << qint64(20123984);
        QTest::newRow("c") << "c" << qint64(25498736);
    }
    void parameterCountsMatchLibreYOLO() {
        QFETCH(QString, size);
        QFETCH(qint64, parameters);
        YOLO9 net(size.toStdString(), 80);
        QCOMPARE(qint64(nn::count_parameters(*net)), parameters);
    }

    void stateDictHasLibreYOLOKeys() {
        YOLO9 net("t", 80);
        const auto sd = io::state_dict(*net);
        QCOMPARE(sd.size(), std::size_t(1338));
        std::size_t batches_tracked = 0;
        for (const auto& [k, v] : sd) batches_tracked += k.ends_with("num_batches_tracked");
        QCOMPARE(batches_tracked, std::size_t(221));
        for (const char* key :
             {"backbone.conv0.conv.weight", "backbone.conv0.bn.running_var", "backbone.elan1.cv4.conv.weight",
              "backbone.elan2.cv2.0.m.2.cv1.conv1.conv.weight", "backbone.down2.cv.conv.weight",
              "backbone.spp.cv5.bn.bias", "neck.elan_down2.cv3.1.conv.weight", "neck.down1.cv.bn.weight",
              "head.cv2.0.2.weight", "head.cv2.2.1.conv.weight", "head.cv3.1.2.bias"})
            QVERIFY2(sd.count(key), key);
        QCOMPARE(sd.at("head.cv2.0.1.conv.weight").sizes().vec(), (std::vector<int64_t>{64, 16, 3, 3}));  // groups 4
        QCOMPARE(sd.at("head.cv3.0.0.conv.weight").size(0), int64_t(80));  // max(64, min(nc, 100))
    }

    void cSizeUsesADown() {
        YOLO9 net("c", 80);
        const auto sd = io::state_dict(*net);
        QVERIFY(sd.count("backbone.down2.cv1.conv.weight"));
        QVERIFY(sd.count("backbone.down2.cv2.conv.weight"));
        QVERIFY(!sd.count("backbone.down2.cv.conv.weight"));
    }

    void forwardShapeIsBoxesPlusScores() {
        YOLO9 net("t", 5);
        net->eval();
        torch::NoGradGuard g;
        const torch::Tensor out = net->forward(torch::rand({2, 3, 320, 256}));
        QCOMPARE(out.sizes().vec(), (std::vector<int64_t>{2, 4 + 5, 40 * 32 + 20 * 16 + 10 * 8}));
        const torch::Tensor scores = out.slice(1, 4);
        QVERIFY(scores.min().item<float>() >= 0.0f && scores.max().item<float>() <= 1.0f);
    }

    void ncIsConfigurableAndClassWidthFollowsLibreYOLO() {
        YOLO9 two("t", 2);
        QCOMPARE(io::state_dict(*two).at("head.cv3.0.0.conv.weight").size(0), int64_t(64));  // max(64, 2)
        QCOMPARE(io::state_dict(*two).at("head.cv3.2.2.weight").size(0), int64_t(2));
        YOLO9 fine_tuned("t", 2, /*class_hidden=*/80);  // COCO-width towers kept by a fine-tune
        QCOMPARE(io::state_dict(*fine_tuned).at("head.cv3.0.0.conv.weight").size(0), int64_t(80));
    }

    void infoAndGflops() {
        Model m = Model::create("yolo9-t", 80, "cpu");
        const ModelInfo info = m.info();
        QCOMPARE(info.parameters, std::int64_t(2036544));
        QCOMPARE(info.names.front(), std::string("person"));
        QVERIFY(!info.pretrained);
        const double g640 = m.gflops(640), g320 = m.gflops(320);
        QVERIFY2(g640 > 5.0 && g640 < 15.0, qPrintable(QString::number(g640)));
        QVERIFY(std::abs(g640 / g320 - 4.0) < 0.01);  // FLOPs scale with pixels
    }
};

QTEST_APPLESS_MAIN(TestYolo9Architecture)
#include "test_yolo9_architecture.moc"
