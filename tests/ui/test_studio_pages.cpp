// The Graphs and Settings pages, offscreen: the graph table shows what the engine reports (none on
// the CPU, where Capture is refused with the engine's error) and formats a row; the settings
// persist, reach the engine's kernel policy and the Predict page; without a GPU the options that need
// one are disabled with a reason; Italian changes visible strings, the engine's kernel report and
// the training charts among them.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTranslator>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "graph_table_model.h"
#include "graphs_page.h"
#include "kernels_page.h"
#include "libreyolo/device.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "main_window.h"
#include "predict_controls.h"
#include "qcustomplot_include.h"
#include "settings_page.h"
#include "studio_settings.h"
#include "train_page.h"

namespace {

QStandardItem* comboItem(QComboBox* box, const QString& text) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    const int index = box->findText(text);
    return model && index >= 0 ? model->item(index) : nullptr;
}

QTreeWidgetItem* topLevelItem(const QTreeWidget* tree, const QString& text) {
    for (int i = 0; i < tree->topLevelItemCount(); ++i)
        if (tree->topLevelItem(i)->text(0) == text) return tree->topLevelItem(i);
    return nullptr;
}

// The Italian translation installed for one test: removed when the test reads its results, or at
// its end when a check fails first.
class ItalianTranslation {
public:
    ItalianTranslation() {
        StudioSettings settings;
        settings.setLanguage("it");
        installed_ = settings.loadTranslation(translator_) && QCoreApplication::installTranslator(&translator_);
    }
    ~ItalianTranslation() { remove(); }
    bool installed() const { return installed_; }
    void remove() { QCoreApplication::removeTranslator(&translator_); }

private:
    QTranslator translator_;
    bool installed_ = false;
};

}  // namespace

