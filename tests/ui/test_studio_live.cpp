// The studio's live view, offscreen, against an MJPEG stream on 127.0.0.1
// (tests/support/mjpeg_server.h): Start reads it on the worker thread and shows frames with track
// ids, frames per second and the CUDA-graph state; the GUI thread keeps turning; Stop releases the
// stream; a source that cannot be opened says so and leaves the row ready again.
#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "libreyolo/model.h"
#include "live_bar.h"
#include "main_window.h"
#include "prediction_view.h"
#include "support/event_loop_watch.h"
#include "support/mjpeg_server.h"
#include "support/sliding_sample.h"

namespace {

// The sample sliding right, 4 px per frame, back to the start every 40 frames.
cv::Mat frame_at(int i) {
    return libreyolo::testing::sliding_sample(4 * (i % 40));
}

}  // namespace

class TestStudioLive : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void startsTracksAndStopsWithoutFreezing() {
        libreyolo::testing::MjpegServer server(frame_at, 15);
        QVERIFY(server.start() > 0);
        MainWindow window(QString::fromStdString(libreyolo::default_model()), "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy finished(&window, &MainWindow::liveFinished);
        const libreyolo::testing::EventLoopWatch watch;
        window.liveBar()->setSource(QString::fromStdString(server.url()));
        window.liveBar()->startButton()->click();
        QVERIFY(window.liveBar()->running());
        QCOMPARE(window.liveBar()->startButton()->text(), QString("Stop"));
        QTRY_VERIFY_WITH_TIMEOUT(shown.count() >= 6, 120000);
        QVERIFY2(watch.unresponsiveness().isEmpty(), qPrintable(watch.unresponsiveness()));
        const libreyolo::Result result = window.predictionView()->result();
        QVERIFY(!result.boxes.empty());
        for (const auto& d : result.boxes) QVERIFY(d.track_id >= 1);
        QCOMPARE(result.path, server.url());
        QTRY_VERIFY_WITH_TIMEOUT(window.liveBar()->status().contains("FPS"), 30000);
        QVERIFY2(window.liveBar()->status().contains("CUDA graph"), qPrintable(window.liveBar()->status()));

        window.liveBar()->startButton()->click();  // Stop
        QVERIFY(finished.wait(20000));
        QVERIFY(finished.first().at(0).toInt() >= 6);
        QVERIFY(!window.liveBar()->running());
        QCOMPARE(window.liveBar()->startButton()->text(), QString("Start"));
        // Ended: no frame comes after the stop.
        const int after = shown.count();
        QTest::qWait(500);
        QCOMPARE(shown.count(), after);
    }

    void aSourceThatCannotOpenSaysWhy() {
        MainWindow window(QString::fromStdString(libreyolo::default_model()), "cpu");
        QSignalSpy errors(&window, &MainWindow::errorShown);
        QSignalSpy finished(&window, &MainWindow::liveFinished);
        window.startLive("63", true);
        QVERIFY(finished.wait(60000));
        QVERIFY(!window.liveBar()->running());
        QVERIFY(errors.count() >= 1);
        QVERIFY2(errors.last().at(0).toString().contains("no camera 63"), qPrintable(errors.last().at(0).toString()));
    }
};

QTEST_MAIN(TestStudioLive)
#include "test_studio_live.moc"
