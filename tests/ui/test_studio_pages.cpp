// The Graphs and Settings pages, offscreen: the graph table shows what the engine reports (none on
// the CPU, where Capture is refused with the engine's error) and formats a row; the settings
// persist, reach the engine's environment and the Predict page; Italian changes visible strings.
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTranslator>
#include <QTreeWidget>
#include <QtTest/QtTest>

#include "graph_table_model.h"
#include "graphs_page.h"
#include "kernels_page.h"
#include "libreyolo/kernels.h"
#include "main_window.h"
#include "predict_controls.h"
#include "settings_page.h"
#include "studio_settings.h"

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
        model.setRows({g});
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.columnCount(), int(GraphTableModel::ColumnCount));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Key)).toString(), QString("8x3x640x640"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Replays)).toLongLong(), 42LL);
        QCOMPARE(model.data(model.index(0, GraphTableModel::CaptureMs)).toString(), QString("61"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::PoolMiB)).toString(), QString("3.0"));
        QCOMPARE(model.data(model.index(0, GraphTableModel::Stages)).toString(), QString("2 graphs + 1 eager"));
        QVERIFY(!model.data(model.index(1, 0)).isValid());
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
        QCOMPARE(qgetenv("LIBREYOLO_HUB_KERNELS"), QByteArray("0"));
        QCOMPARE(qgetenv("LIBREYOLO_KERNELS"), QByteArray("reference"));
        // A page opened later shows what was saved.
        SettingsPage again;
        QCOMPARE(again.deviceBox()->currentText(), QString("cpu"));
        QVERIFY(!again.hubKernelsBox()->isChecked());
        again.hubKernelsBox()->setChecked(true);
        again.kernelOverrideBox()->setCurrentIndex(0);  // automatic
        QVERIFY(!qEnvironmentVariableIsSet("LIBREYOLO_HUB_KERNELS"));
        QVERIFY(!qEnvironmentVariableIsSet("LIBREYOLO_KERNELS"));
    }

    void theDefaultGraphModeReachesThePredictPage() {
        StudioSettings().setGraphMode(libreyolo::GraphMode::Auto);
        MainWindow window("yolo9-t", "cpu");
        QCOMPARE(window.predictControls()->options().cuda_graph, libreyolo::GraphMode::Auto);
        window.settingsPage()->graphModeBox()->setCurrentIndex(
            window.settingsPage()->graphModeBox()->findData(int(libreyolo::GraphMode::Off)));
        QCOMPARE(window.predictControls()->options().cuda_graph, libreyolo::GraphMode::Off);
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
        QTreeWidgetItem* nms = nullptr;
        for (int i = 0; i < page.tree()->topLevelItemCount(); ++i)
            if (page.tree()->topLevelItem(i)->text(0) == "nms") nms = page.tree()->topLevelItem(i);
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
        QVERIFY2(page.policyText().contains("LIBREYOLO_KERNELS=reference"), qPrintable(page.policyText()));
        StudioSettings().setKernelOverride("");
        page.refresh();
        QVERIFY(page.policyText().contains("none"));
    }
};

QTEST_MAIN(TestStudioPages)
#include "test_studio_pages.moc"
