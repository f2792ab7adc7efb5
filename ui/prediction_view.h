#pragma once
// Shows an image with its detections drawn on top, scaled to fit while keeping the aspect ratio.
#include <QImage>
#include <QWidget>

#include "libreyolo/results.h"

class PredictionView : public QWidget {
    Q_OBJECT
public:
    explicit PredictionView(QWidget* parent = nullptr);
    void setPrediction(const QImage& image, const libreyolo::Result& result);
    const libreyolo::Result& result() const { return result_; }
    QSize sizeHint() const override { return {800, 560}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QImage image_;
    libreyolo::Result result_;
};
