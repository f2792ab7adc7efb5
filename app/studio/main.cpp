// `libreyolo-studio`: opens on the sample images with the demo model (YOLOv9-t trained on the
// synthetic shapes, resources/models/). Options: --model NAME|FILE, --device D (default: the
// Settings page's), --image PATH (an image, a folder or a video), --page predict|train|graphs|kernels|settings,
// --screenshot PNG (render, save the window to PNG and quit: for docs and smoke tests).
#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include "libreyolo/bundled.h"
#include "libreyolo/model.h"
#include "main_window.h"
#include "studio_settings.h"

#include <QTabWidget>

#include <cstdio>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("LibreYOLO");
    QCoreApplication::setApplicationName("LibreYOLO Studio");
    QApplication::setWindowIcon(QIcon(":/icons/libreyolo-studio.png"));
    QGuiApplication::setDesktopFileName("libreyolo-studio");

    const StudioSettings settings;
    settings.applyEnvironment();
    QTranslator translator;
    if (settings.loadTranslation(translator)) app.installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption model("model", QCoreApplication::translate("main", "Model name or .safetensors file."), "model",
                             QString::fromStdString(libreyolo::default_model()));
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
    window.openPaths({parser.value(image)});
    const int pageIndex = QStringList{"predict", "train", "graphs", "kernels", "settings"}.indexOf(parser.value(page));
    if (pageIndex < 0) {
        std::fprintf(stderr, "libreyolo-studio: --page: '%s' is not predict, train, graphs, kernels or settings\n",
                     qPrintable(parser.value(page)));
        return 2;
    }
    window.pages()->setCurrentIndex(pageIndex);
    if (parser.isSet(screenshot)) {
        const QString target = parser.value(screenshot);
        auto grab = [&window, target] {
            window.grab().save(target);
            QCoreApplication::exit(0);
        };
        QObject::connect(&window, &MainWindow::predictionShown, &window,
                         [grab](int) { QTimer::singleShot(200, grab); });
        QObject::connect(&window, &MainWindow::errorShown, &window, [](const QString&) { QCoreApplication::exit(1); });
    }
    return app.exec();
}
