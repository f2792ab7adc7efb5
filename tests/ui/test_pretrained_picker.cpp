// The studio's pretrained models, offscreen, against a loopback hub: the picker lists every model
// LibreYOLO publishes with its parameters, input size and whether its weights are on disk; choosing
// one that is not downloads it behind a progress dialog on a worker thread and then predicts with
// it; Cancel stops the transfer and leaves no file; a failed download is said in a dialog; the Train
// page's Pretrained box reaches the options.
#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QtTest/QtTest>

#include <filesystem>
#include <fstream>

#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "main_window.h"
#include "model_picker.h"
#include "pretrained_catalog.h"
#include "support/local_http_server.h"
#include "train_form.h"
#include "weights_download.h"

namespace {

const std::string kStandIn = LIBREYOLO_FIXTURES_DIR "/pt_pretrained/LibreYOLO9t-seeded.pt";
const std::string kHubPath = "/LibreYOLO/LibreYOLO9t/resolve/main/LibreYOLO9t.pt";

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

QStringList filesIn(const QString& folder) {
    return QDir(folder).entryList(QDir::Files);
}

}  // namespace

class TestPretrainedPicker : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    int caches_ = 0;

    // A fresh cache for one test, online, on server's hub.
    QString useHub(const libreyolo::testing::LocalHttpServer& server) {
        const QString cache = dir_.filePath(QString("cache%1").arg(++caches_));
        qunsetenv("LIBREYOLO_OFFLINE");  // ctest runs every test offline
        qputenv("LIBREYOLO_HUB_BASE_URL", QByteArray::fromStdString(server.base_url()));
        qputenv("LIBREYOLO_WEIGHTS_CACHE", cache.toUtf8());
        return cache;
    }

    static void choose(ModelPickerDialog* picker, const QString& name) {
        QVERIFY(picker->select(name));
        picker->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(QDir::setCurrent(dir_.path())); }  // ./weights/ starts empty

    void thePickerListsEveryPublishedModel() {
        libreyolo::testing::LocalHttpServer server;
        const QString cache = useHub(server);
        ModelPickerDialog picker;
        PretrainedCatalog* catalog = picker.catalog();
        QStringList names;
        for (int row = 0; row < catalog->rowCount(); ++row) names << catalog->nameAt(row);
        for (const char* name : {"yolo9-t", "yolo9-c", "yolox-n", "yolox-x", "rtdetr-r18", "rtdetr-r50"})
            QVERIFY2(names.contains(name), qPrintable(names.join(", ")));
        QCOMPARE(names.size(), publishedModelNames().size());
        const int yolo9t = catalog->rowOf("yolo9-t");
        const auto cell = [&](int row, int column) { return catalog->index(row, column).data().toString(); };
        QCOMPARE(cell(yolo9t, PretrainedCatalog::Family), QString("YOLOv9"));
        QCOMPARE(cell(catalog->rowOf("yolox-n"), PretrainedCatalog::InputSize),
                 QString::number(libreyolo::family_traits("yolox").default_imgsz_for("n")));
        QCOMPARE(cell(yolo9t, PretrainedCatalog::Weights), QString("not downloaded"));
        // Parameter counts arrive from the counting thread; the window never waits for them.
        QTRY_COMPARE_WITH_TIMEOUT(cell(yolo9t, PretrainedCatalog::Parameters),
                                  QLocale().toString(libreyolo::Model::create("yolo9-t").info().parameters), 120000);
        // A file in the cache shows as on disk.
        QDir().mkpath(cache);
        QFile::copy(QString::fromStdString(kStandIn), cache + "/LibreYOLO9t.pt");
        catalog->refreshFiles();
        QCOMPARE(cell(yolo9t, PretrainedCatalog::Weights), cache + "/LibreYOLO9t.pt");
        QCOMPARE(server.requests(), 0);
    }

    // The promise in the studio: choose yolo9-t, watch it download, predict with it.
    void choosingAModelNotOnDiskDownloadsItThenPredicts() {
        libreyolo::testing::LocalHttpServer server;
        server.put(kHubPath, bytes_of(kStandIn), false, /*slow=*/true);
        const QString cache = useHub(server);
        MainWindow window(QString::fromStdString(libreyolo::default_model()), "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        window.openPretrainedDialog();
        QVERIFY(window.modelPicker() && window.modelPicker()->isVisible());
        choose(window.modelPicker(), "yolo9-t");
        auto* download = window.findChild<WeightsDownloadDialog*>();
        QVERIFY(download);
        QTRY_VERIFY_WITH_TIMEOUT(download->isVisible(), 10000);
        QVERIFY2(download->labelText().contains(QString::fromStdString(server.base_url() + kHubPath)),
                 qPrintable(download->labelText()));
        QTRY_VERIFY_WITH_TIMEOUT(download->maximum() == 1000 && download->value() > 0, 30000);  // the total is known
        QVERIFY(shown.wait(120000));  // the image again, with the downloaded model
        QVERIFY2(window.modelStatus().contains("LibreYOLO9t.pt"), qPrintable(window.modelStatus()));
        QCOMPARE(filesIn(cache), QStringList{"LibreYOLO9t.pt"});
        QCOMPARE(server.requests(), 1);
        // Chosen again: on disk now, no request.
        window.openPretrainedDialog();
        QCOMPARE(window.modelPicker()->catalog()->localFileAt(window.modelPicker()->catalog()->rowOf("yolo9-t")),
                 cache + "/LibreYOLO9t.pt");
        choose(window.modelPicker(), "yolo9-t");
        QVERIFY(shown.wait(120000));
        QCOMPARE(server.requests(), 1);
    }

    void cancelStopsTheTransferAndLeavesNoFile() {
        libreyolo::testing::LocalHttpServer server;
        server.put(kHubPath, bytes_of(kStandIn), false, /*slow=*/true);
        const QString cache = useHub(server);
        QWidget parent;
        auto* download = new WeightsDownloadDialog("yolo9-t", &parent);
        QSignalSpy cancelled(download, &WeightsDownloadDialog::cancelled);
        QSignalSpy downloaded(download, &WeightsDownloadDialog::downloaded);
        download->start();
        QTRY_VERIFY_WITH_TIMEOUT(download->value() > 0, 30000);
        download->findChild<QPushButton*>()->click();  // Cancel
        QVERIFY(cancelled.wait(30000));
        QCOMPARE(downloaded.count(), 0);
        QVERIFY2(filesIn(cache).isEmpty(), qPrintable(filesIn(cache).join(", ")));
        QVERIFY(!parent.findChild<QMessageBox*>());  // a cancel is no error
    }

    void aFailedDownloadIsSaidInADialog() {
        libreyolo::testing::LocalHttpServer server;  // serves nothing: HTTP 404
        const QString cache = useHub(server);
        MainWindow window(QString::fromStdString(libreyolo::default_model()), "cpu");
        QSignalSpy loadFailed(&window, &MainWindow::modelLoadFailed);
        window.openModel("rtdetr-r18");
        QVERIFY(loadFailed.wait(60000));
        QVERIFY(window.errorDialog() && window.errorDialog()->isVisible());
        const QString text = window.errorDialog()->text();
        QVERIFY2(text.contains("HTTP 404") &&
                     text.contains("/LibreYOLO/LibreRTDETRr18/resolve/main/LibreRTDETRr18.pt") &&
                     text.contains("./weights/LibreRTDETRr18.pt"),
                 qPrintable(text));
        QVERIFY(filesIn(cache).isEmpty());
        window.errorDialog()->close();
    }

    // The Train page: Pretrained (on by default, as LibreYOLO's pretrained=True) reaches the options;
    // the picker fills the model field with the name.
    void theTrainFormCarriesPretrained() {
        libreyolo::testing::LocalHttpServer server;
        useHub(server);
        TrainForm form;
        auto* pretrained = form.findChild<QCheckBox*>("pretrained");
        QVERIFY(pretrained && pretrained->isChecked());
        QVERIFY(form.options().pretrained);
        libreyolo::TrainOptions o = form.options();
        o.pretrained = false;
        form.setOptions(o);
        QVERIFY(!pretrained->isChecked());
        QVERIFY(!form.options().pretrained);
        form.choosePretrainedModel();
        auto* picker = form.findChild<ModelPickerDialog*>();
        QVERIFY(picker);
        choose(picker, "rtdetr-r18");
        QCOMPARE(form.findChild<QLineEdit*>("model")->text(), QString("rtdetr-r18"));
        QCOMPARE(form.options().optimizer, libreyolo::Optimizer::AdamW);  // the family's defaults came along
        QVERIFY(!form.findChild<WeightsDownloadDialog*>());        // from scratch: nothing to fetch
        QCOMPARE(server.requests(), 0);
    }
};

QTEST_MAIN(TestPretrainedPicker)
#include "test_pretrained_picker.moc"
