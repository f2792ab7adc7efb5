// Model::track and `libreyolo track` on a clip of the bundled sample image sliding across the
// frame: every shape keeps one id, saving writes the annotated video, persist continues the ids,
// classes= filters, bad requests name what is wrong.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "libreyolo/errors.h"
#include "libreyolo/frame_viewer.h"
#include "libreyolo/model.h"
#include "libreyolo/track.h"
#include "support/sliding_sample.h"
#include "support/test_helpers.h"

using namespace libreyolo;
using libreyolo::testing::error_of;
namespace fs = std::filesystem;

namespace {

constexpr int kFrames = 10;

// The sample sliding right, 6 px per frame.
cv::Mat frame_at(int i) {
    return libreyolo::testing::sliding_sample(6 * i);
}

ImageView view_of(const cv::Mat& rgb) {
    return ImageView{rgb.data, rgb.cols, rgb.rows, static_cast<int>(rgb.step), PixelFormat::RGB8};
}

std::set<int> ids_of(const Result& r) {
    std::set<int> ids;
    for (const auto& d : r.boxes) ids.insert(d.track_id);
    return ids;
}

struct Run {
    int code = -1;
    QString out, err;
};

Run run_cli(const QStringList& args,
            const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(environment);
    p.start(LIBREYOLO_CLI_PATH, args);
    p.waitForFinished(600000);
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

}  // namespace

class TestTrack : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    Model model_ = Model::load(default_model(), "cpu");
    fs::path root() const { return dir_.path().toStdString(); }
    fs::path clip_;

    TrackOptions options() const {
        TrackOptions o;
        o.predict.project = (root() / "runs").string();
        return o;
    }

private Q_SLOTS:
    void initTestCase() {
        clip_ = root() / "clip.avi";
        cv::VideoWriter w(clip_.string(), cv::VideoWriter::fourcc('M', 'J', 'P', 'G'), 10, frame_at(0).size());
        QVERIFY(w.isOpened());
        for (int i = 0; i < kFrames; ++i) w.write(frame_at(i));
    }

    void everyShapeKeepsItsId() {
        const std::vector<Result> results = model_.track(clip_.string(), options());
        QCOMPARE(static_cast<int>(results.size()), kFrames);
        // The five shapes the model is sure of keep their ids on every frame, each id on a box
        // that moved as its shape did (6 px right per frame; the detector's own jitter aside). The
        // unsure square/hexagon on the right edge may spawn short-lived extra tracks.
        int sure = 0;
        for (const auto& d0 : results.front().boxes) {
            QVERIFY(d0.track_id >= 1);
            if (d0.conf < 0.9f) continue;
            ++sure;
            for (const Result& r : results) {
                const auto it = std::find_if(r.boxes.begin(), r.boxes.end(),
                                             [&](const Detection& d) { return d.track_id == d0.track_id; });
                QVERIFY2(it != r.boxes.end(),
                         qPrintable(QString("id %1 lost on frame %2").arg(d0.track_id).arg(r.frame)));
                QCOMPARE(it->cls, d0.cls);
                const float moved = it->x1 - d0.x1;  // the left edge: the right one stops at the frame's
                QVERIFY2(std::abs(moved - 6.0f * r.frame) < 5.0f,
                         qPrintable(QString("id %1 moved %2 px by frame %3").arg(d0.track_id).arg(moved).arg(r.frame)));
            }
        }
        QCOMPARE(sure, 5);
        for (const Result& r : results) {
            QCOMPARE(r.frame, static_cast<int>(&r - results.data()));
            for (const auto& d : r.boxes) QVERIFY(d.track_id >= 1);
        }
        // The same as the tracker run over predict's detections at the tracker's low threshold.
        PredictOptions p;
        p.conf = 0.1f;
        Tracker tracker;
        const std::vector<Result> detected = model_.predict(clip_.string(), p);
        for (std::size_t i = 0; i < detected.size(); ++i) {
            const std::vector<Detection> expected = tracker.update(detected[i].boxes);
            QCOMPARE(results[i].boxes.size(), expected.size());
            for (std::size_t k = 0; k < expected.size(); ++k) {
                QCOMPARE(results[i].boxes[k].track_id, expected[k].track_id);
                QCOMPARE(results[i].boxes[k].x1, expected[k].x1);
            }
        }
    }

