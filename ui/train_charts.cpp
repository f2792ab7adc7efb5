#include "train_charts.h"

#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "qcustomplot_include.h"

namespace {

// The loss plot's curves: the batch loss, the epoch mean, then the family's parts (as many as its
// TrainEvent::loss_names, under those names: the family's own).
constexpr int kEpochMean = 1, kFirstPart = 2;

QColor seriesColor(int i) {
    static const QColor colors[] = {QColor(30, 30, 30),   QColor(200, 60, 40),  QColor(40, 120, 200),
                                    QColor(60, 160, 60),  QColor(150, 60, 170), QColor(210, 150, 30),
                                    QColor(20, 160, 170), QColor(120, 90, 60)};
    return colors[i % 8];
}

// The legend gets a row of its own above the axes, so it never covers the newest data.
QCustomPlot* makePlot(const QString& xLabel, const QString& yLabel, const QStringList& series, QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    for (int i = 0; i < series.size(); ++i) {
        QCPGraph* g = plot->addGraph();
        g->setName(series[i]);
        g->setPen(QPen(seriesColor(i), 1.5));
    }
    plot->xAxis->setLabel(xLabel);
    plot->yAxis->setLabel(yLabel);
    plot->legend->setVisible(true);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);  // takes it out of the axis rect
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->setMinimumHeight(160);
    return plot;
}

// Steps and epochs are counted: ticks on whole numbers only.
void useIntegerTicks(QCPAxis* axis) {
    QSharedPointer<QCPAxisTickerFixed> ticker(new QCPAxisTickerFixed);
    ticker->setTickStep(1);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    axis->setTicker(ticker);
}

// A counted axis after rescaleAxes: from 0 at the least, at least one unit wide (one point or none
// would otherwise give a range around it, negative below 1).
void fitCountAxis(QCPAxis* axis) {
    const QCPRange r = axis->range();
    const double lower = std::max(0.0, std::floor(r.lower));
    axis->setRange(lower, std::max(lower + 1, std::ceil(r.upper)));
}

// Losses, learning rates and step times are never negative: neither is their axis, even when
// rescaling around a single point would take it below 0.
void keepNonNegative(QCPAxis* axis) {
    if (axis->range().lower < 0) axis->setRangeLower(0);
}

// What a resumed run draws again replaces what was drawn from key on.
void dropFrom(QCPGraph* graph, double key) {
    graph->data()->removeAfter(key - 0.5);
}

}  // namespace

TrainCharts::TrainCharts(QWidget* parent) : QWidget(parent) {
    lossPlot_ = makePlot(tr("step"), tr("loss"), {tr("loss"), tr("epoch mean")}, this);
    lossPlot_->graph(kEpochMean)->setLineStyle(QCPGraph::lsNone);
    lossPlot_->graph(kEpochMean)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 7));
    metricPlot_ = makePlot(tr("epoch"), tr("mAP"), {tr("mAP50"), tr("mAP50-95")}, this);
    // Discs: the first validation is a single point, which a line alone would not show.
    for (int i = 0; i < metricPlot_->graphCount(); ++i)
        metricPlot_->graph(i)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 6));
    metricPlot_->yAxis->setRange(0, 1);
    metricPlot_->xAxis->setRange(0, 1);
    ratePlot_ = makePlot(tr("step"), tr("learning rate"), {tr("lr"), tr("step ms")}, this);
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_}) useIntegerTicks(plot->xAxis);
    // Step time on its own axis, at the right.
    ratePlot_->yAxis2->setVisible(true);
    ratePlot_->yAxis2->setLabel(tr("ms a step"));
    ratePlot_->graph(1)->setValueAxis(ratePlot_->yAxis2);

    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(lossPlot_);
    split->addWidget(metricPlot_);
    split->addWidget(ratePlot_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);
}

