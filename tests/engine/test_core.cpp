// Engine core: device strings, the log sink, model names, CLI key=value parsing.
#include <QtTest/QtTest>

#include "args.h"
#include "libreyolo/annotate.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "libreyolo/log.h"

using namespace libreyolo;

class TestCore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void parsesDevices() {
        QCOMPARE(parse_device("auto").kind, DeviceSpec::Kind::Auto);
        QCOMPARE(parse_device("").kind, DeviceSpec::Kind::Auto);
        QCOMPARE(parse_device("CPU"), (DeviceSpec{DeviceSpec::Kind::Cpu, 0}));
        QCOMPARE(parse_device("cuda"), (DeviceSpec{DeviceSpec::Kind::Cuda, 0}));
        QCOMPARE(parse_device("cuda:3"), (DeviceSpec{DeviceSpec::Kind::Cuda, 3}));
        QCOMPARE(parse_device("1"), (DeviceSpec{DeviceSpec::Kind::Cuda, 1}));
        QCOMPARE(parse_device("cuda:2").str(), std::string("cuda:2"));
        for (const char* bad : {"cuda:", "cuda:-1", "gpu0", "tpu", "cuda:x", "-1"}) {
            try {
                parse_device(bad);
                QFAIL(qPrintable(QString("accepted device '%1'").arg(bad)));
            } catch (const InvalidArgument& e) {
                QVERIFY(std::string(e.what()).find(bad) != std::string::npos);
            }
        }
    }

    void resolvesDevicesOnThisMachine() {
        QCOMPARE(resolve_device(parse_device("cpu")).kind, DeviceSpec::Kind::Cpu);
        const DeviceSpec automatic = resolve_device(parse_device("auto"));
        QCOMPARE(automatic.kind, cuda_available() ? DeviceSpec::Kind::Cuda : DeviceSpec::Kind::Cpu);
        if (!cuda_available()) QVERIFY_THROWS_EXCEPTION(DeviceError, resolve_device(parse_device("cuda")));
        QVERIFY_THROWS_EXCEPTION(DeviceError, resolve_device(parse_device("cuda:99")));
    }

    void logSinkReceivesLinesAtOrAboveLevel() {
        std::vector<std::tuple<LogLevel, std::string, std::string>> lines;
        set_log_callback([&](LogLevel l, const std::string& s, const std::string& m) { lines.emplace_back(l, s, m); });
        set_log_level(LogLevel::Info);
        log_debug("test", "hidden");
        log_info("test", "shown");
        log_warning("weights", "careful");
        set_log_callback({});
        QCOMPARE(lines.size(), std::size_t(2));
        QCOMPARE(std::get<1>(lines[1]), std::string("weights"));
        QCOMPARE(std::get<2>(lines[1]), std::string("careful"));
        QCOMPARE(std::get<0>(lines[1]), LogLevel::Warning);
    }

    void parsesModelNames() {
        for (const char* spelling : {"yolo9-t", "YOLO9t", "yolov9-t", "LibreYOLO9t", "yolo9_t"}) {
            const ModelName n = parse_model_name(spelling);
            QCOMPARE(n.family, std::string("yolo9"));
            QCOMPARE(n.size, std::string("t"));
            QCOMPARE(n.task, std::string("detect"));
        }
        QCOMPARE(parse_model_name("yolo9-c").canonical(), std::string("yolo9-c"));
        QVERIFY(looks_like_model_name("yolo9-t"));
        QVERIFY(!looks_like_model_name("weights/yolo9-t.safetensors"));
    }

    void unknownModelsSuggestTheClosestName() {
        try {
            parse_model_name("yolo9-x");
            QFAIL("accepted size x");
        } catch (const UnknownModel& e) {
            QVERIFY(std::string(e.what()).find("unknown size 'x'") != std::string::npos);
        }
        try {
            parse_model_name("yolp9-t");
            QFAIL("accepted family yolp9");
        } catch (const UnknownModel& e) {
            QVERIFY2(std::string(e.what()).find("did you mean 'yolo9-t'") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(UnknownModel, family_traits("yolo42"));
    }

    void familyRegistryDeclaresTraits() {
        const FamilyTraits& t = family_traits("yolo9");
        QCOMPARE(t.sizes, (std::vector<std::string>{"t", "s", "m", "c"}));
        QVERIFY(t.supports_cuda_graph_inference("detect"));  // proven by tests/gpu/test_cuda_graphs
        QVERIFY(!t.supports_cuda_graph_inference("segment"));
        QVERIFY(t.supports_cuda_graph_training("detect"));  // proven by tests/gpu/test_cuda_training_graphs
        QVERIFY(!t.supports_cuda_graph_training("segment"));
        QCOMPARE(known_model_names().front(), std::string("yolo9-t"));
    }

    void parsesKeyValueArguments() {
        const auto args = cli::parse_arguments({"model=yolo9-t", "conf=0.5", "save=true", "--json"},
                                               {"model", "conf", "save"}, {"json"});
        QCOMPARE(args.get("model"), std::string("yolo9-t"));
        QCOMPARE(args.get_float("conf", 0), 0.5f);
        QVERIFY(args.get_bool("save", false));
        QVERIFY(args.flags.count("json"));
        QCOMPARE(args.get_int("imgsz", 640), 640);
    }

    void rejectsMalformedArguments() {
        const std::set<std::string> keys{"model", "conf", "imgsz"};
        auto message_of = [&](std::vector<std::string> argv) -> std::string {
            try {
                auto a = cli::parse_arguments(argv, keys, {"json"});
                a.get_int("imgsz", 0);
                a.get_float("conf", 0);
            } catch (const InvalidArgument& e) {
                return e.what();
            }
            return "";
        };
        QVERIFY(message_of({"yolo9"}).find("'yolo9' is not key=value") != std::string::npos);
        // A key and its value written apart, as argparse tools take them.
        QVERIFY(message_of({"conf", "0.4"}).find("write 'conf=0.4'") != std::string::npos);
        QVERIFY(message_of({"model"}).find("write 'model=VALUE'") != std::string::npos);
        QVERIFY(message_of({"=3"}).find("no key") != std::string::npos);
        QVERIFY(message_of({"conf="}).find("no value") != std::string::npos);
        QVERIFY(message_of({"conf=1", "conf=2"}).find("given twice") != std::string::npos);
        QVERIFY(message_of({"imgsz=64o"}).find("imgsz=64o") != std::string::npos);
        QVERIFY(message_of({"conf=high"}).find("not a number") != std::string::npos);
        QVERIFY(message_of({"confs=0.3"}).find("did you mean 'conf'") != std::string::npos);
        QVERIFY(message_of({"--jsn"}).find("did you mean '--json'") != std::string::npos);
    }

    // Labels read on their box colour and stay inside the image at its top and right edges.
    void aTrackedBoxShowsItsIdInItsTracksColour() {
        Result r;
        r.names = {"circle", "square"};
        Detection d{1, 2, 30, 40, 0.914f, 1};
        QCOMPARE(box_label(r, d), std::string("square 0.91"));
        QCOMPARE(box_colour(d), class_colour(1));
        d.track_id = 7;
        QCOMPARE(box_label(r, d), std::string("#7 0.91"));
        QCOMPARE(box_colour(d), class_colour(7));
    }

    void labelsAreReadableAndStayInsideTheImage() {
        QCOMPARE(label_text_colour({255, 178, 29}), (Rgb{0, 0, 0}));      // yellow
        QCOMPARE(label_text_colour({255, 149, 200}), (Rgb{0, 0, 0}));     // pink
        QCOMPARE(label_text_colour({72, 249, 10}), (Rgb{0, 0, 0}));       // light green
        QCOMPARE(label_text_colour({0, 24, 236}), (Rgb{255, 255, 255}));  // dark blue
        QCOMPARE(class_colour(0), class_colour(20));                      // the palette cycles
        const LabelPlace above = place_label(50, 40, 30, 12, 200, 100);
        QCOMPARE(above.x, 50);
        QCOMPARE(above.y, 28);
        const LabelPlace top = place_label(50, 3, 30, 12, 200, 100);  // no room above: inside the box
        QCOMPARE(top.y, 3);
        const LabelPlace right = place_label(190, 40, 30, 12, 200, 100);
        QCOMPARE(right.x, 170);
        const LabelPlace corner = place_label(195, 95, 30, 12, 200, 100);
        QVERIFY(corner.x + 30 <= 200 && corner.y + 12 <= 100);

        // predict save=true's drawing: a box at the top-right corner, its label inside the image.
        std::vector<std::uint8_t> rgb(200 * 100 * 3, 0);
        Result r;
        r.names = {"thing"};
        r.boxes = {{150, 0, 199, 60, 0.9f, 0}};
        draw_detections(rgb.data(), 200, 100, 0, r);
        const Rgb c = class_colour(0);
        auto at = [&](int x, int y) {
            const std::uint8_t* p = &rgb[static_cast<std::size_t>(y * 200 + x) * 3];
            return Rgb{p[0], p[1], p[2]};
        };
        int edge_pixels = 0;  // the box's left edge (antialiased over neighbouring columns)
        for (int x = 148; x <= 152; ++x) edge_pixels += !(at(x, 30) == Rgb{0, 0, 0});
        QVERIFY(edge_pixels > 0);
        QCOMPARE(at(100, 30), (Rgb{0, 0, 0}));  // outside the box, untouched
        int label_pixels = 0;                   // the filled tag, inside the box's top rows
        for (int x = 100; x < 200; ++x) label_pixels += at(x, 2) == c;
        QVERIFY(label_pixels > 20);
        QVERIFY_THROWS_EXCEPTION(InvalidArgument, draw_detections(nullptr, 200, 100, 0, r));
    }

    void imageSizesOffTheStrideNameTheNearestValidOnes() {
        auto message_of = [](int imgsz, bool allow_zero) -> std::string {
            try {
                check_image_size(imgsz, allow_zero);
            } catch (const InvalidArgument& e) {
                return e.what();
            }
            return "";
        };
        QVERIFY(message_of(100, false).find("imgsz=100") != std::string::npos);
        QVERIFY(message_of(100, false).find("try 96 or 128") != std::string::npos);
        QVERIFY(message_of(7, false).find("try 32") != std::string::npos);
        QVERIFY(message_of(-64, true).find("multiple of 32") != std::string::npos);
        QVERIFY(!message_of(0, false).empty());
        QVERIFY(message_of(0, true).empty());
        QVERIFY(message_of(640, false).empty());
        QCOMPARE(nearest_image_size(100), 96);
        QCOMPARE(nearest_image_size(112), 128);
        QCOMPARE(nearest_image_size(3), 32);
    }
};

QTEST_APPLESS_MAIN(TestCore)
#include "test_core.moc"
