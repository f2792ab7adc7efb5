#pragma once
// The Train page's charts: the loss and its parts per step with the epoch means, the validation
// mAP per epoch, the learning rate and step time per step. A resumed run repeats the interrupted
// epoch's steps (or a validated epoch): they replace what was drawn from there on, so every line
// keeps running forwards.
#include <QWidget>

#include <string>
#include <vector>

#include "engine_metatypes.h"

class QCustomPlot;

class TrainCharts : public QWidget {
    Q_OBJECT
public:
    explicit TrainCharts(QWidget* parent = nullptr);
    QCustomPlot* lossPlot() const { return lossPlot_; }
    QCustomPlot* metricPlot() const { return metricPlot_; }
    QCustomPlot* ratePlot() const { return ratePlot_; }

    // Empties every chart, for a new run.
    void clear();
    void addBatch(const libreyolo::TrainEvent& e);
    void addEpoch(const libreyolo::TrainEvent& e);

private:
    // A curve per name (added as a family needs them) in the plot and its legend, named so; the
    // others out of both.
    void showParts(const std::vector<std::string>& names);

    QCustomPlot* lossPlot_ = nullptr;
    QCustomPlot* metricPlot_ = nullptr;
    QCustomPlot* ratePlot_ = nullptr;  // learning rate and step time per step
};
