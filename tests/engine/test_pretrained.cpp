// Pretrained weights by name (libreyolo/pretrained.h): LibreYOLO's file names and hub URLs, and a
// loopback server under the hub's URL layout: the first use downloads, the second makes no request,
// ./weights/ comes first, offline makes none; a 404, a cut transfer and a corrupt archive each give
// their clear error and leave no file behind.
#include <QtTest/QtTest>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include "io/http_download.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/pretrained.h"
#include "support/detection_compare.h"
#include "support/local_http_server.h"

using namespace libreyolo;
namespace fs = std::filesystem;

namespace {

const std::string kCheckpoint = LIBREYOLO_FIXTURES_DIR "/pt_checkpoints/LibreYOLOXn-seeded-fp16.pt";
const std::string kHubPath = "/LibreYOLO/LibreYOLOXn/resolve/main/LibreYOLOXn.pt";
const std::string kStandIns = LIBREYOLO_FIXTURES_DIR "/pt_pretrained/";
const std::string kYolo9StandIn = kStandIns + "LibreYOLO9t-seeded.pt";

std::string bytes_of(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

// Nothing but the complete files in folder (no partial or unchecked download).
std::vector<std::string> files_in(const fs::path& folder) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder, ec)) names.push_back(entry.path().filename().string());
    return names;
}

}  // namespace

class TestPretrained : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString start_dir_;

    PretrainedOptions options(const testing::LocalHttpServer& server, const char* cache) const {
        PretrainedOptions o;
        o.base_url = server.base_url();
        o.cache = dir_.filePath(cache).toStdString();
        o.download = true;
        return o;
    }

