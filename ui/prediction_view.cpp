#include "prediction_view.h"

#include <QFontMetrics>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "libreyolo/annotate.h"

namespace {

constexpr double kMinZoom = 0.25, kMaxZoom = 40;

QColor toQColor(libreyolo::Rgb c) {
    return QColor(c.r, c.g, c.b);
}

// Boxes and labels of result over an image drawn at target (scale: widget pixels per image pixel).
// Labels follow the engine's placement in widget pixels, so they stay inside the drawn image.
void drawDetections(QPainter& p, const QRectF& target, double scale, const libreyolo::Result& result) {
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics metrics = p.fontMetrics();
    for (const auto& d : result.boxes) {
        const libreyolo::Rgb rgb = libreyolo::box_colour(d);
        const QColor colour = toQColor(rgb);
        const QRectF box(target.left() + d.x1 * scale, target.top() + d.y1 * scale, (d.x2 - d.x1) * scale,
                         (d.y2 - d.y1) * scale);
        p.setPen(QPen(colour, 2));
        p.drawRect(box);
        const QString label = QString::fromStdString(libreyolo::box_label(result, d));
        const int tagWidth = metrics.horizontalAdvance(label) + 4, tagHeight = metrics.height();
        const libreyolo::LabelPlace at =
            libreyolo::place_label(qRound(box.left() - target.left()), qRound(box.top() - target.top()), tagWidth,
                                   tagHeight, qRound(target.width()), qRound(target.height()));
        const QRectF tag(target.left() + at.x, target.top() + at.y, tagWidth, tagHeight);
        p.fillRect(tag, colour);
        p.setPen(toQColor(libreyolo::label_text_colour(rgb)));
        p.drawText(tag, Qt::AlignCenter, label);
    }
}

}  // namespace

PredictionView::PredictionView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(320, 240);
    setAutoFillBackground(true);
}

void PredictionView::setPrediction(const QImage& image, const libreyolo::Result& result) {
    if (image.size() != image_.size()) resetView();
    image_ = image;
    result_ = result;
    failure_.clear();
    update();
}

void PredictionView::showFailure(const QString& message) {
    image_ = QImage();
    result_ = libreyolo::Result();
    failure_ = message;
    resetView();
}

void PredictionView::resetView() {
    zoom_ = 1;
    pan_ = {};
    update();
}

QRectF PredictionView::imageRect() const {
    const QSizeF fitted = QSizeF(image_.size()).scaled(QSizeF(size()), Qt::KeepAspectRatio) * zoom_;
    return {QPointF((width() - fitted.width()) / 2, (height() - fitted.height()) / 2) + pan_, fitted};
}

QPointF PredictionView::imageToWidget(const QPointF& imagePoint) const {
    const QRectF r = imageRect();
    return r.topLeft() + imagePoint * (r.width() / std::max(1, image_.width()));
}

void PredictionView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().window());
    if (image_.isNull()) {
        p.drawText(rect().adjusted(16, 16, -16, -16), Qt::AlignCenter | Qt::TextWordWrap,
                   failure_.isEmpty() ? tr("Drop an image here") : failure_);
        return;
    }
    const QRectF target = imageRect();
    p.setRenderHint(QPainter::SmoothPixmapTransform, zoom_ <= 2);  // pixels stay crisp when zoomed in
    p.drawImage(target, image_);
    drawDetections(p, target, target.width() / image_.width(), result_);
}

void PredictionView::wheelEvent(QWheelEvent* event) {
    if (image_.isNull()) return;
    const QPointF cursor = event->position();
    const QRectF before = imageRect();
    const QPointF underCursor = (cursor - before.topLeft()) / (before.width() / image_.width());
    zoom_ = std::clamp(zoom_ * std::pow(1.0015, event->angleDelta().y()), kMinZoom, kMaxZoom);
    // Keep the image point under the cursor where it was.
    pan_ += cursor - imageToWidget(underCursor);
    update();
    event->accept();
}

void PredictionView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton) return;
    dragging_ = true;
    dragFrom_ = event->position();
    setCursor(Qt::ClosedHandCursor);
}

void PredictionView::mouseMoveEvent(QMouseEvent* event) {
    if (!dragging_) return;
    pan_ += event->position() - dragFrom_;
    dragFrom_ = event->position();
    update();
}

void PredictionView::mouseReleaseEvent(QMouseEvent*) {
    dragging_ = false;
    unsetCursor();
}

void PredictionView::mouseDoubleClickEvent(QMouseEvent*) {
    resetView();
}

QImage PredictionView::annotated(const QImage& image, const libreyolo::Result& result) {
    QImage out = image.convertToFormat(QImage::Format_RGB888);
    if (out.isNull()) return out;
    // bits() detaches: the caller's image stays as it was.
    libreyolo::draw_detections(out.bits(), out.width(), out.height(), static_cast<int>(out.bytesPerLine()), result);
    return out;
}
