// The kernel registry on any machine: selection order (latest registration first, predicates,
// the reference last), a predicate that throws (declines, one warning), an implementation that
// fails when run (disabled, one warning, fall back), a slot without reference, the environment
// overrides (LIBREYOLO_KERNELS, its legacy alias, LIBREYOLO_HUB_KERNELS), and predict going
// through the nms slot; the fake_quant_fp8 reference (E4M3 grid, clamping, per-tensor and
// per-channel scales, straight-through gradient) and its slot.
#include <QtTest/QtTest>

#include "support/test_helpers.h"

#include "kernels/fake_quant_slot.h"
#include "kernels/nms.h"
#include "kernels/nms_slot.h"
#include "kernels/slot.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "quant/fake_quant.h"

using namespace libreyolo;

namespace {

void set_environment(const char* kernels, const char* legacy, const char* hub) {
    for (auto [name, value] : {std::pair{"LIBREYOLO_KERNELS", kernels}, std::pair{"LIBREYOLO_QUANT_KERNELS", legacy},
                               std::pair{"LIBREYOLO_HUB_KERNELS", hub}}) {
        if (value)
            qputenv(name, value);
        else
            qunsetenv(name);
    }
    reload_kernel_environment();
}

const KernelCandidate& candidate(const KernelSlotInfo& info, const std::string& name) {
    for (const auto& c : info.candidates)
        if (c.name == name) return c;
    throw std::runtime_error("no candidate " + name);
}

}  // namespace

class TestKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() { set_environment(nullptr, nullptr, nullptr); }

    void theLatestAcceptingRegistrationWinsElseTheReference() {
        kernels::Slot<int(int)> slot("test.order", "x -> x + k", [](int x) { return x + 1; });
        slot.register_impl(
            "positive", "acme", [](int x) { return x + 100; }, [](int x) { return x > 0; });
        slot.register_impl(
            "large", "acme", [](int x) { return x + 200; }, [](int x) { return x > 10; });
        QCOMPARE(slot(20), 220);
        QCOMPARE(slot(5), 105);
        QCOMPARE(slot.info().active, std::string("positive"));
        QCOMPARE(slot(-1), 0);
        const KernelSlotInfo info = slot.info();
        QCOMPARE(info.active, std::string("portable"));
        QCOMPARE(info.candidates.size(), std::size_t(3));
        QCOMPARE(info.candidates.front().name, std::string("large"));
        QCOMPARE(candidate(info, "positive").passed_over, std::string("its predicate declined the last call"));
        QCOMPARE(info.candidates.back().provider, std::string("reference"));
        QVERIFY(info.candidates.back().passed_over.empty());
        // The report lists every slot that exists.
        bool listed = false;
        for (const auto& s : kernel_report()) listed = listed || s.slot == "test.order";
        QVERIFY(listed);
    }

    void aThrowingPredicateDeclinesAndWarnsOnce() {
        kernels::Slot<int(int)> slot("test.predicate", "x", [](int x) { return x; });
        slot.register_impl(
            "fragile", "acme", [](int x) { return -x; }, [](int) -> bool { throw std::runtime_error("cannot tell"); });
        testing::WarningCapture warnings;
        QCOMPARE(slot(3), 3);
        QCOMPARE(slot(4), 4);
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        QVERIFY(warnings.mentions("cannot tell"));
        QVERIFY(candidate(slot.info(), "fragile").passed_over.find("threw") != std::string::npos);
    }

    void anImplementationThatFailsIsDisabledAndTheCallFallsBack() {
        int attempts = 0;
        kernels::Slot<int(int)> slot("test.failing", "x", [](int x) { return x * 2; });
        slot.register_impl("broken", "acme", [&](int) -> int {
            ++attempts;
            throw std::runtime_error("illegal memory access");
        });
        testing::WarningCapture warnings;
        QCOMPARE(slot(21), 42);
        QCOMPARE(slot(5), 10);
        QCOMPARE(attempts, 1);
        QCOMPARE(warnings.lines.size(), std::size_t(1));
        const KernelCandidate& broken = candidate(slot.info(), "broken");
        QVERIFY(!broken.available);
        QVERIFY(broken.passed_over.find("illegal memory access") != std::string::npos);
    }

    void aSlotWithoutReferenceSaysUnavailable() {
        kernels::Slot<int(int)> slot("test.attention", "no portable path here", {});
        QVERIFY(!slot.has_implementation());
        QCOMPARE(slot.info().active, std::string("unavailable"));
        QVERIFY_THROWS_EXCEPTION(NotSupported, slot(1));
        slot.register_impl(
            "fused", "acme", [](int x) { return x; }, [](int x) { return x > 0; });
        QCOMPARE(slot(7), 7);
        QVERIFY_THROWS_EXCEPTION(NotSupported, slot(-7));
    }

    void theEnvironmentOverridesTheChoice() {
        kernels::Slot<int(int)> slot("test.env", "x", [](int) { return 0; });
        slot.register_impl("acme-fast", "acme", [](int) { return 1; });
        slot.register_impl("hub-fast", "hubco", [](int) { return 2; });
        QCOMPARE(slot(0), 2);
        set_environment("reference", nullptr, nullptr);
        QCOMPARE(slot(0), 0);
        QVERIFY(candidate(slot.info(), "hub-fast").passed_over.find("LIBREYOLO_KERNELS=reference") !=
                std::string::npos);
        QVERIFY(!kernel_policy().hub_kernels);  // references only: nothing accelerated is loaded
        set_environment("off", nullptr, nullptr);
        QCOMPARE(slot(0), 0);
        set_environment("acme", nullptr, nullptr);
        QCOMPARE(slot(0), 1);
        QCOMPARE(slot.info().active, std::string("acme-fast"));
        set_environment(nullptr, "off", nullptr);  // the legacy name, when the new one is unset
        QCOMPARE(slot(0), 0);
        QVERIFY(kernel_policy().override_in_effect.find("LIBREYOLO_QUANT_KERNELS") != std::string::npos);
        set_environment("acme", "off", nullptr);  // the new name wins
        QCOMPARE(slot(0), 1);
        set_environment(nullptr, nullptr, "0");
        QVERIFY(!kernel_policy().hub_kernels);
        QCOMPARE(kernel_policy().override_in_effect, std::string("none"));
        set_environment(nullptr, nullptr, nullptr);
        QVERIFY(kernel_policy().hub_kernels);
    }

    // E4M3 has 3 mantissa bits: 1, 1.125, 2.25, 3.5 and 448 are on its grid; 1.0625 lies halfway
    // between 1 and 1.125 and rounds to even (1); beyond ±448 values clamp.
    void fakeQuantFp8RoundsToTheE4M3Grid() {
        const torch::Tensor x = torch::tensor({1.0f, 1.125f, -2.25f, 3.5f, 448.0f, 1.0625f, 1000.0f, -1000.0f, 0.0f});
        const torch::Tensor want = torch::tensor({1.0f, 1.125f, -2.25f, 3.5f, 448.0f, 1.0f, 448.0f, -448.0f, 0.0f});
        QVERIFY(torch::equal(kernels::fake_quant_fp8_reference(x, torch::tensor(1.0f)), want));
        // Scale 4: 1000 / 4 = 250 rounds to 256 (spacing 16 between 128 and 256), times 4.
        QCOMPARE(kernels::fake_quant_fp8_reference(torch::tensor({1000.0f}), torch::tensor(4.0f)).item<float>(),
                 1024.0f);
        // A zero scale does not divide by zero.
        QVERIFY(torch::isfinite(kernels::fake_quant_fp8_reference(x, torch::tensor(0.0f))).all().item<bool>());
    }

    void fakeQuantFp8TakesPerChannelScalesAndPassesGradientsStraight() {
        const torch::Tensor x = torch::tensor({{1.0f, 2.0f, 3.0f}, {1.0f, 2.0f, 3.0f}}).requires_grad_(true);
        const torch::Tensor scale = torch::tensor({{1.0f}, {0.25f}});  // one per row
        const torch::Tensor y = quant::fake_quant_fp8(x, scale);
        QVERIFY(torch::equal(y[0], x[0].detach()));
        // Row 1: 3 / 0.25 = 12 is on the grid, so every value survives there too.
        QVERIFY(torch::equal(y[1], x[1].detach()));
        const torch::Tensor off_grid = quant::fake_quant_fp8(torch::tensor({{1.0625f}}), torch::tensor({{1.0f}}));
        QCOMPARE(off_grid.item<float>(), 1.0f);
        (y * torch::tensor({{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}})).sum().backward();
        QVERIFY(torch::equal(x.grad(), torch::tensor({{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}})));
        bool listed = false;
        for (const auto& slot : kernel_report())
            listed = listed || (slot.slot == "fake_quant_fp8" && slot.active == "portable");
        QVERIFY(listed);
    }

    // Last: it registers into the process's nms slot.
    void predictionGoesThroughTheNmsSlot() {
        int calls = 0;
        kernels::nms_slot().register_impl(
            "counting", "test",
            [&](const torch::Tensor& b, const torch::Tensor& s, const torch::Tensor& c, double iou) {
                ++calls;
                return kernels::nms_keep(b, s, c, iou);
            });
        Model model = Model::create("yolo9-t", 80, "cpu");
        std::vector<unsigned char> pixels(64 * 64 * 3, 128);
        PredictOptions o;
        o.imgsz = 64;
        o.conf = 0.0f;  // random weights: keep candidates so that NMS has work
        model.predict({ImageView{pixels.data(), 64, 64, 64 * 3, PixelFormat::RGB8}}, o);
        QCOMPARE(calls, 1);
        bool listed = false;
        for (const auto& s : kernel_report())
            if (s.slot == "nms") listed = s.active == "counting";
        QVERIFY(listed);
        set_environment("reference", nullptr, nullptr);
        model.predict({ImageView{pixels.data(), 64, 64, 64 * 3, PixelFormat::RGB8}}, o);
        QCOMPARE(calls, 1);
        set_environment(nullptr, nullptr, nullptr);
    }
};

QTEST_APPLESS_MAIN(TestKernels)
#include "test_kernels.moc"