private Q_SLOTS:
    void initTestCase() {
        // ./weights/ is looked up from the working folder: a fresh one.
        start_dir_ = QDir::currentPath();
        QVERIFY(QDir::setCurrent(dir_.path()));
    }
    void cleanupTestCase() { QDir::setCurrent(start_dir_); }

    void namesMapToLibreYOLOsFilesAndUrls() {
        QCOMPARE(pretrained_file_name("yolo9-t"), std::string("LibreYOLO9t.pt"));
        QCOMPARE(pretrained_file_name("LibreYOLOXs"), std::string("LibreYOLOXs.pt"));
        QCOMPARE(pretrained_file_name("rtdetr-r18"), std::string("LibreRTDETRr18.pt"));
        QCOMPARE(pretrained_file_name("LibreYOLO9c.pt"), std::string("LibreYOLO9c.pt"));
        QCOMPARE(pretrained_url("yolox-n", "https://huggingface.co"),
                 std::string("https://huggingface.co/LibreYOLO/LibreYOLOXn/resolve/main/LibreYOLOXn.pt"));
        QVERIFY(is_pretrained_file_name("libreyolo9t.pt"));
        QVERIFY(!is_pretrained_file_name("runs/LibreYOLO9t.pt"));
        QVERIFY(!is_pretrained_file_name("best.pt"));
        QVERIFY_THROWS_EXCEPTION(UnknownModel, pretrained_file_name("yolo9-q"));
    }

    void firstUseDownloadsThenTheCacheServes() {
        if (!io::download_available()) QSKIP("this build has no libcurl");
        testing::LocalHttpServer server;
        server.put(kHubPath, bytes_of(kCheckpoint));
        const PretrainedOptions o = options(server, "cache");
        int calls = 0;
        PretrainedOptions with_progress = o;
        with_progress.progress = [&](std::int64_t, std::int64_t) { return ++calls > 0; };
        const fs::path first = pretrained_weights("yolox-n", with_progress);
        QCOMPARE(server.requests(), 1);
        QVERIFY(calls > 0);
        QCOMPARE(first, fs::path(o.cache) / "LibreYOLOXn.pt");
        QCOMPARE(files_in(o.cache), std::vector<std::string>{"LibreYOLOXn.pt"});
        QCOMPARE(Model::load(first.string(), "cpu").info().family, std::string("yolox"));
        QCOMPARE(pretrained_weights("LibreYOLOXn.pt", o), first);
        QCOMPARE(server.requests(), 1);  // the cache answered
        // ./weights/ comes before the cache, and offline mode never asks the network.
        fs::create_directories("weights");
        fs::copy_file(first, "weights/LibreYOLOXn.pt");
        PretrainedOptions offline = options(server, "empty-cache");
        offline.download = false;
        QCOMPARE(pretrained_weights("yolox-n", offline), fs::path("weights") / "LibreYOLOXn.pt");
        fs::remove("weights/LibreYOLOXn.pt");
        const std::string message = error_of([&] { pretrained_weights("yolox-n", offline); });
        QVERIFY2(message.find("downloads are off") != std::string::npos &&
                     message.find(server.base_url() + kHubPath) != std::string::npos &&
                     message.find("./weights/") != std::string::npos,
                 message.c_str());
        QCOMPARE(server.requests(), 1);
    }

    // A LibreYOLO file name that is not on disk, anywhere a model is named, comes from the hub
    // (LIBREYOLO_HUB_BASE_URL, LIBREYOLO_WEIGHTS_CACHE), as LibreYOLO resolves it.
    void aLibreYOLOFileNameLoadsFromTheHub() {
        if (!io::download_available()) QSKIP("this build has no libcurl");
        testing::LocalHttpServer server;
        server.put(kHubPath, bytes_of(kCheckpoint));
        qunsetenv("LIBREYOLO_OFFLINE");  // ctest runs every test offline
        qputenv("LIBREYOLO_HUB_BASE_URL", QByteArray::fromStdString(server.base_url()));
        qputenv("LIBREYOLO_WEIGHTS_CACHE", dir_.filePath("env-cache").toUtf8());
        Model model = Model::load("LibreYOLOXn.pt", "cpu");
        QCOMPARE(model.info().size, std::string("n"));
        QVERIFY(model.info().pretrained);
        QCOMPARE(server.requests(), 1);
        qputenv("LIBREYOLO_OFFLINE", "1");
        Model again = Model::load("LibreYOLOXn.pt", "cpu");  // from the cache, offline
        Model by_name = Model::load("yolox-n", "cpu");       // the model name: the same file
        QCOMPARE(by_name.info().source,
                 (fs::path(dir_.filePath("env-cache").toStdString()) / "LibreYOLOXn.pt").string());
        QCOMPARE(server.requests(), 1);
        qunsetenv("LIBREYOLO_HUB_BASE_URL");
        qunsetenv("LIBREYOLO_WEIGHTS_CACHE");
    }

    // The promise, on a loopback hub: `libreyolo predict model=yolo9-t` downloads LibreYOLO's
    // weights once (here a stand-in LibreYOLO itself saved) and prints the detections LibreYOLO
    // printed for them; the second run asks nothing; download=false and info never ask; a name
    // LibreYOLO does not publish says so without a request.
    void predictByNameDownloadsOnceAndDetectsAsLibreYOLO() {
        if (!io::download_available()) QSKIP("this build has no libcurl");
        testing::LocalHttpServer server;
        server.put("/LibreYOLO/LibreYOLO9t/resolve/main/LibreYOLO9t.pt", bytes_of(kYolo9StandIn));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove("LIBREYOLO_OFFLINE");
        env.insert("LIBREYOLO_HUB_BASE_URL", QString::fromStdString(server.base_url()));
        env.insert("LIBREYOLO_WEIGHTS_CACHE", dir_.filePath("cli-cache"));
        const auto cli = [&](QStringList args) {
            QProcess p;
            p.setProcessEnvironment(env);
            p.start(LIBREYOLO_CLI_PATH, args);
            p.waitForFinished(600000);
            return std::tuple{p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
                              QString::fromUtf8(p.readAllStandardError())};
        };
        const auto expected = nlohmann::json::parse(std::ifstream(kStandIns + "LibreYOLO9t-seeded.boxes.json"));
        const QStringList predict = {"predict",
                                     "model=yolo9-t",
                                     "source=" LIBREYOLO_SAMPLE_IMAGE,
                                     "device=cpu",
                                     "conf=" + QString::number(expected["conf"].get<double>()),
                                     "--json"};
        const QStringList offline = {"predict", "model=yolo9-t", "download=false", "device=cpu"};
        auto [code, out, err] = cli(offline);
        QVERIFY2(code != 0 && err.contains("downloads are off") && err.contains("LibreYOLO9t.pt"), qPrintable(err));
        std::tie(code, out, err) = cli({"info", "model=yolo9-t"});
        QVERIFY2(code == 0 && out.contains("not downloaded") && out.contains("parameters  2,036,544"), qPrintable(out));
        QCOMPARE(server.requests(), 0);

        std::tie(code, out, err) = cli(predict);
        QVERIFY2(code == 0, qPrintable(err));
        QCOMPARE(server.requests(), 1);
        QVERIFY2(err.contains("downloading LibreYOLO9t.pt"), qPrintable(err));
        QVERIFY2(!err.contains("random weights"), qPrintable(err));
        std::vector<Detection> ours;
        const nlohmann::json printed = nlohmann::json::parse(out.toStdString());
        for (const auto& b : printed[0]["boxes"])
            ours.push_back({b["xyxy"][0].get<float>(), b["xyxy"][1].get<float>(), b["xyxy"][2].get<float>(),
                            b["xyxy"][3].get<float>(), b["conf"].get<float>(), b["cls"].get<int>()});
        const std::vector<Detection> theirs = testing::libreyolo_detections(expected);
        QVERIFY(!theirs.empty());
        testing::compare_detections(ours, theirs, 1e-4f);

        std::tie(code, out, err) = cli(predict);  // the cache answers
        QVERIFY2(code == 0 && !err.contains("downloading"), qPrintable(err));
        std::tie(code, out, err) = cli(offline);
        QVERIFY2(code == 0, qPrintable(err));
        std::tie(code, out, err) = cli({"info", "model=yolo9-t"});
        QVERIFY2(out.contains(dir_.filePath("cli-cache/LibreYOLO9t.pt")), qPrintable(out));
        // Deploying it: the export reads the cached weights and writes LibreYOLO's file name in
        // weights/ (issue 25's "libreyolo export model=yolo9-t format=onnx").
        std::tie(code, out, err) = cli({"export", "model=yolo9-t", "format=onnx"});
        if (!err.contains("no ONNX support")) {
            QVERIFY2(code == 0, qPrintable(err));
            QVERIFY2(out.contains("weights/LibreYOLO9t.onnx"), qPrintable(out));
            QVERIFY(QFileInfo(QDir::current().filePath("weights/LibreYOLO9t.onnx")).size() > 1000000);
        }
        std::tie(code, out, err) = cli({"predict", "model=yolo9-x", "device=cpu"});
        QVERIFY2(code != 0 && err.contains("unknown size 'x'"), qPrintable(err));
        QCOMPARE(server.requests(), 1);
    }

    void failedDownloadsSayWhyAndLeaveNothing() {
        if (!io::download_available()) QSKIP("this build has no libcurl");
        testing::LocalHttpServer server;
        const std::string good = bytes_of(kCheckpoint);
        server.put("/LibreYOLO/LibreYOLOXs/resolve/main/LibreYOLOXs.pt", good, /*cut=*/true);
        std::string corrupt = good;
        for (std::size_t i = 2000; i < 2100; ++i) corrupt[i] = '\x5a';
        server.put("/LibreYOLO/LibreYOLOXm/resolve/main/LibreYOLOXm.pt", corrupt);
        const PretrainedOptions o = options(server, "failing");
        const std::string missing = error_of([&] { pretrained_weights("yolo9-t", o); });
        QVERIFY2(missing.find("HTTP 404") != std::string::npos &&
                     missing.find("/LibreYOLO/LibreYOLO9t/resolve/main/LibreYOLO9t.pt") != std::string::npos &&
                     missing.find("./weights/LibreYOLO9t.pt") != std::string::npos,
                 missing.c_str());
        const std::string cut = error_of([&] { pretrained_weights("yolox-s", o); });
        QVERIFY2(cut.find("LibreYOLOXs.pt") != std::string::npos, cut.c_str());
        const std::string broken = error_of([&] { pretrained_weights("yolox-m", o); });
        QVERIFY2(broken.find("LibreYOLOXm.pt") != std::string::npos, broken.c_str());
        QVERIFY2(files_in(o.cache).empty(), "a failed download left a file");
    }
};

QTEST_GUILESS_MAIN(TestPretrained)
#include "test_pretrained.moc"
