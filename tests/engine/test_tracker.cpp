// ByteTrack and motion-only BoT-SORT against LibreYOLO 1.6.0's own trackers on a committed scene
// (scripts/fixtures/make_tracker.py): the same tracked rows and ids, frame by frame.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include <fstream>

#include "libreyolo/errors.h"
#include "libreyolo/track.h"

using namespace libreyolo;

namespace {

nlohmann::json fixture() {
    std::ifstream in(LIBREYOLO_FIXTURES_DIR "/tracker/cases.json");
    return nlohmann::json::parse(in);
}

std::vector<Detection> detections_of(const nlohmann::json& rows) {
    std::vector<Detection> out;
    for (const auto& r : rows)
        out.push_back({r[0].get<float>(), r[1].get<float>(), r[2].get<float>(), r[3].get<float>(), r[4].get<float>(),
                       static_cast<int>(r[5].get<double>())});
    return out;
}

TrackerConfig config_of(const nlohmann::json& c) {
    TrackerConfig config;
    config.tracker = c["tracker"].get<std::string>();
    for (const auto& [key, value] : c["config"].items()) {
        const std::string text = value.is_boolean() ? (value.get<bool>() ? "true" : "false") : value.dump();
        if (!set_tracker_field(config, key, text)) throw std::runtime_error("fixture field " + key);
    }
    return config;
}

}  // namespace

class TestTracker : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sameIdsAsLibreYolo_data() {
        QTest::addColumn<int>("index");
        const nlohmann::json f = fixture();
        for (std::size_t i = 0; i < f["cases"].size(); ++i)
            QTest::newRow((f["cases"][i]["tracker"].get<std::string>() + " " + f["cases"][i]["config"].dump()).c_str())
                << static_cast<int>(i);
    }
    void sameIdsAsLibreYolo() {
        QFETCH(int, index);
        const nlohmann::json f = fixture();
        const nlohmann::json& c = f["cases"][static_cast<std::size_t>(index)];
        Tracker tracker(config_of(c));
        std::size_t rows = 0;
        for (std::size_t frame = 0; frame < f["frames"].size(); ++frame) {
            const std::vector<Detection> dets = detections_of(f["frames"][frame]);
            std::vector<int> index_of;
            const std::vector<Detection> tracked = tracker.update(dets, index_of);
            const nlohmann::json& expected = c["tracks"][frame];
            nlohmann::json ours = nlohmann::json::array();
            for (std::size_t k = 0; k < tracked.size(); ++k) ours.push_back({index_of[k], tracked[k].track_id});
            if (ours != expected)
                QFAIL(("frame " + std::to_string(frame) + ": ours " + ours.dump() + ", LibreYOLO " + expected.dump())
                          .c_str());
            for (std::size_t k = 0; k < tracked.size(); ++k) {
                const Detection& d = dets[static_cast<std::size_t>(index_of[k])];
                QCOMPARE(tracked[k].x1, d.x1);
                QCOMPARE(tracked[k].conf, d.conf);
            }
            rows += tracked.size();
        }
        QCOMPARE(tracker.frames_seen(), static_cast<int>(f["frames"].size()));
        QVERIFY(rows > 1000);
    }

    void resetStartsIdsAgain() {
        const nlohmann::json f = fixture();
        Tracker tracker;
        const std::vector<Detection> first = tracker.update(detections_of(f["frames"][0]));
        QVERIFY(!first.empty());
        for (int i = 1; i < 20; ++i) tracker.update(detections_of(f["frames"][static_cast<std::size_t>(i)]));
        tracker.reset();
        QCOMPARE(tracker.frames_seen(), 0);
        const std::vector<Detection> again = tracker.update(detections_of(f["frames"][0]));
        QCOMPARE(again.size(), first.size());
        for (std::size_t i = 0; i < first.size(); ++i) QCOMPARE(again[i].track_id, first[i].track_id);
    }

    void emptyFramesKeepLostTracks() {
        Tracker tracker;
        const std::vector<Detection> box = {{100, 100, 200, 220, 0.9f, 0}};
        QCOMPARE(tracker.update(box).at(0).track_id, 1);
        for (int i = 0; i < 10; ++i) QVERIFY(tracker.update({}).empty());
        QCOMPARE(tracker.update(box).at(0).track_id, 1);  // found again within the buffer
        for (int i = 0; i < 40; ++i) tracker.update({});
        QCOMPARE(tracker.update(box).at(0).track_id, 2);  // past 30 frames: a new object
    }

    void badConfigsNameTheField() {
        auto refused = [](TrackerConfig c, const char* field) {
            try {
                Tracker t(c);
            } catch (const Error& e) {
                return QString(e.what()).contains(field);
            }
            return false;
        };
        TrackerConfig c;
        c.track_high_thresh = 1.5f;
        QVERIFY(refused(c, "track_high_thresh"));
        c = {};
        c.track_low_thresh = 0.5f;
        QVERIFY(refused(c, "track_low_thresh"));
        c = {};
        c.frame_rate = 0;
        QVERIFY(refused(c, "frame_rate"));
        c = {};
        c.minimum_consecutive_frames = 0;
        QVERIFY(refused(c, "minimum_consecutive_frames"));
        c = {};
        c.tracker = "sort";
        QVERIFY(refused(c, "tracker"));
        c = {};
        c.tracker = "botsort";
        c.enable_cmc = true;
        QVERIFY(refused(c, "enable_cmc"));
        c = {};
        c.tracker = "botsort.yaml";
        QCOMPARE(Tracker(c).config().tracker, std::string("botsort"));

        TrackerConfig s;
        QVERIFY(set_tracker_field(s, "track_buffer", "12"));
        QCOMPARE(s.track_buffer, 12);
        QVERIFY(!set_tracker_field(s, "conf", "0.3"));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, set_tracker_field(s, "track_buffer", "1.5"));
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, set_tracker_field(s, "fuse_score", "maybe"));
    }
};

QTEST_APPLESS_MAIN(TestTracker)
#include "test_tracker.moc"
