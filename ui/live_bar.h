#pragma once
// The Predict page's live row: a camera index or stream URL, whether to track, Start/Stop, and
// what the running source does (frames per second, time per frame, the CUDA-graph state).
#include <QWidget>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

class LiveBar : public QWidget {
    Q_OBJECT
public:
    explicit LiveBar(QWidget* parent = nullptr);
    QString source() const;
    void setSource(const QString& source);
    bool tracking() const;
    void setTracking(bool on);
    bool running() const { return running_; }
    QString status() const;
    QPushButton* startButton() const { return start_; }

public Q_SLOTS:
    void setRunning(bool running);  // the button reads Stop while a source runs
    void setStatus(const QString& text);

Q_SIGNALS:
    void startRequested(const QString& source, bool track);
    void stopRequested();

private:
    QLineEdit* source_ = nullptr;
    QCheckBox* track_ = nullptr;
    QPushButton* start_ = nullptr;
    QLabel* status_ = nullptr;
    bool running_ = false;
};