void TrainCharts::showParts(const std::vector<std::string>& names) {
    const int count = static_cast<int>(names.size());
    while (lossPlot_->graphCount() < kFirstPart + count) {
        QCPGraph* g = lossPlot_->addGraph();
        g->setPen(QPen(seriesColor(lossPlot_->graphCount() - 1), 1.5));
        g->setVisible(false);
        g->removeFromLegend();
    }
    for (int i = 0; i < lossPlot_->graphCount() - kFirstPart; ++i) {
        QCPGraph* part = lossPlot_->graph(kFirstPart + i);
        const bool shown = i < count;
        if (shown && part->name() != QString::fromStdString(names[static_cast<std::size_t>(i)]))
            part->setName(QString::fromStdString(names[static_cast<std::size_t>(i)]));
        if (part->visible() == shown) continue;
        part->setVisible(shown);
        if (shown)
            part->addToLegend();
        else
            part->removeFromLegend();
    }
}

void TrainCharts::clear() {
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_})
        for (int i = 0; i < plot->graphCount(); ++i) plot->graph(i)->data()->clear();
    metricPlot_->xAxis->setRange(0, 1);
    for (QCustomPlot* plot : {lossPlot_, metricPlot_, ratePlot_}) plot->replot(QCustomPlot::rpQueuedReplot);
}

void TrainCharts::addBatch(const libreyolo::TrainEvent& e) {
    for (QCustomPlot* plot : {lossPlot_, ratePlot_})
        for (int i = 0; i < plot->graphCount(); ++i) dropFrom(plot->graph(i), e.step);
    lossPlot_->graph(0)->addData(e.step, e.loss);
    // The family's parts (YOLOv9: box, cls, dfl; YOLOX: iou, obj, cls, l1; RT-DETR: vfl, bbox,
    // giou; D-FINE: vfl, bbox, giou, fgl, ddf; DEIM: mal, ...), named by the family.
    const std::size_t parts = std::min(e.loss_parts.size(), e.loss_names.size());
    showParts({e.loss_names.begin(), e.loss_names.begin() + static_cast<std::ptrdiff_t>(parts)});
    for (std::size_t i = 0; i < parts; ++i)
        lossPlot_->graph(kFirstPart + static_cast<int>(i))->addData(e.step, e.loss_parts[i]);
    lossPlot_->rescaleAxes();
    fitCountAxis(lossPlot_->xAxis);
    keepNonNegative(lossPlot_->yAxis);
    lossPlot_->replot(QCustomPlot::rpQueuedReplot);
    ratePlot_->graph(0)->addData(e.step, e.lr);
    ratePlot_->graph(1)->addData(e.step, e.step_ms);
    ratePlot_->rescaleAxes();
    fitCountAxis(ratePlot_->xAxis);
    keepNonNegative(ratePlot_->yAxis);
    keepNonNegative(ratePlot_->yAxis2);
    ratePlot_->replot(QCustomPlot::rpQueuedReplot);
}

void TrainCharts::addEpoch(const libreyolo::TrainEvent& e) {
    const double lastStep = static_cast<double>(e.epoch) * e.batches;  // the epoch mean sits at its last step
    dropFrom(lossPlot_->graph(kEpochMean), lastStep);
    lossPlot_->graph(kEpochMean)->addData(lastStep, e.loss);
    lossPlot_->replot(QCustomPlot::rpQueuedReplot);
    if (e.map50 < 0) return;  // not validated this epoch
    for (int i = 0; i < metricPlot_->graphCount(); ++i) dropFrom(metricPlot_->graph(i), e.epoch);
    metricPlot_->graph(0)->addData(e.epoch, e.map50);
    metricPlot_->graph(1)->addData(e.epoch, e.map50_95);
    // mAP is a fraction: the whole of [0, 1] always, so epochs compare at a glance. Epochs from 0
    // to one past the last, so the newest point is never on the edge.
    bool found = false;
    const QCPRange epochs = metricPlot_->graph(0)->getKeyRange(found);
    metricPlot_->xAxis->setRange(0, (found ? std::max(1.0, epochs.upper) : 1.0) + 1);
    metricPlot_->yAxis->setRange(0, 1);
    metricPlot_->replot(QCustomPlot::rpQueuedReplot);
}
