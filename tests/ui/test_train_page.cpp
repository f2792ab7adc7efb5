// The Train page, offscreen: a tiny synthetic run (imgsz 64, one epoch) started from the form fills
// the loss chart while the GUI thread keeps turning; Stop leaves a checkpoint that Resume continues
// (its lines never run backwards); a second run of the same name gets a folder of its own; the
// charts keep their axes sane and their legends off the data; the engine's lines reach the log.
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include "qcustomplot_include.h"

#include <filesystem>

#include "libreyolo/device.h"
#include "libreyolo/options.h"
#include "libreyolo/synth.h"
#include "support/event_loop_watch.h"
#include "train_page.h"

namespace {

// Whether every graph of plot has strictly increasing keys (a line that never runs backwards).
bool keysIncrease(const QCustomPlot* plot) {
    for (int g = 0; g < plot->graphCount(); ++g) {
        const auto data = plot->graph(g)->data();
        for (int i = 1; i < data->size(); ++i)
            if (!(data->at(i)->key > data->at(i - 1)->key)) return false;
    }
    return true;
}

// Asks page to stop once the run writing into runFolder has saved its first epoch (during the
// second), then stays out of the way.
class StopAfterFirstEpoch {
public:
    StopAfterFirstEpoch(TrainPage& page, const QString& runFolder)
        : checkpoint_(QDir(runFolder).filePath("weights/last.train.safetensors").toStdString()) {
        QObject::connect(&poll_, &QTimer::timeout, [this, &page] {
            if (!std::filesystem::exists(checkpoint_)) return;
            asked_ = true;
            poll_.stop();
            page.stop();
        });
        poll_.start(20);
    }
    bool asked() const { return asked_; }

private:
    std::filesystem::path checkpoint_;
    QTimer poll_;
    bool asked_ = false;
};

}  // namespace