    void savesTheAnnotatedVideo() {
        TrackOptions o = options();
        o.predict.save = true;
        o.predict.name = "saved";
        const std::vector<Result> results = model_.track(clip_.string(), o);
        QVERIFY(!results.empty());
        const fs::path written = results.back().saved_to;
        QVERIFY2(written.parent_path() == root() / "runs" / "saved", written.c_str());
        QCOMPARE(written.stem().string(), std::string("clip"));
        cv::VideoCapture in(written.string());
        QVERIFY(in.isOpened());
        int frames = 0;
        for (cv::Mat f; in.read(f);) ++frames;
        QCOMPARE(frames, kFrames);
    }

    void persistContinuesTheIds() {
        // The scene on the left half of a wide canvas, then on the right half: no box of the second
        // call overlaps one of the first, so every object of the second call is a new track.
        auto placed = [](int i, int x) {
            cv::Mat f;
            cv::cvtColor(frame_at(i), f, cv::COLOR_BGR2RGB);
            cv::Mat canvas(f.rows, 2 * f.cols, CV_8UC3, cv::Scalar(114, 114, 114));
            f.copyTo(canvas(cv::Rect(x, 0, f.cols, f.rows)));
            return canvas;
        };
        std::vector<cv::Mat> left, right;
        for (int i = 0; i < 3; ++i) {
            left.push_back(placed(i, 0));
            right.push_back(placed(i, frame_at(0).cols));
        }
        std::vector<ImageView> first, second;
        for (const auto& f : left) first.push_back(view_of(f));
        for (const auto& f : right) second.push_back(view_of(f));
        TrackOptions o = options();
        o.persist = true;
        const std::vector<Result> a = model_.track(first, o);
        QVERIFY(ids_of(a.back()).size() >= 5);
        const int last_id = *ids_of(a.back()).rbegin();
        const std::vector<Result> b = model_.track(second, o);
        QVERIFY(!b.back().boxes.empty());
        QVERIFY(*ids_of(b.back()).begin() > last_id);  // ids go on from the first call's
        o.persist = false;
        const std::vector<Result> c = model_.track(second, o);
        QCOMPARE(*ids_of(c.back()).begin(), 1);  // a fresh tracker
    }

    void aFrameViewerSeesEveryAnnotatedFrameAndCanStop() {
        int shown = 0;
        bool as_decoded = true;
        const std::vector<Result> plain = model_.track(clip_.string(), options());
        set_frame_viewer([&](const std::string& source, const ImageView& bgr) {
            as_decoded = as_decoded && bgr.width == plain[0].orig_w && bgr.height == plain[0].orig_h &&
                         bgr.format == PixelFormat::BGR8 && source == plain[0].path;
            return ++shown < 4;
        });
        const std::vector<Result> results = model_.track(clip_.string(), options());
        set_frame_viewer({});
        QCOMPARE(shown, 4);
        QVERIFY(as_decoded);
        QCOMPARE(static_cast<int>(results.size()), 3);  // the fourth frame's viewer said stop
        shown = 0;
        set_frame_viewer([&](const std::string&, const ImageView&) { return ++shown > 0; });
        model_.predict(clip_.string(), PredictOptions{});
        set_frame_viewer({});
        QCOMPARE(shown, kFrames);
    }

