// Hub kernel plugins on any machine, served from a local HTTP server on 127.0.0.1 as a hub would
// serve them (<base>/<repo>/resolve/<revision>/<file>): a good plugin is downloaded (with the
// user's opt-in only), verified, cached, loaded and chosen by the nms slot with the reference's
// answers; a SHA-256 mismatch, a truncated transfer, a truncated cached file, a library without
// entry points, an ABI mismatch, a failing registration and a build for another torch are refused
// with one warning and leave the reference in use; a throwing predicate declines; a failing kernel
// disables its plugin for the process with one warning and the call falls back; with
// LIBREYOLO_HUB_KERNELS=0 nothing is fetched or loaded. Also SHA-256 and manifest checks.
#include <QtTest/QtTest>

#include "support/local_http_server.h"
#include "support/test_helpers.h"

#include "core/sha256.h"
#include "io/http_download.h"
#include "kernels/hub/hub.h"
#include "kernels/hub/manifest.h"
#include "kernels/nms.h"
#include "kernels/nms_slot.h"
#include "kernels/slot.h"
#include "libreyolo/kernels.h"

using namespace libreyolo;
using namespace libreyolo::kernels::hub;
namespace fs = std::filesystem;

namespace {

const std::string kRepo = "libreyolo/test-kernels";
const std::string kFile = "test_plugin.so";

std::string torch_here() {
    return this_build().torch;
}

// Boxes of two classes, overlapping within each class: the fixture both NMS implementations see.
struct NmsFixture {
    torch::Tensor boxes, scores, classes;
    NmsFixture() {
        torch::manual_seed(5);
        const torch::Tensor xy = torch::rand({200, 2}) * 200;
        boxes = torch::cat({xy, xy + 20 + torch::rand({200, 2}) * 40}, 1);
        scores = torch::rand({200});
        classes = torch::randint(0, 2, {200}, torch::kLong);
    }
    torch::Tensor via_slot() const { return kernels::nms_slot()(boxes, scores, classes, 0.45); }
    torch::Tensor reference() const { return kernels::nms_keep(boxes, scores, classes, 0.45); }
};

}  // namespace

