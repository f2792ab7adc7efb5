#pragma once
// The studio's window: pages Predict (a zoomable prediction view fed by drag and drop or File ▸
// Open, a thumbnail strip when several images are open, videos played with per-frame detections,
// saving annotated images and JSON), Train,
// Graphs and Settings; the engine on worker threads, its state in the status bar.
#include <QHash>
#include <QMainWindow>
#include <QThread>

#include "libreyolo/results.h"

class GraphsPage;
class KernelsPage;
class PredictControls;
class PredictionView;
class PredictWorker;
class QLabel;
class QListWidget;
class QTabWidget;
class SettingsPage;
class ThumbnailLoader;
class TrainPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& model, const QString& device = "auto", QWidget* parent = nullptr);
    ~MainWindow() override;

    PredictionView* predictionView() const { return view_; }
    PredictControls* predictControls() const { return controls_; }
    QListWidget* thumbnails() const { return thumbnails_; }
    TrainPage* trainPage() const { return trainPage_; }
    GraphsPage* graphsPage() const { return graphsPage_; }
    SettingsPage* settingsPage() const { return settingsPage_; }
    KernelsPage* kernelsPage() const { return kernelsPage_; }
    QTabWidget* pages() const { return pages_; }

    // Image files of paths, folders expanded (their images, sorted), in order.
    static QStringList imageFiles(const QStringList& paths);
    // Writes, for every image predicted so far, <stem>.png with its detections drawn, and
    // predictions.json with all results (each file atomically). Returns the images written.
    int saveResults(const QString& folder, QString* error = nullptr);

public Q_SLOTS:
    void openImage(const QString& path);  // or plays it, when it is a video
    void stopVideo();
    // Several files or folders: the strip lists their images and the first is predicted.
    void openPaths(const QStringList& paths);
    void openImagesDialog();
    void openFolderDialog();
    void saveResultsDialog();

Q_SIGNALS:
    void predictionShown(int detections);
    void errorShown(const QString& message);
    void thumbnailShown(int index);
    void videoFinished(int frames);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void showError(const QString& message);
    void showResult(const QImage& image, const libreyolo::Result& result);

    QThread workerThread_, thumbnailThread_;
    PredictWorker* worker_ = nullptr;
    ThumbnailLoader* thumbnailLoader_ = nullptr;
    int thumbnailGeneration_ = 0;
    PredictionView* view_ = nullptr;
    PredictControls* controls_ = nullptr;
    QListWidget* thumbnails_ = nullptr;
    QWidget* predictPage_ = nullptr;
    QString lastPath_;
    QHash<QString, libreyolo::Result> results_;  // by path, the last prediction of each image
    TrainPage* trainPage_ = nullptr;
    GraphsPage* graphsPage_ = nullptr;
    SettingsPage* settingsPage_ = nullptr;
    KernelsPage* kernelsPage_ = nullptr;
    QTabWidget* pages_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* resultLabel_ = nullptr;
};
