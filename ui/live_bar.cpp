#include "live_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

LiveBar::LiveBar(QWidget* parent) : QWidget(parent) {
    source_ = new QLineEdit(this);
    source_->setPlaceholderText(tr("camera index (0) or stream URL (rtsp://, http://…)"));
    source_->setClearButtonEnabled(true);
    track_ = new QCheckBox(tr("Track"), this);
    track_->setToolTip(tr("Follow objects across frames (ByteTrack): each box shows its track id"));
    track_->setChecked(true);
    start_ = new QPushButton(tr("Start"), this);
    status_ = new QLabel(this);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 0, 6, 0);
    layout->addWidget(new QLabel(tr("Live:"), this));
    layout->addWidget(source_, 2);
    layout->addWidget(track_);
    layout->addWidget(start_);
    layout->addWidget(status_, 3);
    connect(start_, &QPushButton::clicked, this, [this] {
        if (running_) {
            Q_EMIT stopRequested();
        } else if (!source().isEmpty()) {
            Q_EMIT startRequested(source(), tracking());
        } else {
            setStatus(tr("Give a camera index or a stream URL first"));
        }
    });
    connect(source_, &QLineEdit::returnPressed, start_, [this] {
        if (!running_) start_->click();
    });
}

QString LiveBar::source() const {
    return source_->text().trimmed();
}

void LiveBar::setSource(const QString& source) {
    source_->setText(source);
}

bool LiveBar::tracking() const {
    return track_->isChecked();
}

void LiveBar::setTracking(bool on) {
    track_->setChecked(on);
}

QString LiveBar::status() const {
    return status_->text();
}

void LiveBar::setRunning(bool running) {
    running_ = running;
    start_->setText(running ? tr("Stop") : tr("Start"));
    source_->setEnabled(!running);
    track_->setEnabled(!running);
}

void LiveBar::setStatus(const QString& text) {
    status_->setText(text);
}