class TestTrainPage : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string data_;

    libreyolo::TrainOptions tiny(const char* name, int epochs) const {
        libreyolo::TrainOptions o;
        o.pretrained = false;
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
        QVERIFY2(watch.unresponsiveness().isEmpty(), qPrintable(watch.unresponsiveness()));
        QVERIFY(page.lossPlot()->graph(0)->dataCount() >= 2);   // 8 training images, batch 4
        QCOMPARE(page.metricPlot()->graph(0)->dataCount(), 1);  // validated after the last epoch
        QCOMPARE(page.lossPlot()->graph(1)->dataCount(), 1);    // the epoch's mean loss
        QCOMPARE(page.ratePlot()->graph(0)->dataCount(), page.lossPlot()->graph(0)->dataCount());  // lr per step
        QVERIFY(page.ratePlot()->graph(1)->data()->at(0)->value > 0);                              // step ms
        // One validation: mAP keeps [0, 1], epochs start at 0.
        QCOMPARE(page.metricPlot()->yAxis->range().lower, 0.0);
        QCOMPARE(page.metricPlot()->yAxis->range().upper, 1.0);
        QVERIFY(page.metricPlot()->xAxis->range().lower >= 0);
        QVERIFY(page.metricPlot()->xAxis->range().upper >= 1);
        QVERIFY(page.lossPlot()->xAxis->range().lower >= 0);
        const auto dir = std::filesystem::path(finished.first().at(0).toString().toStdString());
        QVERIFY(std::filesystem::exists(dir / "weights" / "last.safetensors"));
        QVERIFY(std::filesystem::exists(dir / "results.csv"));
        // The engine's own lines reach the log while the run lasts (through the studio's log router).
        auto* log = page.findChild<QPlainTextEdit*>("log");
        QVERIFY(log);
        QVERIFY2(log->toPlainText().contains("[train] training yolo9-t"), qPrintable(log->toPlainText()));
    }

    // Choosing an RT-DETR model fills the form with its recipe's defaults, and the options carry
    // the ones the form does not show; back to YOLOv9, its defaults return.
    void anRtdetrModelBringsItsFamilysDefaults() {
        TrainPage page;
        auto* model = page.findChild<QLineEdit*>("model");
        QVERIFY(model);
        QCOMPARE(page.options().optimizer, libreyolo::Optimizer::SGD);
        model->setText("rtdetr-r18");
        Q_EMIT model->editingFinished();
        libreyolo::TrainOptions o = page.options();
        QCOMPARE(o.model, std::string("rtdetr-r18"));
        QCOMPARE(o.optimizer, libreyolo::Optimizer::AdamW);
        QCOMPARE(o.lr0, 1e-4);
        QCOMPARE(o.epochs, 72);
        QCOMPARE(o.batch, 4);
        QCOMPARE(o.clip_max_norm, 0.1);
        QCOMPARE(o.mosaic, 0.0f);
        model->setText("yolo9-s");
        Q_EMIT model->editingFinished();
        o = page.options();
        QCOMPARE(o.optimizer, libreyolo::Optimizer::SGD);
        QCOMPARE(o.lr0, 0.01);
        QCOMPARE(o.clip_max_norm, 0.0);
        model->setText("rtdetr-nope");  // a typo changes nothing; train() explains it at start
        Q_EMIT model->editingFinished();
        QCOMPARE(page.options().optimizer, libreyolo::Optimizer::SGD);
    }

    // The form has a row for every option of the schema but those the page's buttons set and the
    // distributed ones (the studio trains in one process); a value out of its range stops Start with
    // its key; a model's options of other families hide, its size's defaults come along.
    void everyOptionHasARowAndABadValueNamesItsKey() {
        TrainPage page;
        for (const libreyolo::OptionSpec& spec : libreyolo::train_option_schema()) {
            const bool shown = spec.key != "resume" && spec.key != "exist_ok" &&
                               spec.section != libreyolo::OptionSection::Distributed;
            QVERIFY2((page.findChild<QWidget*>(QString::fromStdString(spec.key)) != nullptr) == shown,
                     spec.key.c_str());
        }
        page.setOptions(tiny("bad", 1));
        auto* mosaic = page.findChild<QLineEdit*>("mosaic");
        QVERIFY(mosaic);
        mosaic->setText("0.25");
        QCOMPARE(page.options().mosaic, 0.25f);
        mosaic->setText("1.5");
        QSignalSpy failed(&page, &TrainPage::runFailed);
        page.start();
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.at(0).at(0).toString().contains("mosaic=1.5"), qPrintable(failed.at(0).at(0).toString()));
        QVERIFY(!page.isRunning());
        auto* model = page.findChild<QLineEdit*>("model");
        model->setText("deim-x");
        Q_EMIT model->editingFinished();
        QCOMPARE(page.options().backbone_lr_mult, 0.01);
        QVERIFY(page.findChild<QLineEdit*>("lr_backbone")->isHidden());
        QVERIFY(!page.findChild<QLineEdit*>("backbone_lr_mult")->isHidden());
        model->setText("deim-s");
        Q_EMIT model->editingFinished();
        QCOMPARE(page.options().backbone_lr_mult, 0.5);
    }

    // A YOLOX model brings LibreYOLO's YOLOX recipe, and its run plots the family's four loss parts.
    void aYoloxModelBringsItsRecipeAndTrains() {
        TrainPage page;
        auto* model = page.findChild<QLineEdit*>("model");
        QVERIFY(model);
        model->setText("yolox-n");
        Q_EMIT model->editingFinished();
        libreyolo::TrainOptions o = page.options();
        QCOMPARE(o.scheduler, libreyolo::LrScheduler::YoloxWarmCos);
        QCOMPARE(o.epochs, 300);
        QCOMPARE(o.momentum, 0.9);
        QCOMPARE(o.mixup_prob, 1.0f);
        QCOMPARE(o.ema_decay, 0.9998);
        libreyolo::TrainOptions run = tiny("yolox", 1);
        run.model = "yolox-n";
        run.scheduler = o.scheduler;
        run.mixup_prob = o.mixup_prob;
        page.setOptions(run);
        QSignalSpy finished(&page, &TrainPage::runFinished);
        page.start();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QStringList parts;
        for (int g = 2; g < page.lossPlot()->graphCount(); ++g)
            if (page.lossPlot()->graph(g)->visible()) parts << page.lossPlot()->graph(g)->name();
        QCOMPARE(parts, (QStringList{"iou", "obj", "cls", "l1"}));
        QVERIFY(page.lossPlot()->graph(5)->dataCount() >= 2);
    }

    // A DEIM model brings LibreYOLO's DEIMConfig (the form's fields and what the form does not
    // show), and its run plots DEIM's five loss parts.
    void aDeimModelBringsItsRecipeAndTrains() {
        TrainPage page;
        auto* model = page.findChild<QLineEdit*>("model");
        QVERIFY(model);
        model->setText("deim-n");
        Q_EMIT model->editingFinished();
        const libreyolo::TrainOptions o = page.options();
        QCOMPARE(o.optimizer, libreyolo::Optimizer::AdamW);
        QCOMPARE(o.lr0, 1e-4);
        QCOMPARE(o.epochs, 132);
        QCOMPARE(o.scheduler, libreyolo::LrScheduler::FlatCosine);
        QCOMPARE(o.backbone_lr_mult, 0.5);
        QVERIFY(o.multi_scale);
        libreyolo::TrainOptions run = tiny("deim", 1);
        run.model = "deim-n";
        run.optimizer = o.optimizer;
        run.lr0 = o.lr0;
        run.imgsz = 416;  // multi_scale's smallest size (288) still leaves the n decoder its 300 queries
        page.setOptions(run);
        QSignalSpy finished(&page, &TrainPage::runFinished);
        page.start();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QStringList parts;
        for (int g = 2; g < page.lossPlot()->graphCount(); ++g)
            if (page.lossPlot()->graph(g)->visible()) parts << page.lossPlot()->graph(g)->name();
        QCOMPARE(parts, (QStringList{"mal", "bbox", "giou", "fgl", "ddf"}));
    }

    void stopLeavesACheckpointThatResumeContinues() {
        TrainPage page;
        page.setOptions(tiny("stopped", 3));
        QSignalSpy finished(&page, &TrainPage::runFinished);
        StopAfterFirstEpoch stopper(page, dir_.filePath("runs/stopped"));
        page.start();
        QVERIFY(finished.wait(300000));
        QVERIFY(stopper.asked());
        QCOMPARE(finished.first().at(1).toBool(), true);
        finished.clear();
        page.resume();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(std::filesystem::exists(dir_.filePath("runs/stopped/weights/best.safetensors").toStdString()));
        // The interrupted epoch's steps were drawn again over the first ones, not after them.
        QVERIFY(keysIncrease(page.lossPlot()));
        QVERIFY(keysIncrease(page.ratePlot()));
        QVERIFY(keysIncrease(page.metricPlot()));
        // LIBREYOLO_SCREENSHOT_DIR=docs/screenshots: the page after this stopped and resumed run.
        if (const QString shots = qEnvironmentVariable("LIBREYOLO_SCREENSHOT_DIR"); !shots.isEmpty()) {
            page.resize(1100, 720);
            QTest::qWait(100);  // queued replots
            QVERIFY(page.grab().save(QDir(shots).filePath("train.png")));
        }
    }

    // exist_ok is off: the second run of a name gets name2 (as LibreYOLO numbers runs), the form
    // shows it, and Resume continues that folder, not the first.
    void aSecondRunOfTheSameNameGetsItsOwnFolderWhichResumeContinues() {
        TrainPage page;
        page.setOptions(tiny("twice", 1));
        QSignalSpy finished(&page, &TrainPage::runFinished);
        page.start();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.takeFirst().at(0).toString(), dir_.filePath("runs/twice"));
        auto* name = page.findChild<QLineEdit*>("name");
        QVERIFY(name);
        QCOMPARE(name->text(), QString("twice"));

        libreyolo::TrainOptions o = page.options();
        o.epochs = 3;
        page.setOptions(o);
        StopAfterFirstEpoch stopper(page, dir_.filePath("runs/twice2"));
        page.start();
        QVERIFY(finished.wait(300000));
        QVERIFY(stopper.asked());
        QCOMPARE(finished.first().at(0).toString(), dir_.filePath("runs/twice2"));
        QCOMPARE(finished.takeFirst().at(1).toBool(), true);
        QCOMPARE(name->text(), QString("twice2"));
        QVERIFY(std::filesystem::exists(dir_.filePath("runs/twice/weights/best.safetensors").toStdString()));

        page.resume();
        QVERIFY(finished.wait(300000));
        QCOMPARE(finished.first().at(0).toString(), dir_.filePath("runs/twice2"));
        QCOMPARE(finished.first().at(1).toBool(), false);
        QVERIFY(std::filesystem::exists(dir_.filePath("runs/twice2/weights/best.safetensors").toStdString()));
        QVERIFY(!std::filesystem::exists(dir_.filePath("runs/twice3").toStdString()));
    }

    void startWithoutADatasetAsksForOne() {
        TrainPage page;
        libreyolo::TrainOptions o = tiny("no-data", 1);
        o.data.clear();
        page.setOptions(o);
        QSignalSpy failed(&page, &TrainPage::runFailed);
        page.start();
        QVERIFY(!page.isRunning());
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().at(0).toString(), QString("Choose a dataset YAML first"));
        QVERIFY(!std::filesystem::exists(dir_.filePath("runs/no-data").toStdString()));
    }

    // Legends in a row of their own above the axes; steps and epochs ticked on whole numbers; a long
    // status wraps within the form's column instead of widening it.
    void chartsAndTheFormKeepTheirLayout() {
        TrainPage page;
        page.show();
        for (QCustomPlot* plot : {page.lossPlot(), page.metricPlot(), page.ratePlot()}) {
            QCOMPARE(plot->legend->layout(), static_cast<QCPLayout*>(plot->plotLayout()));
            const auto ticker = qSharedPointerDynamicCast<QCPAxisTickerFixed>(plot->xAxis->ticker());
            QVERIFY(ticker);
            QCOMPARE(ticker->tickStep(), 1.0);
        }
        QCOMPARE(page.metricPlot()->yAxis->range().lower, 0.0);
        QCOMPARE(page.metricPlot()->yAxis->range().upper, 1.0);
        auto* status = page.findChild<QLabel*>("status");
        QVERIFY(status);
        QWidget* column = status->parentWidget();
        const int before = column->minimumSizeHint().width();
        status->setText(QString("epoch 1/100, batch 1/1000, loss 12.3456, 1234 ms a step, ETA 99:59 ").repeated(4));
        QCOMPARE(column->minimumSizeHint().width(), before);
    }

    // The CUDA-graph checkbox on a CPU run: the page reports the request, the engine's "training
    // eager" line and the run's final state (the Graphs page shows them). Without a GPU the box
    // cannot be checked: the page reports the graph off, and the run's "off".
    void cudaGraphStateIsReported() {
        TrainPage page;
        libreyolo::TrainOptions o = tiny("graph-state", 1);
        o.cuda_graph = true;
        page.setOptions(o);
        const bool gpu = libreyolo::cuda_available();
        QCOMPARE(page.options().cuda_graph, gpu);
        QSignalSpy states(&page, &TrainPage::graphStateChanged);
        QSignalSpy finished(&page, &TrainPage::runFinished);
        page.start();
        QVERIFY(finished.wait(300000));
        QStringList lines;
        for (const auto& args : states) lines << args.at(0).toString();
        if (!gpu) {
            QVERIFY2(lines == QStringList({"off (CUDA graph unchecked)", "last run: off"}),
                     qPrintable(lines.join(" | ")));
            return;
        }
        QVERIFY2(lines.size() == 3, qPrintable(lines.join(" | ")));
        QVERIFY(lines[0].startsWith("requested"));
        QVERIFY(lines[1].contains("CUDA device") && lines[1].contains("training eager"));
        QVERIFY(lines[2].startsWith("last run: not used, training eager: "));
    }
};

QTEST_MAIN(TestTrainPage)
#include "test_train_page.moc"
