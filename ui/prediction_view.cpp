#include "prediction_view.h"

#include <QPainter>

namespace {
QColor colourFor(int cls) {
    return QColor::fromHsv((cls * 47) % 360, 220, 255);
}
}  // namespace

PredictionView::PredictionView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(320, 240);
    setAutoFillBackground(true);
}

void PredictionView::setPrediction(const QImage& image, const libreyolo::Result& result) {
    image_ = image;
    result_ = result;
    update();
}

void PredictionView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (image_.isNull()) {
        p.drawText(rect(), Qt::AlignCenter, tr("Drop an image here"));
        return;
    }
    const QSize fitted = image_.size().scaled(size(), Qt::KeepAspectRatio);
    const QRect target(QPoint((width() - fitted.width()) / 2, (height() - fitted.height()) / 2), fitted);
    p.setRenderHint(QPainter::SmoothPixmapTransform);
    p.drawImage(target, image_);
    const double scale = static_cast<double>(fitted.width()) / image_.width();
    p.setRenderHint(QPainter::Antialiasing);
    for (const auto& d : result_.boxes) {
        const QRectF box(target.left() + d.x1 * scale, target.top() + d.y1 * scale, (d.x2 - d.x1) * scale,
                         (d.y2 - d.y1) * scale);
        p.setPen(QPen(colourFor(d.cls), 2));
        p.drawRect(box);
        const QString label =
            QString("%1 %2").arg(QString::fromStdString(result_.class_name(d.cls))).arg(d.conf, 0, 'f', 2);
        const QRectF text = p.fontMetrics().boundingRect(label).adjusted(-2, 0, 2, 0);
        // Above the box, or just inside it when the box touches the top edge.
        const bool above = box.top() - text.height() >= target.top();
        const QRectF tag(box.topLeft() - QPointF(0, above ? text.height() : 0), text.size());
        p.fillRect(tag, colourFor(d.cls));
        p.setPen(Qt::black);
        p.drawText(tag, Qt::AlignCenter, label);
    }
}
