#pragma once
// Watches the GUI thread while a worker thread computes: a 20 ms timer notes the longest wait
// between its ticks. A window that stays responsive never makes it wait 100 ms.
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>

namespace libreyolo::testing {

class EventLoopWatch {
public:
    EventLoopWatch() {
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            longest_ = std::max(longest_, clock_.elapsed() - last_);
            last_ = clock_.elapsed();
        });
        clock_.start();
        timer_.start(20);
    }
    qint64 longestGapMs() const { return longest_; }

private:
    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, longest_ = 0;
};

}  // namespace libreyolo::testing