    void classesFilterPredictAndTrack() {
        PredictOptions p;
        const std::vector<Result> all = model_.predict(LIBREYOLO_SAMPLE_IMAGE, p);
        std::set<int> classes;
        for (const auto& d : all.front().boxes) classes.insert(d.cls);
        QVERIFY(classes.size() >= 2);
        p.classes = {*classes.begin()};
        const std::vector<Result> some = model_.predict(LIBREYOLO_SAMPLE_IMAGE, p);
        QVERIFY(!some.front().boxes.empty());
        for (const auto& d : some.front().boxes) QCOMPARE(d.cls, *classes.begin());
        TrackOptions o = options();
        o.predict.classes = p.classes;
        for (const Result& r : model_.track(clip_.string(), o))
            for (const auto& d : r.boxes) QCOMPARE(d.cls, *classes.begin());
        p.classes = {-1};
        QVERIFY(error_of([&] { model_.predict(LIBREYOLO_SAMPLE_IMAGE, p); }).find("classes") != std::string::npos);
    }

    void badRequestsSayWhatIsWrong() {
        TrackOptions o = options();
        o.tracker.tracker = "deepsort";
        QVERIFY(error_of([&] { model_.track(clip_.string(), o); }).find("tracker: unknown tracker 'deepsort'") !=
                std::string::npos);
        o = options();
        o.track_conf = 1.5f;
        QVERIFY(error_of([&] { model_.track(clip_.string(), o); }).find("track_conf") != std::string::npos);
        o = options();
        o.tracker.track_low_thresh = 0.3f;
        o.tracker_fields_set = {"track_low_thresh"};
        QVERIFY(error_of([&] { model_.track(clip_.string(), o); }).find("track_high_thresh") != std::string::npos);
        fs::create_directories(root() / "two");
        fs::copy_file(clip_, root() / "two" / "a.avi");
        fs::copy_file(clip_, root() / "two" / "b.avi");
        QVERIFY(error_of([&] { model_.track((root() / "two").string(), options()); }).find("one video") !=
                std::string::npos);
    }

    void commandLineTracksAndPrintsIds() {
        const QString project = QString::fromStdString((root() / "cli").string());
        Run r = run_cli({"track", QString("source=%1").arg(QString::fromStdString(clip_.string())), "save=true",
                         QString("project=%1").arg(project), "--json"});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(static_cast<int>(j.size()), kFrames);
        QVERIFY(!j[0]["boxes"].empty());
        for (const auto& box : j[kFrames - 1]["boxes"]) QVERIFY(box["track_id"].get<int>() >= 1);
        QVERIFY2(r.err.contains("Results saved to"), qPrintable(r.err));
        QVERIFY(fs::exists(project.toStdString() + "/track/clip.mp4") ||
                fs::exists(project.toStdString() + "/track/clip.avi"));

        r = run_cli({"track", QString("source=%1").arg(QString::fromStdString(clip_.string())), "tracker=botsort",
                     "track_buffer=10", QString("project=%1").arg(project)});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("frame 9 ") && r.out.contains("#1 ") && r.out.contains("Tracked 10 frames"),
                 qPrintable(r.out));

        // show=true: a window where a display exists (offscreen here), a warning where none does.
        r = run_cli({"track", QString("source=%1").arg(QString::fromStdString(clip_.string())), "show=true"});
        QVERIFY2(r.code == 0 && !r.err.contains("not shown"), qPrintable(r.err));
        QProcessEnvironment headless = QProcessEnvironment::systemEnvironment();
        for (const char* v : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) headless.remove(v);
        r = run_cli({"predict", QString("source=%1").arg(QString::fromStdString(clip_.string())), "show=true"},
                    headless);
        QVERIFY2(r.code == 0 && r.err.contains("show=true: no display here"), qPrintable(r.err));

        r = run_cli({"track"});
        QVERIFY(r.code != 0 && r.err.contains("source:"));
        r = run_cli({"track", QString("source=%1").arg(QString::fromStdString(clip_.string())), "match_thresh=2"});
        QVERIFY2(r.code != 0 && r.err.contains("match_thresh"), qPrintable(r.err));
        r = run_cli({"track", "source=/no/such/clip.mp4"});
        QVERIFY2(r.code != 0 && r.err.contains("/no/such/clip.mp4"), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestTrack)
#include "test_track.moc"
