#pragma once
// The studio's window: a Predict page (a prediction view fed by drag and drop or File ▸ Open) and
// a Train page, each with the engine on its own worker thread, and the engine's state in the status bar.
#include <QMainWindow>
#include <QThread>

#include "libreyolo/results.h"

class GraphsPage;
class PredictControls;
class SettingsPage;
class PredictionView;
class PredictWorker;
class QLabel;
class QTabWidget;
class TrainPage;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(const QString& model, const QString& device = "auto", QWidget* parent = nullptr);
    ~MainWindow() override;

    PredictionView* predictionView() const { return view_; }
    PredictControls* predictControls() const { return controls_; }
    TrainPage* trainPage() const { return trainPage_; }
    GraphsPage* graphsPage() const { return graphsPage_; }
    SettingsPage* settingsPage() const { return settingsPage_; }
    QTabWidget* pages() const { return pages_; }

public Q_SLOTS:
    void openImage(const QString& path);
    void openImageDialog();

Q_SIGNALS:
    void predictionShown(int detections);
    void errorShown(const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void showError(const QString& message);

    QThread workerThread_;
    PredictWorker* worker_ = nullptr;
    PredictionView* view_ = nullptr;
    PredictControls* controls_ = nullptr;
    QWidget* predictPage_ = nullptr;
    QString lastPath_;
    TrainPage* trainPage_ = nullptr;
    GraphsPage* graphsPage_ = nullptr;
    SettingsPage* settingsPage_ = nullptr;
    QTabWidget* pages_ = nullptr;
    QLabel* modelLabel_ = nullptr;
    QLabel* resultLabel_ = nullptr;
};
