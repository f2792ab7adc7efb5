#pragma once
// A one-line label for text of any length in a row of fields (the status bar's): it shows as much
// as its width allows with an ellipsis, keeps the whole text as its tooltip, and asks the layout
// for no more than a small minimum, so long text never widens the row or runs into the next field.
//
// Header-only and without Q_OBJECT: it adds no signal, slot or translatable string, so it needs
// neither moc nor an entry in the UI library's source list.
#include <QFontMetrics>
#include <QLabel>
#include <QResizeEvent>

class ElidedLabel : public QLabel {
public:
    explicit ElidedLabel(Qt::TextElideMode mode = Qt::ElideRight, QWidget* parent = nullptr)
        : QLabel(parent), mode_(mode) {
        setTextFormat(Qt::PlainText);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    }

    // Shows text, elided to the label's width; the tooltip holds all of it. (QLabel::setText
    // would show it uncut: use this.)
    void setFullText(const QString& text) {
        full_ = text;
        setToolTip(text);
        showElided();
        updateGeometry();
    }
    const QString& fullText() const { return full_; }

    // The whole text's width is what the label would like; the layout may give it less.
    QSize sizeHint() const override {
        const QMargins m = contentsMargins();
        return {fontMetrics().horizontalAdvance(full_) + m.left() + m.right() + 2 * margin(),
                QLabel::sizeHint().height()};
    }
    QSize minimumSizeHint() const override {
        const QMargins m = contentsMargins();
        return {fontMetrics().horizontalAdvance(QStringLiteral("…")) * 4 + m.left() + m.right(),
                QLabel::minimumSizeHint().height()};
    }

protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        showElided();
    }

private:
    // One line: a multi-line message (an engine error with its details) reads as one.
    void showElided() {
        const QString line = QString(full_).replace(QLatin1Char('\n'), QLatin1Char(' '));
        QLabel::setText(fontMetrics().elidedText(line, mode_, contentsRect().width() - 2 * margin()));
    }

    Qt::TextElideMode mode_;
    QString full_;
};
