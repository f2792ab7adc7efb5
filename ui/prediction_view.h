#pragma once
// Shows an image with its detections drawn on top, as the engine draws them (libreyolo/annotate.h:
// its palette, label text colour and label placement). The image starts fitted to the view keeping
// its aspect ratio; the mouse wheel zooms around the cursor, dragging pans, a double click fits
// again. A failed prediction replaces the picture with its message.
#include <QImage>
#include <QWidget>

#include "libreyolo/results.h"

class PredictionView : public QWidget {
    Q_OBJECT
public:
    explicit PredictionView(QWidget* parent = nullptr);
    // A new image of another size fits the view again; the same size (predicted again) keeps the
    // zoom and pan.
    void setPrediction(const QImage& image, const libreyolo::Result& result);
    // No image and no boxes: the view shows message instead (why nothing could be predicted), so
    // an earlier picture never passes for the one that failed.
    void showFailure(const QString& message);
    const QString& failure() const { return failure_; }  // empty while a prediction is shown
    const libreyolo::Result& result() const { return result_; }
    const QImage& image() const { return image_; }
    QSize sizeHint() const override { return {800, 560}; }

    double zoom() const { return zoom_; }  // 1 = fitted
    void resetView();
    // Where a point of the image (in its pixels) is drawn in the widget.
    QPointF imageToWidget(const QPointF& imagePoint) const;

    // The image with its detections drawn at its own resolution by the engine
    // (libreyolo::draw_detections), so saved images equal `libreyolo predict save=true`'s.
    static QImage annotated(const QImage& image, const libreyolo::Result& result);

protected:
    void paintEvent(QPaintEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    QRectF imageRect() const;  // where the whole image is drawn, zoom and pan applied

    QImage image_;
    libreyolo::Result result_;
    QString failure_;
    double zoom_ = 1;
    QPointF pan_;
    QPointF dragFrom_;
    bool dragging_ = false;
};
