// Live sources against an MJPEG-over-HTTP server on 127.0.0.1 (tests/support/mjpeg_server.h)
// serving the sample image sliding across the frame: the engine and the CLI read it live, keep
// only the newest frame, survive the server restarting, stop when told (Ctrl-C for the CLI); a
// missing camera or an unreachable stream says so.
#include <QtTest/QtTest>

#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>

#include "libreyolo/errors.h"
#include "libreyolo/live_source.h"
#include "libreyolo/model.h"
#include "libreyolo/track.h"
#include "support/mjpeg_server.h"
#include "support/sliding_sample.h"
#include "support/test_helpers.h"

using namespace libreyolo;
using libreyolo::testing::error_of;
using libreyolo::testing::MjpegServer;
namespace fs = std::filesystem;

namespace {

// The sample sliding right, 4 px per frame, back to the start every 40 frames.
cv::Mat frame_at(int i) {
    return libreyolo::testing::sliding_sample(4 * (i % 40));
}

// A port with nothing listening on it.
int closed_port() {
    MjpegServer s(frame_at);
    const int port = s.start();
    s.stop();
    return port;
}

}  // namespace

class TestLiveSource : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    fs::path root() const { return dir_.path().toStdString(); }

private Q_SLOTS:
    void recognisesLiveSources() {
        for (const char* s :
             {"0", "12", "rtsp://cam/1", "RTMP://x/live", "http://h/a.mjpg", "https://h/p.m3u8", "a.streams"})
            QVERIFY2(is_live_source(s), s);
        for (const char* s : {"clip.mp4", "images/", "12a", "-1", "file.txt"}) QVERIFY2(!is_live_source(s), s);
        const fs::path list = root() / "cams.streams";
        std::ofstream(list) << "# two cameras\n\nrtsp://10.0.0.2/s\n  0  \n";
        QCOMPARE(read_streams_file(list.string()), (std::vector<std::string>{"rtsp://10.0.0.2/s", "0"}));
        std::ofstream(list) << "rtsp://10.0.0.2/s\nclip.mp4\n";
        const std::string e = error_of([&] { read_streams_file(list.string()); });
        QVERIFY2(e.find("cams.streams:2") != std::string::npos && e.find("clip.mp4") != std::string::npos, e.c_str());
    }

    void missingCameraOrStreamSaysWhy() {
        std::string e = error_of([] { LiveSource s("63"); });
        QVERIFY2(e.find("no camera 63") != std::string::npos, e.c_str());
        const std::string url = "http://127.0.0.1:" + std::to_string(closed_port()) + "/stream.mjpg";
        e = error_of([&] { LiveSource s(url); });
        QVERIFY2(e.find(url) != std::string::npos && e.find("refused") != std::string::npos, e.c_str());
        e = error_of([] { LiveSource s("rtsp://no-such-host.invalid/stream"); });
        QVERIFY2(e.find("unknown host 'no-such-host.invalid'") != std::string::npos, e.c_str());
    }

    void keepsOnlyTheNewestFrame() {
        MjpegServer server(frame_at, 30);
        QVERIFY(server.start() > 0);
        LiveSource source(server.url());
        LiveFrame f;
        QCOMPARE(source.next(f, 10000), LiveSource::Next::Frame);
        QCOMPARE(f.width, frame_at(0).cols);
        QCOMPARE(f.height, frame_at(0).rows);
        const std::int64_t first = f.index;
        // A slow consumer: the source goes on reading meanwhile (waited for by count, not by time,
        // so that a busy machine changes nothing but the wait).
        QTRY_VERIFY_WITH_TIMEOUT(source.stats().frames_read >= first + 12, 60000);
        const std::int64_t read = source.stats().frames_read;
        QCOMPARE(source.next(f, 5000), LiveSource::Next::Frame);
        QVERIFY2(f.index >= read - 1, qPrintable(QString("index %1, %2 read").arg(f.index).arg(read)));
        const LiveStats stats = source.stats();
        // Every frame between the two taken was replaced unread.
        QVERIFY2(stats.frames_dropped >= f.index - first - 1,
                 qPrintable(QString("%1 dropped").arg(stats.frames_dropped)));
        QVERIFY(stats.connected);
        // Taken once: the same frame is not handed out again.
        const std::int64_t taken = f.index;
        QCOMPARE(source.next(f, 5000), LiveSource::Next::Frame);
        QVERIFY(f.index > taken);
    }

    void survivesTheServerRestarting() {
        MjpegServer server(frame_at, 30);
        const int port = server.start();
        LiveOptions o;
        o.reconnect_delay_s = 0.2;
        LiveSource source(server.url(), o);
        LiveFrame f;
        QCOMPARE(source.next(f, 10000), LiveSource::Next::Frame);
        server.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!source.stats().connected, 20000);
        while (source.next(f, 0) == LiveSource::Next::Frame) {
        }
        QCOMPARE(server.start(port), port);
        QCOMPARE(source.next(f, 20000), LiveSource::Next::Frame);
        QVERIFY(source.stats().reconnects >= 1);
        QVERIFY(source.stats().connected);
    }

    void givesUpAfterTheAttemptsAndStopsWhenTold() {
        MjpegServer server(frame_at, 30);
        server.start();
        LiveOptions o;
        o.reconnect_delay_s = 0.1;
        o.reconnect_max_delay_s = 0.1;
        o.reconnect_attempts = 2;
        LiveSource gone(server.url(), o);
        LiveFrame f;
        QCOMPARE(gone.next(f, 10000), LiveSource::Next::Frame);
        server.stop();
        QElapsedTimer t;
        t.start();
        while (gone.next(f, 200) != LiveSource::Next::Ended) QVERIFY(t.elapsed() < 20000);
        QVERIFY2(gone.end_reason().find("gave up after 2") != std::string::npos, gone.end_reason().c_str());

        server.start();
        LiveSource live(server.url());
        QCOMPARE(live.next(f, 10000), LiveSource::Next::Frame);
        t.restart();
        live.stop();
        QCOMPARE(live.next(f, 5000), LiveSource::Next::Ended);
        QVERIFY(t.elapsed() < 3000);
    }

    void predictAndTrackReadTheStream() {
        MjpegServer server(frame_at, 15);
        server.start();
        Model model = Model::load(default_model(), "cpu");
        int seen = 0;
        bool other_path = false;
        PredictOptions p;
        p.imgsz = 320;
        const std::vector<Result> kept = model.predict(server.url(), p, [&](const Result& r) {
            other_path = other_path || r.path != server.url();
            return ++seen < 3;
        });
        QCOMPARE(seen, 3);
        QVERIFY(!other_path);
        QVERIFY(kept.empty());  // a live source hands its results to on_result only

        TrackOptions o;
        o.predict.save = true;
        o.predict.project = (root() / "runs").string();
        std::set<int> ids;
        int frames = 0;
        std::string saved;
        model.track(server.url(), o, [&](const Result& r) {
            for (const auto& d : r.boxes) ids.insert(d.track_id);
            saved = r.saved_to;
            return ++frames < 8;
        });
        QCOMPARE(frames, 8);
        QVERIFY(!ids.empty() && *ids.begin() >= 1);
        QVERIFY2(fs::exists(saved) && fs::file_size(saved) > 0, saved.c_str());
        QCOMPARE(fs::path(saved).stem().string(), std::string("stream"));

        // Two streams from one .streams file: each followed on its own.
        const fs::path list = root() / "two.streams";
        std::ofstream(list) << server.url() << "\n" << server.url() << "?second\n";
        std::set<std::string> paths;
        frames = 0;
        model.track(list.string(), TrackOptions{}, [&](const Result& r) {
            paths.insert(r.path);
            return ++frames < 10;
        });
        QCOMPARE(paths.size(), std::size_t(2));
    }

    void commandLineStopsCleanlyOnCtrlC() {
        MjpegServer server(frame_at, 15);
        server.start();
        QProcess p;
        p.start(LIBREYOLO_CLI_PATH, {"track", QString::fromStdString("source=" + server.url()), "imgsz=320",
                                     "save=true", QString::fromStdString("project=" + (root() / "cli").string())});
        QVERIFY(p.waitForStarted());
        QElapsedTimer t;
        t.start();
        QByteArray out;
        while (!out.contains("frame ") && t.elapsed() < 60000) {
            p.waitForReadyRead(500);
            out += p.readAllStandardOutput();
        }
        QVERIFY2(out.contains("frame "), p.readAllStandardError().constData());
        ::kill(static_cast<pid_t>(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(20000));
        out += p.readAllStandardOutput();
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QVERIFY2(p.exitCode() == 0, err.constData());
        QVERIFY2(out.contains("Tracked "), out.constData());
        QVERIFY2(err.contains("Results saved to"), err.constData());

        p.start(LIBREYOLO_CLI_PATH, {"predict", "source=63"});
        QVERIFY(p.waitForFinished(60000));
        QVERIFY(p.exitCode() != 0);
        QVERIFY(p.readAllStandardError().contains("no camera 63"));
    }
};

QTEST_GUILESS_MAIN(TestLiveSource)
#include "test_live_source.moc"
