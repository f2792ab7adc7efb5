// `libreyolo-studio`: opens on the sample image with the demo model (YOLOv9-t trained on the
// synthetic shapes, resources/models/). Options: --model NAME|FILE, --device D, --image PATH,
// --page predict|train, --screenshot PNG (render, save the window to PNG and quit: for docs and
// smoke tests).
#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QLocale>
#include <QTimer>
#include <QTranslator>

#include "libreyolo/model.h"
#include "main_window.h"

#include <QTabWidget>

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName("LibreYOLO");
    QCoreApplication::setApplicationName("LibreYOLO Studio");

    QTranslator translator;
    if (translator.load(QLocale(), "libreyolo_studio", "_", ":/i18n")) app.installTranslator(&translator);

    QCommandLineParser parser;
    parser.addHelpOption();
    QCommandLineOption model("model", QCoreApplication::translate("main", "Model name or .safetensors file."), "model",
                             QString::fromStdString(libreyolo::default_model()));
    QCommandLineOption device("device", QCoreApplication::translate("main", "auto, cpu, cuda or cuda:N."), "device",
                              "auto");
    QCommandLineOption image("image", QCoreApplication::translate("main", "Image to open."), "path",
                             LIBREYOLO_SAMPLE_IMAGE);
    QCommandLineOption screenshot("screenshot", QCoreApplication::translate("main", "Save the window as PNG and quit."),
                                  "png");
    QCommandLineOption page("page", QCoreApplication::translate("main", "Page to show: predict or train."), "page",
                            "predict");
    parser.addOptions({model, device, image, page, screenshot});
    parser.process(app);

    MainWindow window(parser.value(model), parser.value(device));
    window.resize(960, 700);
    window.show();
    window.openImage(parser.value(image));
    if (parser.value(page) == "train") window.pages()->setCurrentIndex(1);
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
