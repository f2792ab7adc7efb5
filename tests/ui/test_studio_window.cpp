// The studio window, offscreen: it loads a model on its worker thread, predicts the sample image
// and shows the detections; a bad file becomes a message, not a crash.
#include <QApplication>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include "main_window.h"
#include "predict_controls.h"
#include "prediction_view.h"

class TestStudioWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsDetectionsOfTheSampleImage() {
        MainWindow window(LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors", "cpu");
        window.show();
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        QVERIFY(shown.takeFirst().at(0).toInt() > 100);
        QCOMPARE(window.predictionView()->result().orig_w, 640);
        const QImage screen = window.grab().toImage();
        QVERIFY(!screen.isNull());
    }

    void controlsPredictAgainAndAGraphOnTheCpuIsReported() {
        MainWindow window(LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors", "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        const int atDefault = shown.takeFirst().at(0).toInt();
        window.predictControls()->setConf(0.9);  // predicts the same image again
        QVERIFY(shown.wait(120000));
        const int atHighConf = shown.takeFirst().at(0).toInt();
        QVERIFY2(atHighConf < atDefault, qPrintable(QString("%1 then %2").arg(atDefault).arg(atHighConf)));
        window.predictControls()->setGraphMode(libreyolo::GraphMode::On);
        QVERIFY(errors.wait(120000));
        QVERIFY(errors.takeFirst().at(0).toString().contains("CUDA device"));
    }

    void unreadableImageIsReported() {
        MainWindow window("yolo9-t", "cpu");
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage("/no/such/image.png");
        QVERIFY(errors.wait(120000));
        QVERIFY(errors.takeFirst().at(0).toString().contains("/no/such/image.png"));
    }
};

QTEST_MAIN(TestStudioWindow)
#include "test_studio_window.moc"
