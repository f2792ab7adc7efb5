// `libreyolo-studio`: opens on the sample images with the demo model (YOLOv9-t trained on the
// synthetic shapes, resources/models/). Options: --model NAME|FILE, --device D (default: the
// Settings page's), --image PATH (an image, a folder or a video), --page predict|train|graphs|kernels|settings,
// --screenshot PNG (render, save the window to PNG and quit: for docs and smoke tests; an error
// before the first prediction is printed on stderr and the exit status is 1).
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include "libreyolo/bundled.h"
#include "libreyolo/model.h"
#include "log_router.h"
#include "main_window.h"
#include "studio_settings.h"

#include <QTabWidget>

#include <cstdio>
#include <memory>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("LibreYOLO");
    QCoreApplication::setApplicationName("LibreYOLO Studio");
    QApplication::setWindowIcon(QIcon(":/icons/libreyolo-studio.png"));
    QGuiApplication::setDesktopFileName("libreyolo-studio");

    LogRouter::instance();  // the engine's lines go through the studio from the start
    const StudioSettings settings;
    settings.applyKernelPolicy();
    QTranslator translator;
    if (settings.loadTranslation(translator)) app.installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption model(
        "model",
        QCoreApplication::translate("main",
                                    "Model name (LibreYOLO's pretrained weights, downloaded once) or weights file."),
        "model", QString::fromStdString(libreyolo::default_model()));
    QCommandLineOption device("device", QCoreApplication::translate("main", "auto, cpu, cuda or cuda:N."), "device",
                              settings.device());
    QCommandLineOption image("image", QCoreApplication::translate("main", "Image, folder or video to open."), "path",
                             QString::fromStdString(libreyolo::bundled_file("resources/samples")));
    QCommandLineOption screenshot("screenshot", QCoreApplication::translate("main", "Save the window as PNG and quit."),
                                  "png");
    QCommandLineOption page(
        "page", QCoreApplication::translate("main", "Page to show: predict, train, graphs, kernels or settings."),
        "page", "predict");
    parser.addOptions({model, device, image, page, screenshot});
    parser.process(app);

    MainWindow window(parser.value(model), parser.value(device));
    window.resize(960, 700);
    window.show();
    const int pageIndex = QStringList{"predict", "train", "graphs", "kernels", "settings"}.indexOf(parser.value(page));
    if (pageIndex < 0) {
        std::fprintf(stderr, "libreyolo-studio: --page: '%s' is not predict, train, graphs, kernels or settings\n",
                     qPrintable(parser.value(page)));
        return 2;
    }
    if (parser.isSet(screenshot)) {
        const QString target = parser.value(screenshot);
        // The first outcome decides: a prediction shown is grabbed, the first error ends the run
        // with status 1 and its message on stderr (a model load failure has printed its own).
        // Exits are queued: an error can come before the event loop runs (no image at the path).
        auto decided = std::make_shared<bool>(false);
        auto grab = [&window, target] {
            if (!window.grab().save(target)) {
                std::fprintf(stderr, "libreyolo-studio: --screenshot: cannot write %s\n", qPrintable(target));
                QCoreApplication::exit(1);
                return;
            }
            QCoreApplication::exit(0);
        };
        QObject::connect(&window, &MainWindow::predictionShown, &window, [grab, decided](int) {
            if (*decided) return;
            *decided = true;
            QTimer::singleShot(200, grab);
        });
        const auto fail = [] { QTimer::singleShot(0, [] { QCoreApplication::exit(1); }); };
        QObject::connect(&window, &MainWindow::modelLoadFailed, &window, [decided, fail](const QString&) {
            if (*decided) return;
            *decided = true;
            fail();
        });
        QObject::connect(&window, &MainWindow::errorShown, &window, [decided, fail](const QString& message) {
            if (*decided) return;
            *decided = true;
            std::fprintf(stderr, "libreyolo-studio: %s\n", qPrintable(message));
            fail();
        });
    }
    // After the screenshot's handlers: a path without images fails at once, not on the worker.
    window.openPaths({parser.value(image)});
    window.pages()->setCurrentIndex(pageIndex);  // after openPaths, which shows the Predict page
    return app.exec();
}
