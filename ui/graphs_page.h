#pragma once
// The Graphs page: the model's captured CUDA graphs (a table refreshed after every prediction,
// capture and release), Capture… for a chosen image size, batch and dtype, Release, and the
// training run's graph state while one runs.
#include <QWidget>

#include <vector>

#include "engine_metatypes.h"
#include "libreyolo/cuda_graph.h"

class GraphTableModel;
class QLabel;
class QTableView;

class GraphsPage : public QWidget {
    Q_OBJECT
public:
    explicit GraphsPage(QWidget* parent = nullptr);
    GraphTableModel* model() const { return model_; }
    QString trainingState() const;

public Q_SLOTS:
    void setGraphs(const std::vector<libreyolo::GraphInfo>& graphs);
    void setTrainingState(const QString& state);
    // Asks for imgsz, batch and dtype, then emits captureRequested.
    void askCapture();

Q_SIGNALS:
    void captureRequested(int imgsz, int batch, const QString& dtype);
    void releaseRequested();

private:
    GraphTableModel* model_ = nullptr;
    QTableView* table_ = nullptr;
    QLabel* summary_ = nullptr;
    QLabel* training_ = nullptr;
};