class TestStudioPages : public QObject {
    Q_OBJECT
    QTemporaryDir settingsDir_;

private Q_SLOTS:
    void initTestCase() {
        QCoreApplication::setOrganizationName("LibreYOLO");
        QCoreApplication::setApplicationName("LibreYOLO Studio tests");
        QSettings::setDefaultFormat(QSettings::IniFormat);
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settingsDir_.path());
    }
    void init() { QSettings().clear(); }

    void graphTableFormatsARow() {
        GraphTableModel model;
        libreyolo::GraphInfo g;
        g.key = "8x3x640x640";
        g.dtype = "float16";
        g.device = "cuda:0";
        g.task = "detect";
        g.replays = 42;
        g.capture_ms = 61.4;
        g.pool_bytes = 3 * 1048576;
        g.graphs = 2;
        g.eager_stages = 1;
        g.kernels = 187;
        libreyolo::GraphInfo fused = g;
        fused.fused = true;
        model.setRows({g, fused});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), int(GraphTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Network)).toString(), QString("as loaded"));
        QCOMPARE(model.data(model.index(1, GraphTableModel::Network)).toString(), QString("fused"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Kernels)).toInt(), 187);
        QCOMPARE(model.data(model.index(0, GraphTableModel::Key)).toString(), QString("8x3x640x640"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Replays)).toLongLong(), 42LL);
        QCOMPARE(model.data(model.index(0, GraphTableModel::CaptureMs)).toString(), QString("61"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::PoolMiB)).toString(), QString("3.0"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Stages)).toString(), QString("2 graphs + 1 eager"));
        QVERIFY(!model.data(model.index(2, 0)).isValid());
    }

    // On the CPU the engine has no graphs: the table stays empty after predictions, and Capture
    // brings the engine's own error to the status bar instead of a made-up row.
    void graphsPageShowsTheEnginesState() {
        MainWindow window(LIBREYOLO_FIXTURES_DIR "/yolo9t_parity/weights.safetensors", "cpu");
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        QSignalSpy errors(&window, &MainWindow::errorShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        QCOMPARE(window.graphsPage()->model()->rowCount(), 0);
        Q_EMIT window.graphsPage()->captureRequested(640, 1, "float32");
        QVERIFY(errors.wait(120000));
        QVERIFY2(errors.first().at(0).toString().contains("CUDA device"), qPrintable(errors.first().at(0).toString()));
        QCOMPARE(window.graphsPage()->model()->rowCount(), 0);
        window.graphsPage()->setTrainingState("graphed 8x3x640x640");
        QVERIFY(window.graphsPage()->trainingState().contains("graphed 8x3x640x640"));
    }

    void settingsPersistAndApply() {
        {
            SettingsPage page;
            page.graphModeBox()->setCurrentIndex(page.graphModeBox()->findData(int(libreyolo::GraphMode::Auto)));
            page.deviceBox()->setCurrentText("cpu");
            page.hubKernelsBox()->setChecked(false);
            page.kernelOverrideBox()->setCurrentText("reference");
            page.languageBox()->setCurrentIndex(page.languageBox()->findData("it"));
        }
        const StudioSettings saved;
        QCOMPARE(saved.graphMode(), libreyolo::GraphMode::Auto);
        QCOMPARE(saved.device(), QString("cpu"));
        QCOMPARE(saved.hubKernels(), false);
        QCOMPARE(saved.kernelOverride(), QString("reference"));
        QCOMPARE(saved.language(), QString("it"));
        // The engine's policy, not the environment: the studio writes no variables.
        QVERIFY(!libreyolo::kernel_policy().hub_kernels);
        QCOMPARE(libreyolo::kernel_policy().override_in_effect,
                 std::string("references only (the application's setting 'reference')"));
        QVERIFY(!qEnvironmentVariableIsSet("LIBREYOLO_HUB_KERNELS"));
        QVERIFY(!qEnvironmentVariableIsSet("LIBREYOLO_KERNELS"));
        // A page opened later shows what was saved.
        SettingsPage again;
        QCOMPARE(again.deviceBox()->currentText(), QString("cpu"));
        QVERIFY(!again.hubKernelsBox()->isChecked());
        again.hubKernelsBox()->setChecked(true);
        again.kernelOverrideBox()->setCurrentIndex(0);  // automatic
        QVERIFY(libreyolo::kernel_policy().hub_kernels);
        QCOMPARE(libreyolo::kernel_policy().override_in_effect, std::string("none"));
    }

    // Drops and Open dialogs take what predict would read (libreyolo/media.h): images by the
    // engine's extensions in any case, a folder's or a pattern's sorted, anything else left out.
    void openingFollowsTheEnginesMediaRules() {
        QTemporaryDir dir;
        for (const char* name : {"b.TIFF", "a.png", "notes.txt", "clip.mp4"}) {
            QFile file(dir.filePath(name));
            QVERIFY(file.open(QIODevice::WriteOnly));
        }
        QCOMPARE(MainWindow::imageFiles({dir.path()}), QStringList({dir.filePath("a.png"), dir.filePath("b.TIFF")}));
        QCOMPARE(MainWindow::imageFiles({dir.filePath("*.png")}), QStringList({dir.filePath("a.png")}));
        QVERIFY(MainWindow::imageFiles({dir.filePath("notes.txt"), dir.filePath("clip.mp4"), "/no/such"}).isEmpty());
    }

    void theDefaultGraphModeReachesThePredictPage() {
        StudioSettings().setGraphMode(libreyolo::GraphMode::Auto);
        MainWindow window("yolo9-t", "cpu");
        QCOMPARE(window.predictControls()->options().cuda_graph, libreyolo::GraphMode::Auto);
        window.settingsPage()->graphModeBox()->setCurrentIndex(
            window.settingsPage()->graphModeBox()->findData(int(libreyolo::GraphMode::Off)));
        QCOMPARE(window.predictControls()->options().cuda_graph, libreyolo::GraphMode::Off);
    }

    // Settings' fused-inference default reaches the Predict page's "fuse" box, which reaches the
    // options every prediction takes, and the result line says the path.
    void theFuseSettingReachesThePredictPage() {
        StudioSettings().setFuse(true);
        MainWindow window(QString::fromStdString(libreyolo::default_model()), "cpu");
        QVERIFY(window.predictControls()->fuseBox()->isChecked());
        QVERIFY(window.predictControls()->options().fuse);
        QSignalSpy shown(&window, &MainWindow::predictionShown);
        window.openImage(LIBREYOLO_SAMPLE_IMAGE);
        QVERIFY(shown.wait(120000));
        QVERIFY2(window.resultStatus().contains("(fused)"), qPrintable(window.resultStatus()));
        window.settingsPage()->fuseBox()->setChecked(false);
        QVERIFY(!window.predictControls()->options().fuse);
        QVERIFY(!StudioSettings().fuse());
        QVERIFY(shown.wait(120000));  // the image again, eager
        QVERIFY(!window.resultStatus().contains("(fused)"));
    }

    void italianChangesVisibleStrings() {
        StudioSettings settings;
        settings.setLanguage("en");
        QTranslator none;
        QVERIFY(!settings.loadTranslation(none));
        settings.setLanguage("it");
        QTranslator translator;
        QVERIFY(settings.loadTranslation(translator));
        QCoreApplication::installTranslator(&translator);
        MainWindow window("yolo9-t", "cpu");
        QStringList tabs;
        for (int i = 0; i < window.pages()->count(); ++i) tabs << window.pages()->tabText(i);
        QCoreApplication::removeTranslator(&translator);
        QVERIFY2(tabs.contains("Predizione") && tabs.contains("Addestramento") && tabs.contains("Impostazioni"),
                 qPrintable(tabs.join(", ")));
    }

    // The Kernels page reads the engine's registry: the nms slot and its portable reference, the
    // kernel plugins as the engine lists them, and the override the Settings page puts in effect.
    void kernelsPageShowsTheRegistryAndTheOverride() {
        KernelsPage page;
        QSignalSpy refreshed(&page, &KernelsPage::refreshed);
        QVERIFY(refreshed.wait(60000));  // read off the GUI thread
        QTreeWidgetItem* nms = topLevelItem(page.tree(), "nms");
        QVERIFY(nms);
        QVERIFY(nms->text(3).startsWith("uses portable"));
        QCOMPARE(nms->child(nms->childCount() - 1)->text(1), QString("reference"));
        QVERIFY(page.policyText().contains("none"));
        QTreeWidgetItem* plugins = page.tree()->topLevelItem(page.tree()->topLevelItemCount() - 1);
        QCOMPARE(plugins->text(0), QString("Plugins"));
        const auto listed = libreyolo::kernel_plugins();
        QCOMPARE(plugins->childCount(), static_cast<int>(listed.size()));
        for (int i = 0; i < plugins->childCount(); ++i)
            QVERIFY(plugins->child(i)->text(3).startsWith(QString::fromStdString(listed[i].state)));
        StudioSettings().setKernelOverride("reference");
        page.refresh();
        QVERIFY(refreshed.wait(60000));
        QVERIFY2(page.policyText().contains("the application's setting 'reference'"), qPrintable(page.policyText()));
        StudioSettings().setKernelOverride("");
        page.refresh();
        QVERIFY(refreshed.wait(60000));
        QVERIFY(page.policyText().contains("none"));
    }

    // This test machine has no GPU: the graph modes on and auto, the cuda devices, AMP and the
    // training graph are listed but cannot be chosen, and each says why.
    void withoutCudaTheOptionsThatNeedItAreDisabledWithAReason() {
        if (libreyolo::cuda_available()) QSKIP("this machine has a CUDA GPU");
        const QString noGraphs = "No CUDA GPU: CUDA graphs need one";
        PredictControls controls;
        for (const QString& mode : {QString("on"), QString("auto")}) {
            QStandardItem* item = comboItem(controls.graphModeBox(), mode);
            QVERIFY(item);
            QVERIFY(!(item->flags() & Qt::ItemIsEnabled));
            QCOMPARE(item->toolTip(), noGraphs);
        }
        QVERIFY(comboItem(controls.graphModeBox(), "off")->flags() & Qt::ItemIsEnabled);
        QVERIFY(!(comboItem(controls.deviceBox(), "cuda")->flags() & Qt::ItemIsEnabled));
        QVERIFY(!(comboItem(controls.deviceBox(), "cuda:0")->flags() & Qt::ItemIsEnabled));
        QVERIFY(comboItem(controls.deviceBox(), "cuda:0")->toolTip().startsWith("No CUDA GPU"));
        QVERIFY(comboItem(controls.deviceBox(), "cpu")->flags() & Qt::ItemIsEnabled);

        SettingsPage settings;
        QStandardItem* on = comboItem(settings.graphModeBox(), "on");
        QVERIFY(!(on->flags() & Qt::ItemIsEnabled));
        QCOMPARE(on->toolTip(), noGraphs);
        QVERIFY(!(comboItem(settings.deviceBox(), "cuda:1")->flags() & Qt::ItemIsEnabled));

        TrainPage train;
        for (const char* name : {"amp", "cuda_graph"}) {
            auto* box = train.findChild<QCheckBox*>(name);
            QVERIFY(box);
            QVERIFY(!box->isEnabled());
            QVERIFY(!box->isChecked());
            QVERIFY(box->toolTip().startsWith("No CUDA GPU"));
        }
        libreyolo::TrainOptions o = train.options();
        o.amp = o.cuda_graph = true;
        train.setOptions(o);
        QVERIFY(!train.options().amp && !train.options().cuda_graph);
    }

    // The engine reports its kernels in English; the studio shows the sentences it knows in
    // Italian (what the engine fills in kept), and anything else as the engine wrote it.
    void italianCoversTheKernelsPage() {
        ItalianTranslation italian;
        QVERIFY(italian.installed());
        KernelsPage page;
        QSignalSpy refreshed(&page, &KernelsPage::refreshed);
        const bool read = refreshed.wait(60000);
        QStringList headers;
        for (int i = 0; i < page.tree()->columnCount(); ++i) headers << page.tree()->headerItem()->text(i);
        const QString policy = page.policyText();
        QTreeWidgetItem* nms = topLevelItem(page.tree(), "nms");
        QTreeWidgetItem* plugins = topLevelItem(page.tree(), "Plugin");
        const QString nmsStatus = nms ? nms->text(3) : QString();
        const QString referenceStatus = nms ? nms->child(nms->childCount() - 1)->text(3) : QString();
        const QStringList engine = {
            KernelsPage::engineText("none"),
            KernelsPage::engineText("unavailable"),
            KernelsPage::engineText("a later registration is preferred"),
            KernelsPage::engineText("its predicate declined the last call"),
            KernelsPage::engineText("an accelerated implementation applies"),
            KernelsPage::engineText("no CUDA device"),
            KernelsPage::engineText("hub plugins off (LIBREYOLO_HUB_KERNELS=0)"),
            KernelsPage::engineText("references forced by LIBREYOLO_KERNELS=reference"),
            KernelsPage::engineText("only provider 'acme' by LIBREYOLO_KERNELS=acme"),
            KernelsPage::engineText("references only (LIBREYOLO_KERNELS=off)"),
            KernelsPage::engineText("provider 'acme' only (LIBREYOLO_KERNELS=acme)"),
            KernelsPage::engineText("its predicate threw: bad shape"),
            KernelsPage::engineText("failed when run: bad shape"),
            KernelsPage::engineText("its provider failed: bad shape"),
            KernelsPage::engineText("loaded"),
            KernelsPage::engineText("skipped: built for CUDA 12.8"),
            KernelsPage::engineText("not loaded: not cached at /x"),
            KernelsPage::engineText("refused: SHA-256 of /x is 00"),
            KernelsPage::engineText("disabled: nms failed"),
            KernelsPage::engineText("class-aware NMS: (boxes, scores, classes, iou) -> kept indices"),
            KernelsPage::engineText(
                "FP8 E4M3 fake quantization: (x, broadcastable scale) -> x on the E4M3 grid, STE gradient"),
            KernelsPage::engineText("multi-scale deformable attention: (value, sampling_locations, attention_weights, "
                                    "levels) -> (N, queries, heads·channels)"),
            // The policy the Settings page hands the engine.
            KernelsPage::engineText("references only (the application's setting 'off')"),
            KernelsPage::engineText("hub plugins off (the application's setting)"),
            KernelsPage::engineText("references forced by the application's setting 'reference'"),
            KernelsPage::engineText("only provider 'acme' by the application's setting 'acme'"),
            KernelsPage::engineText("provider 'acme' only (the application's setting 'acme')"),
        };
        const QString unknown = KernelsPage::engineText("something new: 42");
        italian.remove();

        QVERIFY(read);
        QVERIFY2(headers.contains("Disponibile") && headers.contains("Stato"), qPrintable(headers.join(", ")));
        QVERIFY2(policy.startsWith("Forzatura in vigore: nessuna"), qPrintable(policy));
        QVERIFY(nms);
        QVERIFY2(nmsStatus.startsWith("usa ") && !nmsStatus.contains("class-aware"), qPrintable(nmsStatus));
        QVERIFY(plugins);
        // The reference is in use here, or passed over for an accelerated implementation.
        QVERIFY2(referenceStatus == "in uso" || referenceStatus.startsWith("scartato: "), qPrintable(referenceStatus));
        QCOMPARE(engine.size(), 27);
        const QStringList english = {"none",        "unavailable",  "a later",     "its predicate", "an accelerated",
                                     "no CUDA",     "hub plugins",  "references",  "only provider", "provider '",
                                     "failed when", "its provider", "loaded",      "skipped",       "not loaded",
                                     "refused",     "disabled",     "class-aware", "FP8 E4M3 fake", "multi-scale"};
        for (const QString& text : engine)
            for (const QString& start : english) QVERIFY2(!text.startsWith(start), qPrintable(text));
        // What the engine fills in is kept.
        QVERIFY2(engine[8].contains("'acme'") && engine[8].contains("LIBREYOLO_KERNELS=acme"), qPrintable(engine[8]));
        QVERIFY2(engine[11].endsWith("bad shape"), qPrintable(engine[11]));
        for (int i = 22; i < engine.size(); ++i)
            QVERIFY2(!engine[i].contains("application's setting"), qPrintable(engine[i]));
        QVERIFY2(engine[22].contains("'off'"), qPrintable(engine[22]));
        QVERIFY2(engine[25].contains("'acme'") && engine[25].endsWith("'acme'"), qPrintable(engine[25]));
        QCOMPARE(unknown, QString("something new: 42"));
    }

    void italianCoversTheTrainingCharts() {
        ItalianTranslation italian;
        QVERIFY(italian.installed());
        QStringList texts;
        {
            TrainPage page;
            for (QCustomPlot* plot : {page.lossPlot(), page.metricPlot(), page.ratePlot()}) {
                texts << plot->xAxis->label() << plot->yAxis->label();
                for (int i = 0; i < plot->graphCount(); ++i) texts << plot->graph(i)->name();
            }
            texts << page.ratePlot()->yAxis2->label();
        }
        italian.remove();
        for (const char* english : {"step", "loss", "epoch", "epoch mean", "learning rate", "ms a step", "step ms"})
            QVERIFY2(!texts.contains(QString(english)), qPrintable(texts.join(", ")));
        QVERIFY2(texts.contains("epoca") && texts.contains("passo"), qPrintable(texts.join(", ")));
    }
};

QTEST_MAIN(TestStudioPages)
#include "test_studio_pages.moc"
