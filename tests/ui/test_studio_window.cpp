// The studio window, offscreen: it loads a model on its worker thread, predicts the sample image
// and shows the detections; a dropped folder fills the thumbnail strip; the view zooms and pans;
// results save as annotated images and JSON; a bad file becomes a message, not a crash; a model that
// cannot be loaded is said once, in the status bar and a dialog, and another can be opened.
#include <QApplication>
#include <QCheckBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLineEdit>
#include <QListWidget>
#include <QMessageBox>
#include <QMimeData>
#include <QSet>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest/QtTest>

#include "export_dialog.h"
#include "libreyolo/annotate.h"
#include "libreyolo/model.h"
#include "main_window.h"
#include "predict_controls.h"
#include "prediction_view.h"
#include "support/event_loop_watch.h"

#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

namespace {

const char* kWeights = LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors";

// Three images in a folder: the sample, a smaller copy and a mirrored one.
QString sampleFolder(const QTemporaryDir& dir) {
    const QImage sample(LIBREYOLO_SAMPLE_IMAGE);
    sample.save(dir.filePath("a.png"));
    sample.scaled(320, 240).save(dir.filePath("b.png"));
    sample.mirrored(true, false).save(dir.filePath("c.png"));
    QFile(dir.filePath("notes.txt")).open(QIODevice::WriteOnly);  // not an image: left out
    return dir.path();
}

// An MJPG clip of the sample image, mirrored every other frame.
QString sampleVideo(const QTemporaryDir& dir, int frames) {
    const QString path = dir.filePath(QString("clip%1.avi").arg(frames));
    const QImage sample = QImage(LIBREYOLO_SAMPLE_IMAGE).scaled(320, 240).convertToFormat(QImage::Format_RGB888);
    cv::VideoWriter writer(path.toStdString(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, cv::Size(320, 240));
    for (int i = 0; i < frames; ++i) {
        const QImage frame = i % 2 ? sample.mirrored(true, false) : sample;
        cv::Mat rgb(frame.height(), frame.width(), CV_8UC3, const_cast<uchar*>(frame.constBits()),
                    static_cast<size_t>(frame.bytesPerLine())),
            bgr;
        cv::cvtColor(rgb, bgr, cv::COLOR_RGB2BGR);
        writer.write(bgr);
    }
    return path;
}

}  // namespace

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
        const QString error = errors.takeFirst().at(0).toString();
        QVERIFY(error.contains("CUDA device"));
        // The failed prediction leaves no earlier picture behind, and its message whole.
        QVERIFY(window.predictionView()->image().isNull());
        QVERIFY(window.predictionView()->result().boxes.empty());
        QCOMPARE(window.predictionView()->failure(), error);
        QCOMPARE(window.resultStatus(), error);
        window.predictControls()->setGraphMode(libreyolo::GraphMode::Off);
        QVERIFY(shown.wait(120000));
        QVERIFY(window.predictionView()->failure().isEmpty());
        QVERIFY(!window.resultStatus().contains("CUDA device"));
        QVERIFY(window.statusBar()->currentMessage().isEmpty());
    }

    // "yolp9-t": the engine's "did you mean" reaches the model field, the status bar and a dialog;
    // the image opened meanwhile repeats that cause rather than adding a second one.
    void aMistypedModelNameIsSaidOnceWithItsSuggestion() {
        MainWindow window("yolp9-t", "cpu");
        QSignalSpy errors(&window, &MainWindow::errorShown);
        QSignalSpy loadFailed(&window, &MainWindow::modelLoadFailed);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(loadFailed.wait(120000));
        QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, 120000);  // the load, then the image it stopped
        QTest::qWait(200);                                     // nothing else follows
        QSet<QString> distinct;
        for (const auto& args : errors) distinct.insert(args.at(0).toString());
        QCOMPARE(distinct.size(), 1);
        const QString error = *distinct.cbegin();
        QVERIFY2(error.contains("did you mean 'yolo9-t'"), qPrintable(error));
        QVERIFY2(
            window.modelStatus().startsWith("no model: ") && window.modelStatus().contains("did you mean 'yolo9-t'"),
            qPrintable(window.modelStatus()));
        QCOMPARE(window.resultStatus(), error);
        QVERIFY(window.predictionView()->image().isNull());
        QVERIFY(window.errorDialog());
        QVERIFY(window.errorDialog()->isVisible());
        QVERIFY(window.errorDialog()->text().contains("did you mean 'yolo9-t'"));
        window.errorDialog()->close();
    }

    // File ▸ Open model… after a failed load: the weights load on the worker and the image shown
    // is predicted again with them.
    void openModelLoadsWeightsAndPredictsTheImageAgain() {
        MainWindow window("yolp9-t", "cpu");
        QSignalSpy loadFailed(&window, &MainWindow::modelLoadFailed);
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(loadFailed.wait(120000));
        window.errorDialog()->close();
        window.openModel(kWeights);
        QVERIFY(shown.wait(120000));
        QVERIFY(shown.first().at(0).toInt() > 100);
        QVERIFY2(window.modelStatus().startsWith("yolo9-t"), qPrintable(window.modelStatus()));
        QVERIFY(window.predictionView()->failure().isEmpty());
        QCOMPARE(window.predictionView()->result().orig_w, 640);
        // A file that is not weights leaves the model loaded before in use.
        window.openModel("/no/such/weights.safetensors");
        QVERIFY(loadFailed.wait(120000));
        QVERIFY(window.errorDialog()->text().contains("/no/such/weights.safetensors"));
        window.errorDialog()->close();
        QVERIFY2(window.modelStatus().startsWith("yolo9-t"), qPrintable(window.modelStatus()));
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 2, 120000);  // the image, predicted again with the model kept
    }

    void aFailedPredictionClearsTheView() {
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        QVERIFY(!window.predictionView()->image().isNull());
        window.openImage("/no/such/image.png");
        QVERIFY(errors.wait(120000));
        QVERIFY(window.predictionView()->image().isNull());
        QVERIFY(window.predictionView()->result().boxes.empty());
        QVERIFY(window.predictionView()->failure().contains("/no/such/image.png"));
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        QVERIFY(window.predictionView()->failure().isEmpty());
        QVERIFY(!window.resultStatus().contains("/no/such/image.png"));
    }

    void labelTextIsBlackOnYellowAndWhiteOnDarkBlue() {
        QVERIFY(libreyolo::label_text_colour({255, 255, 0}) == (libreyolo::Rgb{0, 0, 0}));
        QVERIFY(libreyolo::label_text_colour({255, 178, 29}) == (libreyolo::Rgb{0, 0, 0}));      // the palette's yellow
        QVERIFY(libreyolo::label_text_colour({0, 24, 236}) == (libreyolo::Rgb{255, 255, 255}));  // its dark blue
        QVERIFY(libreyolo::label_text_colour({52, 69, 147}) == (libreyolo::Rgb{255, 255, 255}));
    }

    // Saved images are the engine's drawing (as `libreyolo predict save=true`), made on a copy.
    void annotatedImagesAreTheEnginesDrawingOnACopy() {
        const QImage image = QImage(LIBREYOLO_SAMPLE_IMAGE).convertToFormat(QImage::Format_RGB888);
        const QImage before = image.copy();
        libreyolo::Result result;
        result.orig_w = image.width();
        result.orig_h = image.height();
        result.names = {"circle", "square"};
        // One box in the middle, one against the top right corner (its label must stay inside).
        result.boxes = {{100, 100, 200, 180, 0.9f, 0}, {image.width() - 60.0f, 0, float(image.width()), 40, 0.8f, 1}};
        const QImage drawn = PredictionView::annotated(image, result);
        QCOMPARE(image, before);
        QImage expected = image.copy();
        libreyolo::draw_detections(expected.bits(), expected.width(), expected.height(),
                                   static_cast<int>(expected.bytesPerLine()), result);
        QCOMPARE(drawn, expected);
        QVERIFY(drawn != image);
    }

    // The model loads first (a fixture: a bare name would report its missing weights first, offline).
    void unreadableImageIsReported() {
        MainWindow window(kWeights, "cpu");
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage("/no/such/image.png");
        QVERIFY(errors.wait(120000));
        QVERIFY(errors.takeFirst().at(0).toString().contains("/no/such/image.png"));
    }

    // The watch the responsiveness checks rely on fails a window that predicts on its own thread:
    // the same predictions as the window's worker makes, run on the GUI thread instead.
    void theWatchFailsAGuiThreadThatPredictsItself() {
        libreyolo::Model model = libreyolo::Model::load(kWeights, "cpu");
        const libreyolo::testing::EventLoopWatch watch;
        QTest::qWait(60);  // the thread turning first, as it does before a request
        QElapsedTimer work;
        work.start();
        while (work.elapsed() < 600) model.predict(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY2(!watch.unresponsiveness().isEmpty(),
                 qPrintable(QString("stalled %1 of %2 ms").arg(watch.stalledMs()).arg(watch.watchedMs())));
    }

    // A real drop of a folder: the strip lists its images, the first is predicted and drawn, and
    // the GUI thread keeps turning (EventLoopWatch) while the worker predicts.
    void droppingAFolderFillsTheStripAndPredicts() {
        QTemporaryDir dir;
        const QString folder = sampleFolder(dir);
        MainWindow window(kWeights, "cpu");
        window.show();
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy thumbs(&window, &MainWindow::thumbnailShown);
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(folder)});
        QDropEvent drop(QPointF(100, 100), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        const libreyolo::testing::EventLoopWatch watch;
        // Straight to the window's event handler: QApplication::sendEvent does not deliver a
        // synthetic drop offscreen, with no drag in progress.
        static_cast<QObject&>(window).event(&drop);
        QVERIFY(shown.wait(120000));
        QVERIFY2(watch.unresponsiveness().isEmpty(), qPrintable(watch.unresponsiveness()));
        QVERIFY(shown.takeFirst().at(0).toInt() > 100);
        QCOMPARE(window.thumbnails()->count(), 3);
        QVERIFY(!window.thumbnails()->isHidden());
        QVERIFY(window.predictionView()->result().path.ends_with("a.png"));
        QTRY_COMPARE_WITH_TIMEOUT(thumbs.count(), 3, 30000);
        QVERIFY(!window.thumbnails()->item(1)->icon().isNull());
        window.thumbnails()->setCurrentRow(1);
        QVERIFY(shown.wait(120000));
        QCOMPARE(window.predictionView()->result().orig_w, 320);
    }

    void theViewZoomsAroundTheCursorPansAndFitsAgain() {
        PredictionView view;
        view.resize(800, 600);
        view.show();
        libreyolo::Result result;
        view.setPrediction(QImage(LIBREYOLO_SAMPLE_IMAGE).convertToFormat(QImage::Format_RGB888), result);
        const QPointF cursor(500, 300);
        const QPointF imagePoint =
            (cursor - view.imageToWidget({0, 0})) / (view.imageToWidget({1, 0}).x() - view.imageToWidget({0, 0}).x());
        QWheelEvent wheel(cursor, view.mapToGlobal(cursor), {}, {0, 240}, Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(&view, &wheel);
        QVERIFY(view.zoom() > 1.4);  // two wheel notches
        const QPointF after = view.imageToWidget(imagePoint);
        QVERIFY2(std::abs(after.x() - cursor.x()) < 0.5 && std::abs(after.y() - cursor.y()) < 0.5,
                 qPrintable(QString("%1,%2").arg(after.x()).arg(after.y())));
        const QPointF origin = view.imageToWidget({0, 0});
        QTest::mousePress(&view, Qt::LeftButton, {}, QPoint(400, 300));
        QMouseEvent move(QEvent::MouseMove, QPointF(430, 280), view.mapToGlobal(QPointF(430, 280)), Qt::NoButton,
                         Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&view, &move);
        QTest::mouseRelease(&view, Qt::LeftButton, {}, QPoint(430, 280));
        QCOMPARE(view.imageToWidget({0, 0}), origin + QPointF(30, -20));
        QTest::mouseDClick(&view, Qt::LeftButton, {}, QPoint(430, 280));
        QCOMPARE(view.zoom(), 1.0);
    }

    // File ▸ Export model…: the form's options, the file written on the worker thread, a message
    // with its path and size; a bad option opens the error dialog naming it.
    void exportWritesAnOnnxFileAndSaysWhereAndHowBig() {
        QTemporaryDir dir;
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));

        ExportDialog form(kWeights);
        QVERIFY(form.outputEdit()->placeholderText().contains("weights.onnx"));
        form.nmsBox()->setChecked(true);
        QVERIFY(!form.dynamicBox()->isEnabled());  // embedded NMS exports batch 1
        libreyolo::ExportOptions o = form.options();
        QVERIFY(o.nms && !o.dynamic && o.batch == 1 && o.opset == 0);
        form.nmsBox()->setChecked(false);
        form.outputEdit()->setText(dir.filePath("studio.onnx"));
        o = form.options();
        QVERIFY(!o.nms && o.dynamic);
        o.imgsz = 320;

        QSignalSpy exported(&window, &MainWindow::modelExported);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.exportModel(o);
        QCOMPARE(exported.count(), 0);  // the worker writes it; the window goes on
        QVERIFY(exported.wait(120000) || !errors.isEmpty());
        if (exported.isEmpty() && errors.first().at(0).toString().contains("no ONNX support"))
            QSKIP("this build has no ONNX export (libonnx-dev)");
        QCOMPARE(exported.count(), 1);
        const QString path = exported.first().at(0).toString();
        QCOMPARE(path, dir.filePath("studio.onnx"));
        QCOMPARE(static_cast<qulonglong>(QFileInfo(path).size()), exported.first().at(1).toULongLong());
        QVERIFY(window.exportMessage() && window.exportMessage()->isVisible());
        QVERIFY2(window.exportMessage()->text().contains(path) && window.exportMessage()->text().contains(" MB"),
                 qPrintable(window.exportMessage()->text()));

        o.imgsz = 100;
        window.exportModel(o);
        QVERIFY(errors.wait(60000));
        QVERIFY(window.errorDialog() && window.errorDialog()->isVisible());
        QVERIFY2(window.errorDialog()->text().contains("imgsz"), qPrintable(window.errorDialog()->text()));
    }

    void resultsSaveAsAnnotatedImagesAndJson() {
        QTemporaryDir dir, out;
        const QString folder = sampleFolder(dir);
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openPaths({folder});
        QVERIFY(shown.wait(120000));
        window.thumbnails()->setCurrentRow(2);
        QVERIFY(shown.wait(120000));
        QString error;
        QCOMPARE(window.saveResults(out.filePath("results"), &error), 2);
        const QImage original(dir.filePath("a.png")), drawn(out.filePath("results/a.png"));
        QCOMPARE(drawn.size(), original.size());
        QVERIFY(drawn.convertToFormat(QImage::Format_RGB888) != original.convertToFormat(QImage::Format_RGB888));
        QVERIFY(QFile::exists(out.filePath("results/c.png")));
        QFile json(out.filePath("results/predictions.json"));
        QVERIFY(json.open(QIODevice::ReadOnly));
        const QJsonArray items = QJsonDocument::fromJson(json.readAll()).array();
        QCOMPARE(items.size(), 2);
        QVERIFY(items[0].toObject()["path"].toString().endsWith("a.png"));
        QVERIFY(items[0].toObject()["boxes"].toArray().size() > 100);
        QVERIFY(window.saveResults("/proc/no-such-place", &error) < 0);
        QVERIFY(error.contains("/proc/no-such-place"));
    }

    void aDeviceChangeMovesTheModelAndPredictsAgain() {
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        Q_EMIT window.predictControls()->deviceChanged("cpu");
        QVERIFY(shown.wait(120000));
        Q_EMIT window.predictControls()->deviceChanged("tpu");
        QVERIFY(errors.wait(120000));
        QVERIFY2(errors.first().at(0).toString().contains("tpu"), qPrintable(errors.first().at(0).toString()));
    }

    void aVideoPlaysWithDetectionsOnEveryFrame() {
        QTemporaryDir dir;
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy finished(&window, &MainWindow::videoFinished);
        window.openPaths({sampleVideo(dir, 6)});
        QVERIFY(finished.wait(120000));
        QCOMPARE(finished.first().at(0).toInt(), 6);
        QCOMPARE(shown.count(), 6);
        for (const auto& args : shown) QVERIFY(args.at(0).toInt() > 10);
        QCOMPARE(window.predictionView()->result().frame, 5);
        QCOMPARE(window.predictionView()->image().width(), 320);
    }

    void stoppingAVideoEndsItEarly() {
        QTemporaryDir dir;
        MainWindow window(kWeights, "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy finished(&window, &MainWindow::videoFinished);
        window.openImage(sampleVideo(dir, 40));
        QVERIFY(shown.wait(120000));
        window.stopVideo();
        QVERIFY(finished.wait(120000));
        QVERIFY(finished.first().at(0).toInt() < 40);
    }
};

QTEST_MAIN(TestStudioWindow)
#include "test_studio_window.moc"
