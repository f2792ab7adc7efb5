#pragma once
// The Train page: a TrainForm for a run, Start / Stop / Resume, a progress bar with ETA and a
// status line, the TrainCharts, and the run's log (the engine's lines while it lasts). A
// TrainController runs it off the GUI thread. A run never writes over another: a taken run name
// gets the engine's next free folder, which the page then shows in Run name for Resume.
#include <QWidget>

#include "engine_metatypes.h"

class QCustomPlot;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class TrainCharts;
class TrainController;
class TrainForm;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    explicit TrainPage(QWidget* parent = nullptr);
    ~TrainPage() override;

    // The form's content as engine options (resume=false), over the model family's defaults
    // (libreyolo::train_defaults) for what the form does not show.
    libreyolo::TrainOptions options() const;
    void setOptions(const libreyolo::TrainOptions& options);
    bool isRunning() const;

    QCustomPlot* lossPlot() const;
    QCustomPlot* metricPlot() const;
    QCustomPlot* ratePlot() const;

    // A training graph's state in the studio's words (graphStateChanged's text).
    static QString graphStatusText(const libreyolo::TrainingGraphStatus& status);

public Q_SLOTS:
    void start();
    void stop();
    // Continues project/name (the folder the last run reported) from its weights/last.*.
    void resume();

Q_SIGNALS:
    void runFinished(const QString& saveDir, bool stopped);
    void runFailed(const QString& message);
    void startRequested(const libreyolo::TrainOptions& options);
    // --cuda-graph of the current or last run: requested, captured, ruled out, fell back, finished.
    void graphStateChanged(const QString& state);

private:
    void launch(const libreyolo::TrainOptions& options);
    void onEvent(const libreyolo::TrainEvent& e);
    void onFinished(const QString& dir, bool stopped, double best, const libreyolo::TrainingGraphStatus& cudaGraph);
    void onFailed(const QString& message);
    void showRunning(bool running);
    void appendLog(const QString& line);

    TrainForm* form_ = nullptr;
    TrainCharts* charts_ = nullptr;
    TrainController* run_ = nullptr;
    QPushButton* startButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QPushButton* resumeButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
};