class TestKernelHub : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        plugin_bytes_ = testing::read_all(LIBREYOLO_TEST_PLUGIN);
        QVERIFY(!plugin_bytes_.empty());
    }
    void init() {
        qunsetenv("LIBREYOLO_TEST_PLUGIN_MODE");
        qunsetenv("LIBREYOLO_HUB_KERNELS");
        reload_kernel_environment();
    }

    void sha256MatchesTheStandardVectors() {
        QCOMPARE(sha256_hex(""), std::string("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
        QCOMPARE(sha256_hex("abc"), std::string("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
        QCOMPARE(sha256_hex(std::string(1000000, 'a')),
                 std::string("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
        QCOMPARE(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
                 std::string("248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
    }

    void manifestErrorsNameTheFileAndField() {
        const fs::path path = dir("manifests") / "bad.json";
        testing::write_file(path, R"({"plugins": [{"provider": "p", "repo": "r", "revision": "v", "file": "f.so",
                                      "sha256": "ABC", "build": {"torch": "2", "cuda": "none", "arch": "cpu"}}]})");
        const std::string error = testing::error_of([&] { read_manifest(path); });
        QVERIFY2(error.find(path.string() + ": plugins[0]: \"sha256\"") != std::string::npos, error.c_str());
        testing::write_file(path, R"({"plugins": [{"provider": "p"}]})");
        QVERIFY(testing::error_of([&] { read_manifest(path); }).find("\"sha256\" is missing") != std::string::npos);
    }

    // First, while nothing has loaded the hub yet: switched off, the hub is neither read nor fetched.
    void hubKernelsZeroFetchesAndLoadsNothing() {
        testing::LocalHttpServer server;
        publish(server, "rev-off");
        qputenv("LIBREYOLO_HUB_KERNELS", "0");
        qputenv("LIBREYOLO_HUB_MANIFEST",
                QByteArray::fromStdString(manifest("off", "rev-off", sha(plugin_bytes_)).string()));
        qputenv("LIBREYOLO_HUB_DOWNLOAD", "1");
        qputenv("LIBREYOLO_HUB_BASE_URL", QByteArray::fromStdString(server.base_url()));
        qputenv("LIBREYOLO_HUB_CACHE", QByteArray::fromStdString(dir("cache-off").string()));
        reload_kernel_environment();
        NmsFixture f;
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QVERIFY(!kernel_policy().hub_kernels);
        QCOMPARE(kernel_report().size() > 0, true);
        QCOMPARE(server.requests(), 0);
        QVERIFY(!fs::exists(dir("cache-off") / kRepo));
        for (const char* name :
             {"LIBREYOLO_HUB_MANIFEST", "LIBREYOLO_HUB_DOWNLOAD", "LIBREYOLO_HUB_BASE_URL", "LIBREYOLO_HUB_CACHE"})
            qunsetenv(name);
    }

    void withoutTheOptInNothingIsDownloaded() {
        testing::LocalHttpServer server;
        publish(server, "rev-no-opt-in");
        const KernelPluginInfo info = load_one("no-opt-in", "rev-no-opt-in", sha(plugin_bytes_), server, false);
        QVERIFY2(info.state.starts_with("not loaded: not cached"), info.state.c_str());
        QVERIFY(info.state.find("LIBREYOLO_HUB_DOWNLOAD=1") != std::string::npos);
        QCOMPARE(server.requests(), 0);
    }

    void aGoodPluginIsDownloadedVerifiedCachedAndUsed() {
        if (!io::download_available()) QSKIP("this build has no libcurl: nothing to download with");
        testing::LocalHttpServer server;
        publish(server, "rev-good");
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_one("test-good", "rev-good", sha(plugin_bytes_), server, true);
        QCOMPARE(info.state, std::string("loaded"));
        QCOMPARE(server.requests(), 1);
        const fs::path cached = cached_file(dir("cache"), kRepo, "rev-good", kFile);
        QCOMPARE(info.path, cached.string());
        QCOMPARE(testing::read_all(cached), plugin_bytes_);
        QVERIFY(!fs::exists(cached.string() + ".partial"));

        NmsFixture f;
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QCOMPARE(kernels::nms_slot().info().active, std::string("test-greedy"));
        QVERIFY(warnings.lines.empty());

        // Cached: a second process (here: a second load of another provider name) needs no request.
        load_one("test-good-again", "rev-good", sha(plugin_bytes_), server, true);
        QCOMPARE(server.requests(), 1);
        // The override restricts the choice to a provider: another one leaves the reference.
        qputenv("LIBREYOLO_KERNELS", "nobody");
        reload_kernel_environment();
        QCOMPARE(kernels::nms_slot().info().active, std::string("portable"));
        qunsetenv("LIBREYOLO_KERNELS");
        reload_kernel_environment();
        disable_test_providers();
    }

    // A "path" entry beside its manifest, as the build writes for the in-tree plugins: those are
    // the studio's own, so LIBREYOLO_HUB_KERNELS=0 leaves them on; LIBREYOLO_KERNELS=off does not.
    void anInTreePluginStaysOnWithHubKernelsOff() {
        const fs::path manifest = dir("in-tree") / "manifest.json";
        testing::write_file(dir("in-tree") / kFile, plugin_bytes_);
        testing::write_file(manifest, R"({"plugins": [{"provider": "test-in-tree", "path": ")" + kFile +
                                          R"(", "sha256": ")" + sha(plugin_bytes_) + R"(", "build": {"torch": ")" +
                                          torch_here() + R"(", "cuda": "none", "arch": "cpu"}}]})");
        HubSettings s;
        s.manifests = {manifest};
        s.cache = dir("cache");
        const KernelPluginInfo info = load_hub_plugins(s, kernels::Origin::Builtin).front();
        QCOMPARE(info.state, std::string("loaded"));
        QCOMPARE(info.source, std::string("in-tree"));
        qputenv("LIBREYOLO_HUB_KERNELS", "0");
        reload_kernel_environment();
        NmsFixture f;
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QCOMPARE(kernels::nms_slot().info().active, std::string("test-greedy"));
        qputenv("LIBREYOLO_KERNELS", "off");
        reload_kernel_environment();
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QCOMPARE(kernels::nms_slot().info().active, std::string("portable"));
        qunsetenv("LIBREYOLO_KERNELS");
        disable_test_providers();
    }

    void aShaMismatchIsRefused() {
        testing::LocalHttpServer server;
        publish(server, "rev-sha");
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_one("test-sha", "rev-sha", sha("something else"), server, true);
        QVERIFY2(info.state.starts_with("refused: SHA-256 of "), info.state.c_str());
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        QCOMPARE(kernels::nms_slot().info().active, std::string("portable"));
    }

    void aTruncatedTransferLeavesNothingBehind() {
        if (!io::download_available()) QSKIP("this build has no libcurl: nothing to download with");
        testing::LocalHttpServer server;
        server.put("/" + kRepo + "/resolve/rev-cut/" + kFile, plugin_bytes_, /*cut=*/true);
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_one("test-cut", "rev-cut", sha(plugin_bytes_), server, true);
        QVERIFY2(info.state.starts_with("not loaded: download http://127.0.0.1:"), info.state.c_str());
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        const fs::path cached = cached_file(dir("cache"), kRepo, "rev-cut", kFile);
        QVERIFY(!fs::exists(cached));
        QVERIFY(!fs::exists(cached.string() + ".partial"));
    }

    void aTruncatedCachedFileIsRefused() {
        testing::LocalHttpServer server;
        testing::write_file(cached_file(dir("cache"), kRepo, "rev-short", kFile),
                            plugin_bytes_.substr(0, plugin_bytes_.size() / 3));
        const KernelPluginInfo info = load_one("test-short", "rev-short", sha(plugin_bytes_), server, true);
        QVERIFY2(info.state.starts_with("refused: SHA-256"), info.state.c_str());
        QCOMPARE(server.requests(), 0);
    }

    void aMissingHttpFileIsReported() {
        if (!io::download_available()) QSKIP("this build has no libcurl: nothing to download with");
        testing::LocalHttpServer server;
        const KernelPluginInfo info = load_one("test-404", "rev-404", sha(plugin_bytes_), server, true);
        QVERIFY2(info.state.find("(HTTP 404)") != std::string::npos, info.state.c_str());
    }

    void aLibraryWithoutEntryPointsIsRefused() {
        testing::LocalHttpServer server;
        const std::string bytes = testing::read_all(LIBREYOLO_NO_ENTRY_PLUGIN);
        publish(server, "rev-no-entry", bytes);
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_one("test-no-entry", "rev-no-entry", sha(bytes), server, true);
        QVERIFY2(info.state.find("no entry point") != std::string::npos, info.state.c_str());
        QCOMPARE(warnings.lines.size(), std::size_t(1));
    }

    void anAbiMismatchIsRefused() {
        const KernelPluginInfo info = load_in_mode("abi", "test-abi");
        QVERIFY2(info.state.find("plugin ABI 999, this engine speaks ABI 1") != std::string::npos, info.state.c_str());
        QCOMPARE(kernels::nms_slot().info().active, std::string("portable"));
    }

    void aFailingRegistrationIsRefused() {
        const KernelPluginInfo info = load_in_mode("register-fails", "test-register");
        QVERIFY2(info.state.find("its registration failed: no device it likes") != std::string::npos,
                 info.state.c_str());
    }

    void aBuildForAnotherTorchIsSkipped() {
        testing::LocalHttpServer server;
        publish(server, "rev-old");
        HubSettings s = settings(server, true);
        s.manifests = {manifest("test-old", "rev-old", sha(plugin_bytes_), "1.13.0")};
        const KernelPluginInfo info = load_hub_plugins(s).front();
        QVERIFY2(info.state == "skipped: built for torch 1.13.0, this is torch " + torch_here(), info.state.c_str());
        QCOMPARE(server.requests(), 0);
    }

    void aThrowingPredicateDeclines() {
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_in_mode("throwing-predicate", "test-predicate");
        QCOMPARE(info.state, std::string("loaded"));
        NmsFixture f;
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        const KernelSlotInfo slot = kernels::nms_slot().info();
        QCOMPARE(slot.active, std::string("portable"));
        QVERIFY2(slot.candidates.front().passed_over.find("predicate exploded") != std::string::npos,
                 slot.candidates.front().passed_over.c_str());
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        disable_test_providers();
    }

    void aFailingKernelDisablesItsPluginWithOneWarning() {
        const testing::WarningCapture warnings;
        const KernelPluginInfo info = load_in_mode("failing-kernel", "test-failing");
        QCOMPARE(info.state, std::string("loaded"));
        NmsFixture f;
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QVERIFY(torch::equal(f.via_slot(), f.reference()));
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        QVERIFY(warnings.lines.front().find("kernel exploded") != std::string::npos);
        bool reported = false;
        for (const KernelPluginInfo& p : kernel_plugins())
            if (p.provider == "test-failing")
                reported = p.state.starts_with("disabled: nms: test-greedy failed when run");
        QVERIFY(reported);
        QCOMPARE(kernels::nms_slot().info().active, std::string("portable"));
    }

private:
    fs::path dir(const std::string& name) const { return fs::path(dir_.path().toStdString()) / name; }

    static std::string sha(const std::string& bytes) { return sha256_hex(bytes); }

    void publish(testing::LocalHttpServer& server, const std::string& revision, const std::string& bytes = "") {
        published_[revision] = bytes.empty() ? plugin_bytes_ : bytes;
        server.put("/" + kRepo + "/resolve/" + revision + "/" + kFile, published_[revision]);
    }

    fs::path manifest(const std::string& provider, const std::string& revision, const std::string& sha256,
                      const std::string& torch = "") const {
        const fs::path path = dir("manifests") / (provider + ".json");
        testing::write_file(path, R"({"plugins": [{"provider": ")" + provider + R"(", "repo": ")" + kRepo +
                                      R"(", "revision": ")" + revision + R"(", "file": ")" + kFile +
                                      R"(", "sha256": ")" + sha256 + R"(", "build": {"torch": ")" +
                                      (torch.empty() ? torch_here() : torch) +
                                      R"(", "cuda": "none", "arch": "cpu"}}]})");
        return path;
    }

    HubSettings settings(const testing::LocalHttpServer& server, bool download) const {
        HubSettings s;
        s.cache = dir("cache");
        s.download = download;
        s.base_url = server.base_url();
        return s;
    }

    // Without libcurl (the GPU host's build) a published file is put in the cache instead, as a
    // download would have left it.
    KernelPluginInfo load_one(const std::string& provider, const std::string& revision, const std::string& sha256,
                              const testing::LocalHttpServer& server, bool download) const {
        if (download && !io::download_available()) {
            if (const auto bytes = published_.find(revision); bytes != published_.end())
                testing::write_file(cached_file(dir("cache"), kRepo, revision, kFile), bytes->second);
            download = false;
        }
        HubSettings s = settings(server, download);
        s.manifests = {manifest(provider, revision, sha256)};
        const std::vector<KernelPluginInfo> infos = load_hub_plugins(s);
        if (infos.size() != 1) throw std::runtime_error("expected one plugin entry");
        return infos.front();
    }

    KernelPluginInfo load_in_mode(const char* mode, const std::string& provider) {
        testing::LocalHttpServer server;
        const std::string revision = "rev-" + provider;
        publish(server, revision);
        qputenv("LIBREYOLO_TEST_PLUGIN_MODE", mode);
        const KernelPluginInfo info = load_one(provider, revision, sha(plugin_bytes_), server, true);
        qunsetenv("LIBREYOLO_TEST_PLUGIN_MODE");
        return info;
    }

    // Later cases start from the reference again.
    static void disable_test_providers() {
        for (const char* p : {"test-good", "test-good-again", "test-predicate", "test-in-tree"})
            for (kernels::SlotBase* slot : kernels::all_slots()) slot->disable_provider(p, "test over");
    }

    QTemporaryDir dir_;
    std::string plugin_bytes_;
    std::map<std::string, std::string> published_;  // by revision
};

QTEST_APPLESS_MAIN(TestKernelHub)
#include "test_kernel_hub.moc"
