// The Train page, offscreen: a tiny synthetic run (imgsz 64, one epoch) started from the form fills
// the loss chart while the GUI thread keeps turning; Stop leaves a checkpoint that Resume continues.
#include <QApplication>
#include <QLineEdit>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include "qcustomplot_include.h"

#include <filesystem>

#include "libreyolo/synth.h"
#include "support/event_loop_watch.h"
#include "train_page.h"

class TestTrainPage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

    libreyolo::TrainOptions tiny(const char* name, int epochs) const {
        libreyolo::TrainOptions o;
        o.data = data_;
        o.epochs = epochs;
        o.batch = 4;
        o.imgsz = 64;
        o.workers = 1;
        o.device = "cpu";
        o.warmup_epochs = 1;
        o.close_mosaic = 0;
        o.project = dir_.filePath("runs").toStdString();
        o.name = name;
        return o;
    }

private Q_SLOTS:
    void initTestCase() {
        libreyolo::SynthOptions s;
        s.out = dir_.filePath("shapes").toStdString();
        s.n = 10;
        s.imgsz = 64;
        data_ = libreyolo::render_synthetic_dataset(s).data_yaml;
    }

    void formRunsATinyTrainingAndThePlotsFill() {
        TrainPage page;
        page.show();
        page.setOptions(tiny("form", 1));
        QCOMPARE(page.options().imgsz, 64);
        QSignalSpy finished(&page, &TrainPage::runFinished);
        // The GUI thread must keep turning while the worker trains.
        const libreyolo::testing::EventLoopWatch watch;
        page.start();
        QVERIFY(page.isRunning());
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(!page.isRunning());
        QVERIFY2(watch.longestGapMs() < 100,
                 qPrintable(QString("the GUI thread stalled %1 ms").arg(watch.longestGapMs())));
        QVERIFY(page.lossPlot()->graph(0)->dataCount() >= 2);   // 8 training images, batch 4
        QCOMPARE(page.metricPlot()->graph(0)->dataCount(), 1);  // validated after the last epoch
        QCOMPARE(page.lossPlot()->graph(4)->dataCount(), 1);    // the epoch's mean loss
        QCOMPARE(page.ratePlot()->graph(0)->dataCount(), page.lossPlot()->graph(0)->dataCount());  // lr per step
        QVERIFY(page.ratePlot()->graph(1)->data()->at(0)->value > 0);                              // step ms
        const auto dir = std::filesystem::path(finished.first().at(0).toString().toStdString());
        QVERIFY(std::filesystem::exists(dir / "weights" / "last.safetensors"));
        QVERIFY(std::filesystem::exists(dir / "results.csv"));
    }

    // Choosing an RT-DETR model fills the form with its recipe's defaults, and the options carry
    // the ones the form does not show; back to YOLOv9, its defaults return.
    void anRtdetrModelBringsItsFamilysDefaults() {
        TrainPage page;
        auto* model = page.findChild<QLineEdit*>("model");
        QVERIFY(model);
        QCOMPARE(page.options().optimizer, std::string("SGD"));
        model->setText("rtdetr-r18");
        Q_EMIT model->editingFinished();
        libreyolo::TrainOptions o = page.options();
        QCOMPARE(o.model, std::string("rtdetr-r18"));
        QCOMPARE(o.optimizer, std::string("AdamW"));
        QCOMPARE(o.lr0, 1e-4);
        QCOMPARE(o.epochs, 72);
        QCOMPARE(o.batch, 4);
        QCOMPARE(o.clip_max_norm, 0.1);
        QCOMPARE(o.mosaic, 0.0f);
        model->setText("yolo9-s");
        Q_EMIT model->editingFinished();
        o = page.options();
        QCOMPARE(o.optimizer, std::string("SGD"));
        QCOMPARE(o.lr0, 0.01);
        QCOMPARE(o.clip_max_norm, 0.0);
        model->setText("rtdetr-nope");  // a typo changes nothing; train() explains it at start
        Q_EMIT model->editingFinished();
        QCOMPARE(page.options().optimizer, std::string("SGD"));
    }

    void stopLeavesACheckpointThatResumeContinues() {
        TrainPage page;
        page.setOptions(tiny("stopped", 3));
        QSignalSpy finished(&page, &TrainPage::runFinished);
        // Stop once the first epoch has been saved, during the second.
        bool asked = false;
        QTimer poll;
        connect(&poll, &QTimer::timeout, [&] {
            const auto last =
                std::filesystem::path(dir_.filePath("runs/stopped/weights/last.train.safetensors").toStdString());
            if (!asked && std::filesystem::exists(last)) {
                asked = true;
                page.stop();
            }
        });
        poll.start(20);
        page.start();
        QVERIFY(finished.wait(300000));
        poll.stop();
        QVERIFY(asked);
        QCOMPARE(finished.first().at(1).toBool(), true);
        finished.clear();
        page.resume();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(std::filesystem::exists(dir_.filePath("runs/stopped/weights/best.safetensors").toStdString()));
    }

    // The CUDA-graph checkbox on a CPU run: the page reports the request, the engine's "training
    // eager" line and the run's final state (the Graphs page shows them).
    void cudaGraphStateIsReported() {
        TrainPage page;
        libreyolo::TrainOptions o = tiny("graph-state", 1);
        o.cuda_graph = true;
        page.setOptions(o);
        QVERIFY(page.options().cuda_graph);
        QSignalSpy states(&page, &TrainPage::graphStateChanged);
        QSignalSpy finished(&page, &TrainPage::runFinished);
        page.start();
        QVERIFY(finished.wait(300000));
        QStringList lines;
        for (const auto& args : states) lines << args.at(0).toString();
        QVERIFY2(lines.size() == 3, qPrintable(lines.join(" | ")));
        QVERIFY(lines[0].startsWith("requested"));
        QVERIFY(lines[1].contains("CUDA device") && lines[1].contains("training eager"));
        QVERIFY(lines[2].startsWith("last run: eager: "));
    }
};

QTEST_MAIN(TestTrainPage)
#include "test_train_page.moc"
