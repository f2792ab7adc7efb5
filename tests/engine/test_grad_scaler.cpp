// The GradScaler on the CPU (the same ATen kernels exist for both devices): a clean step equals
// the unscaled step, a step with an inf or NaN gradient is skipped and halves the scale, clean
// steps grow it after growth_interval, and its state survives a checkpoint round trip.
#include <QtTest/QtTest>

#include <nlohmann/json.hpp>

#include "train/grad_scaler.h"

using libreyolo::training::GradScaler;
using libreyolo::training::GradScalerOptions;

namespace {

torch::Tensor loss_of(const torch::Tensor& w) {
    return (w * torch::arange(1, 5, torch::kFloat32)).pow(2).sum();
}

}  // namespace

class TestGradScaler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void cleanStepEqualsTheUnscaledStep() {
        torch::Tensor plain = torch::tensor({0.5f, -1.0f, 2.0f, 0.25f}).requires_grad_(true);
        torch::Tensor scaled = plain.detach().clone().requires_grad_(true);
        torch::optim::SGD plain_opt({plain}, torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
        torch::optim::SGD scaled_opt({scaled}, torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true));
        GradScaler scaler(torch::kCPU);
        for (int i = 0; i < 3; ++i) {
            plain_opt.zero_grad();
            loss_of(plain).backward();
            plain_opt.step();
            scaled_opt.zero_grad();
            scaler.scale(loss_of(scaled)).backward();
            QVERIFY(scaler.step(scaled_opt));
            scaler.update();
        }
        QVERIFY(torch::allclose(plain, scaled, 1e-6, 1e-7));
        QCOMPARE(scaler.current_scale(), 65536.0);
        QCOMPARE(scaler.skipped_steps(), int64_t{0});
    }

    void nonFiniteGradientSkipsTheStepAndHalvesTheScale() {
        for (float bad : {std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()}) {
            torch::Tensor w = torch::ones({4}).requires_grad_(true);
            torch::optim::SGD opt({w}, torch::optim::SGDOptions(0.1));
            GradScaler scaler(torch::kCPU);
            scaler.scale((w * torch::tensor({1.0f, bad, 1.0f, 1.0f})).sum()).backward();
            QVERIFY(!scaler.step(opt));
            scaler.update();
            QVERIFY(torch::equal(w.detach(), torch::ones({4})));
            QCOMPARE(scaler.current_scale(), 32768.0);
            QCOMPARE(scaler.skipped_steps(), int64_t{1});
        }
    }

    void overflowOfTheScaledLossIsCaughtLikeABadGradient() {
        // A gradient of 1e34 is finite, 1e34 · 65536 is not in float32: what float16 does at a
        // much smaller size.
        torch::Tensor w = torch::ones({1}).requires_grad_(true);
        torch::optim::SGD opt({w}, torch::optim::SGDOptions(0.1));
        GradScaler scaler(torch::kCPU);
        scaler.scale((w * 1e34f).sum()).backward();
        QVERIFY(!scaler.step(opt));
        QVERIFY(torch::equal(w.detach(), torch::ones({1})));
    }

    void scaleGrowsAfterTheGrowthInterval() {
        GradScalerOptions o;
        o.growth_interval = 3;
        torch::Tensor w = torch::ones({4}).requires_grad_(true);
        torch::optim::SGD opt({w}, torch::optim::SGDOptions(0.001));
        GradScaler scaler(torch::kCPU, o);
        std::vector<double> scales;
        for (int i = 0; i < 6; ++i) {
            opt.zero_grad();
            scaler.scale(loss_of(w)).backward();
            scaler.step(opt);
            scaler.update();
            scales.push_back(scaler.current_scale());
        }
        QCOMPARE(scales, (std::vector<double>{65536, 65536, 131072, 131072, 131072, 262144}));
    }

    void stateRoundTrips() {
        GradScalerOptions o;
        o.growth_interval = 5;
        torch::Tensor w = torch::ones({4}).requires_grad_(true);
        torch::optim::SGD opt({w}, torch::optim::SGDOptions(0.001));
        GradScaler first(torch::kCPU, o);
        for (int i = 0; i < 2; ++i) {
            opt.zero_grad();
            first.scale(loss_of(w)).backward();
            first.step(opt);
            first.update();
        }
        GradScaler second(torch::kCPU, o);
        second.load_state(nlohmann::json::parse(first.state().dump()));
        QCOMPARE(second.state(), first.state());
        QCOMPARE(second.state().at("growth_tracker").get<int>(), 2);
    }
};

QTEST_APPLESS_MAIN(TestGradScaler)
#include "test_grad_scaler.moc"
