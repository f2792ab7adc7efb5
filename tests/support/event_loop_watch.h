#pragma once
// Watches the GUI thread while worker threads compute: a 20 ms timer notes every wait between its
// ticks. A window that computes on its own thread misses the ticks for as long as the work takes;
// a responsive one keeps them coming. On a busy machine a responsive window still misses a few (the
// scheduler runs other processes, its own painting runs slower), so one long gap proves nothing:
// the window is judged by the share of the watched time its thread was stalled, that is, spent in
// gaps longer than kStallMs (each counted in full, the one still open at the check included).
#include <QElapsedTimer>
#include <QString>
#include <QTimer>

#include <algorithm>

namespace libreyolo::testing {

class EventLoopWatch {
public:
    static constexpr qint64 kTickMs = 20;
    static constexpr qint64 kStallMs = 100;
    // A window that blocks on the work is stalled nearly all of the time; a loaded, responsive one
    // a few per cent.
    static constexpr double kMaxStalledShare = 0.5;

    EventLoopWatch() {
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const qint64 now = clock_.elapsed();
            note(now - last_);
            last_ = now;
        });
        clock_.start();
        timer_.start(kTickMs);
    }

    qint64 watchedMs() const { return clock_.elapsed(); }
    qint64 longestGapMs() const { return std::max(longest_, openGapMs()); }
    qint64 stalledMs() const { return stalled_ + (openGapMs() > kStallMs ? openGapMs() : 0); }

    // Empty when the thread kept turning; otherwise what the test reports.
    QString unresponsiveness() const {
        const qint64 watched = std::max<qint64>(1, watchedMs());
        if (stalledMs() <= kMaxStalledShare * watched) return {};
        return QString("the GUI thread was stalled %1 of %2 ms (longest gap %3 ms)")
            .arg(stalledMs())
            .arg(watched)
            .arg(longestGapMs());
    }

private:
    qint64 openGapMs() const { return clock_.elapsed() - last_; }
    void note(qint64 gap) {
        longest_ = std::max(longest_, gap);
        if (gap > kStallMs) stalled_ += gap;
    }

    QTimer timer_;
    QElapsedTimer clock_;
    qint64 last_ = 0, longest_ = 0, stalled_ = 0;
};

}  // namespace libreyolo::testing
