#pragma once
// The Train page: a form for a run (model, data, epochs, batch, imgsz, device, optimizer, lr0,
// AMP, CUDA graph, output folder), Start / Stop / Resume, a progress bar with ETA, live charts of
// the loss parts per step with the epoch means, the validation mAP per epoch, the learning rate and
// step time per step, and the engine's log. A run never writes over another: a taken run name
// gets the engine's next free folder, which the page then shows in Run name for Resume. Options
// that need a CUDA GPU (AMP, CUDA graph, cuda devices) are disabled where there is none.
#include <QThread>
#include <QWidget>

#include "engine_metatypes.h"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSpinBox;
class TrainWorker;

class TrainPage : public QWidget {
    Q_OBJECT
public:
    explicit TrainPage(QWidget* parent = nullptr);
    ~TrainPage() override;

    // The form's content as engine options (resume=false), over the model family's defaults
    // (libreyolo::train_defaults) for what the form does not show.
    libreyolo::TrainOptions options() const;
    void setOptions(const libreyolo::TrainOptions& options);
    bool isRunning() const { return running_; }

    QCustomPlot* lossPlot() const { return lossPlot_; }
    QCustomPlot* metricPlot() const { return metricPlot_; }
    QCustomPlot* ratePlot() const { return ratePlot_; }

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
    void setRunning(bool running);
    void appendLog(const QString& line);
    // A run reported its folder: Run name shows its actual name, which Resume continues.
    void showRunFolder(const QString& dir);
    // The engine's name of a loss part (box, cls, ...), translated where known.
    static QString lossPartName(const std::string& engineName);
    // A model name of another family puts that family's defaults in the form (epochs, batch,
    // optimizer, lr0): RT-DETR trains with AdamW at 1e-4, YOLOv9 with SGD at 0.01.
    void applyFamilyDefaults();
    std::string family_;  // of the model the form's defaults are for
    // The run name typed for the last Start, and the numbered folder name the page put in Run name
    // when that run reported it (empty until then).
    QString runBaseName_, runFolderName_;

    QThread thread_;
    TrainWorker* worker_ = nullptr;
    bool running_ = false;

    QLineEdit* model_ = nullptr;
    QLineEdit* data_ = nullptr;
    QSpinBox* epochs_ = nullptr;
    QSpinBox* batch_ = nullptr;
    QSpinBox* imgsz_ = nullptr;
    QComboBox* device_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QDoubleSpinBox* lr0_ = nullptr;
    QCheckBox* amp_ = nullptr;
    QCheckBox* cudaGraph_ = nullptr;
    QLineEdit* project_ = nullptr;
    QLineEdit* name_ = nullptr;
    QPushButton* startButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QPushButton* resumeButton_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QCustomPlot* lossPlot_ = nullptr;
    QCustomPlot* metricPlot_ = nullptr;
    QCustomPlot* ratePlot_ = nullptr;  // learning rate and step time per step
    QPlainTextEdit* log_ = nullptr;
};
