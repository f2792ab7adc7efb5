// The studio beside a GPU (ctest label gpu; skips without CUDA): a --cuda-graph training run started
// from the Train page of the main window, on a tiny synthetic dataset, reaches the graph state
// Replaying, which the Graphs page shows while the run goes on. With LIBREYOLO_SCREENSHOT_DIR set
// (scripts/gpu-studio.sh) the Train and Graphs pages are saved at that moment.
#include <QSignalSpy>
#include <QTabWidget>
#include <QtTest/QtTest>

#include "graphs_page.h"
#include "libreyolo/device.h"
#include "main_window.h"
#include "support/synthetic_shapes.h"
#include "train_page.h"

class TestStudioGpu : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    static void save(QWidget* window, const QString& name) {
        const QString shots = qEnvironmentVariable("LIBREYOLO_SCREENSHOT_DIR");
        if (shots.isEmpty()) return;
        QTest::qWait(200);  // queued replots and table updates
        QVERIFY(window->grab().save(QDir(shots).filePath(name)));
    }

private Q_SLOTS:
    void initTestCase() {
        if (!libreyolo::cuda_available()) QSKIP("no CUDA device");
    }

    void aGraphedTrainingRunShowsOnTheGraphsPage() {
        MainWindow window("yolo9-t", "cuda");
        window.resize(1100, 760);
        window.show();
        TrainPage* train = window.trainPage();
        libreyolo::TrainOptions o;
        o.data = libreyolo::testing::synthetic_shapes(dir_, 64, 128).data_yaml;
        o.model = "yolo9-t";
        o.pretrained = false;
        o.epochs = 3;
        o.batch = 8;
        o.imgsz = 128;
        o.workers = 2;
        o.device = "cuda";
        o.cuda_graph = true;
        o.project = dir_.filePath("runs").toStdString();
        o.name = "graphed";
        train->setOptions(o);
        QVERIFY(train->options().cuda_graph);
        QSignalSpy states(train, &TrainPage::graphStateChanged);
        QSignalSpy finished(train, &TrainPage::runFinished);
        window.pages()->setCurrentWidget(train);
        train->start();
        const QString replaying =
            TrainPage::graphStatusText({libreyolo::TrainingGraphStatus::State::Replaying, "8x3x128x128", ""});
        QTRY_VERIFY_WITH_TIMEOUT(
            std::any_of(states.begin(), states.end(), [&](const auto& a) { return a.at(0).toString() == replaying; }),
            300000);
        save(&window, "h200-train.png");
        window.pages()->setCurrentWidget(window.graphsPage());
        save(&window, "h200-graphs-training.png");
        QVERIFY(finished.wait(300000));
        QStringList lines;
        for (const auto& args : states) lines << args.at(0).toString();
        QVERIFY2(lines.contains(replaying), qPrintable(lines.join(" | ")));
        QVERIFY2(lines.last().startsWith("last run: replaying"), qPrintable(lines.join(" | ")));
    }
};

QTEST_MAIN(TestStudioGpu)
#include "test_studio_gpu.moc"
