// Engine core: device strings, the log sink, model names, CLI key=value parsing.
#include <QtTest/QtTest>

#include "args.h"
#include "libreyolo/device.h"
#include "libreyolo/errors.h"
#include "libreyolo/families.h"
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
        QVERIFY(message_of({"model"}).find("'model' is not key=value") != std::string::npos);
        QVERIFY(message_of({"=3"}).find("no key") != std::string::npos);
        QVERIFY(message_of({"conf="}).find("no value") != std::string::npos);
        QVERIFY(message_of({"conf=1", "conf=2"}).find("given twice") != std::string::npos);
        QVERIFY(message_of({"imgsz=64o"}).find("imgsz=64o") != std::string::npos);
        QVERIFY(message_of({"conf=high"}).find("not a number") != std::string::npos);
        QVERIFY(message_of({"confs=0.3"}).find("did you mean 'conf'") != std::string::npos);
        QVERIFY(message_of({"--jsn"}).find("did you mean '--json'") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestCore)
#include "test_core.moc"
