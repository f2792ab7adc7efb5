#pragma once
// The studio's window: pages Predict (a zoomable prediction view fed by drag and drop or File ▸
// Open, an ImageStrip when several images are open, videos played with per-frame detections,
// saving annotated images and JSON), Train, Graphs, Kernels and Settings; its menus, and the
// engine's state in the status bar. A PredictController runs the engine off the GUI thread. Errors
// that stop the user (a model that cannot be loaded, results that cannot be saved) also open a
// dialog and print one line on stderr.
#include <QMainWindow>

#include "libreyolo/export.h"
#include "libreyolo/results.h"
#include "prediction_results.h"

class ElidedLabel;
class GraphsPage;
class ImageStrip;
class KernelsPage;
class ModelPickerDialog;
class PredictControls;
class PredictController;
class PredictionView;
class QListWidget;
class QMessageBox;
class QTabWidget;
class SettingsPage;
class TrainPage;

class LiveBar;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& model, const QString& device = "auto", QWidget* parent = nullptr);
    ~MainWindow() override;

    PredictionView* predictionView() const { return view_; }
    PredictControls* predictControls() const { return controls_; }
    QListWidget* thumbnails() const;
    TrainPage* trainPage() const { return trainPage_; }
    GraphsPage* graphsPage() const { return graphsPage_; }
    SettingsPage* settingsPage() const { return settingsPage_; }
    KernelsPage* kernelsPage() const { return kernelsPage_; }
    QTabWidget* pages() const { return pages_; }
    // The status bar's fields in full (they show elided): the model, the last result or error.
    QString modelStatus() const;
    QString resultStatus() const;
    // The dialog that errors which stop the user open (null before the first).
    QMessageBox* errorDialog() const { return errorDialog_; }
    // The message a finished export opens (null before the first).
    QMessageBox* exportMessage() const { return exportMessage_; }
    ModelPickerDialog* modelPicker() const { return picker_; }  // null before its first use

    // Image files of paths, folders expanded (their images, sorted), in order.
    static QStringList imageFiles(const QStringList& paths);
    // Writes, for every image predicted so far, <stem>.png with its detections drawn, and
    // predictions.json with all results (each file atomically). Returns the images written.
    int saveResults(const QString& folder, QString* error = nullptr);

public Q_SLOTS:
    void openImage(const QString& path);  // or plays it, when it is a video
    void stopVideo();
    // Starts the camera or stream in the live row (as its Start button): frames predicted as
    // they come, with track ids when tracking.
    void startLive(const QString& source, bool track);
    void stopLive();
    LiveBar* liveBar() const { return liveBar_; }
    // Several files or folders: the strip lists their images and the first is predicted.
    void openPaths(const QStringList& paths);
    void openImagesDialog();
    void openFolderDialog();
    void saveResultsDialog();
    // Loads weights (or a model name) on the worker thread, on the Predict page's device, then
    // predicts the current image again. A failure keeps the model loaded before, if any.
    void openModel(const QString& nameOrPath);
    void openModelDialog();
    // The pretrained-model picker; the model chosen opens as openModel does.
    void openPretrainedDialog();
    // Writes the loaded model as an ONNX file on the worker thread; a message with the file's path
    // and size when done (modelExported), or a dialog naming the problem.
    void exportModel(const libreyolo::ExportOptions& options);
    void exportModelDialog();  // File ▸ Export model…: the options, then exportModel

Q_SIGNALS:
    void predictionShown(int detections);
    void errorShown(const QString& message);
    // The model could not be loaded: already in a dialog and on stderr; errorShown follows.
    void modelLoadFailed(const QString& message);
    void modelExported(const QString& path, qulonglong bytes);
    void thumbnailShown(int index);
    void videoFinished(int frames);
    void liveFinished(int frames, const QString& reason);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildPredictPage();
    void buildMenus();
    void buildStatusBar();
    void connectPredictor();
    // The image shown, predicted again with the controls' options (nothing before the first).
    void predictAgain();
    void moveModel(const QString& device);
    void showError(const QString& message);
    // showError, and a dialog and a line on stderr: for errors the user cannot go on past.
    void showBlockingError(const QString& title, const QString& message);
    void showResult(const QImage& image, const libreyolo::Result& result);
    void showPredictionFailure(const QString& path, const QString& message);
    void showModel(const QString& description);
    void reportModelLoadFailure(const QString& nameOrPath, const QString& reason, bool previousKept);
    // A name whose weights are not on disk: fetched behind a progress dialog, then opened.
    void downloadThenOpen(const QString& name);
    void showExported(const QString& path, qulonglong bytes);

    PredictController* predictor_ = nullptr;
    PredictionResults results_;
    PredictionView* view_ = nullptr;
    PredictControls* controls_ = nullptr;
    ImageStrip* strip_ = nullptr;
    QWidget* predictPage_ = nullptr;
    LiveBar* liveBar_ = nullptr;
    QString lastPath_;
    TrainPage* trainPage_ = nullptr;
    GraphsPage* graphsPage_ = nullptr;
    SettingsPage* settingsPage_ = nullptr;
    KernelsPage* kernelsPage_ = nullptr;
    QTabWidget* pages_ = nullptr;
    ElidedLabel* modelLabel_ = nullptr;
    ElidedLabel* resultLabel_ = nullptr;
    QMessageBox* errorDialog_ = nullptr;
    QMessageBox* exportMessage_ = nullptr;
    ModelPickerDialog* picker_ = nullptr;
    QString lastRunWeights_;  // the weights folder of the last training run, for Open model
};
