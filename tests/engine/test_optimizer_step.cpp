// The trainer's multi-tensor optimizer step and EMA against the one-tensor-at-a-time versions they
// replace: ForeachSGD equals torch::optim::SGD bit for bit over several steps (three parameter
// groups with and without weight decay, Nesterov momentum, a parameter without a gradient, the
// learning rate and momentum changed between steps), and a checkpoint of either loads into the
// other; ema_blend equals the per-tensor mul_/add_.
#include <QtTest/QtTest>

#include <sstream>

#include "train/ema_blend.h"
#include "train/foreach_sgd.h"

using libreyolo::training::ForeachSGD;

namespace {

std::vector<torch::Tensor> make_params(int seed) {
    torch::manual_seed(seed);
    return {torch::randn({4, 3}).requires_grad_(true), torch::randn({7}).requires_grad_(true),
            torch::randn({2, 2, 3}).requires_grad_(true), torch::randn({5}).requires_grad_(true)};
}

std::vector<torch::Tensor> clones(const std::vector<torch::Tensor>& params) {
    std::vector<torch::Tensor> out;
    for (const auto& p : params) out.push_back(p.detach().clone().requires_grad_(true));
    return out;
}

template <typename Optim>
std::unique_ptr<Optim> grouped(const std::vector<torch::Tensor>& p) {
    const auto options = torch::optim::SGDOptions(0.01).momentum(0.9).nesterov(true);
    std::vector<torch::optim::OptimizerParamGroup> groups;
    groups.emplace_back(std::vector<torch::Tensor>{p[0]},
                        std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(0)));
    groups.emplace_back(
        std::vector<torch::Tensor>{p[1], p[2]},
        std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(5e-4)));
    groups.emplace_back(std::vector<torch::Tensor>{p[3]},
                        std::make_unique<torch::optim::SGDOptions>(torch::optim::SGDOptions(options).weight_decay(0)));
    return std::make_unique<Optim>(groups, options);
}

// A loss that leaves p[3] without a gradient on odd steps.
void step(torch::optim::Optimizer& opt, const std::vector<torch::Tensor>& p, int i) {
    for (auto& g : opt.param_groups()) {
        g.options().set_lr(0.01 * (1 + i));
        static_cast<torch::optim::SGDOptions&>(g.options()).momentum(0.8 + 0.01 * i);
    }
    opt.zero_grad();
    torch::Tensor loss = p[0].sin().sum() + (p[1] * p[1]).sum() + p[2].exp().mean();
    if (i % 2 == 0) loss = loss + p[3].pow(3).sum();
    loss.backward();
    opt.step();
}

bool all_equal(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!torch::equal(a[i], b[i])) return false;
    return true;
}

}  // namespace

class TestOptimizerStep : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void foreachSgdEqualsLibtorchSgd() {
        const auto reference = make_params(1);
        const auto foreach = clones(reference);
        auto reference_opt = grouped<torch::optim::SGD>(reference);
        auto foreach_opt = grouped<ForeachSGD>(foreach);
        for (int i = 0; i < 5; ++i) {
            step(*reference_opt, reference, i);
            step(*foreach_opt, foreach, i);
            QVERIFY2(all_equal(reference, foreach), qPrintable(QString("step %1").arg(i)));
        }
        QCOMPARE(foreach_opt->state().size(), reference_opt->state().size());
    }

    void checkpointsAreInterchangeable() {
        const auto reference = make_params(2);
        auto reference_opt = grouped<torch::optim::SGD>(reference);
        for (int i = 0; i < 2; ++i) step(*reference_opt, reference, i);
        std::stringstream saved;
        torch::save(*reference_opt, saved);

        // Resumed from the reference's checkpoint, the foreach optimizer continues as the reference.
        const auto foreach = clones(reference);
        auto foreach_opt = grouped<ForeachSGD>(foreach);
        torch::load(*foreach_opt, saved);
        for (int i = 2; i < 4; ++i) {
            step(*reference_opt, reference, i);
            step(*foreach_opt, foreach, i);
        }
        QVERIFY(all_equal(reference, foreach));
    }

    void emaBlendEqualsThePerTensorUpdate() {
        torch::manual_seed(3);
        std::vector<torch::Tensor> ema = {torch::randn({3, 3}), torch::randn({8})},
                                   model = {torch::randn({3, 3}), torch::randn({8})};
        std::vector<torch::Tensor> expected;
        for (std::size_t i = 0; i < ema.size(); ++i) expected.push_back(ema[i].clone().mul_(0.97).add_(model[i], 0.03));
        libreyolo::training::ema_blend(ema, model, 0.97);
        QVERIFY(all_equal(ema, expected));
    }
};

QTEST_APPLESS_MAIN(TestOptimizerStep)
#include "test_optimizer_step.moc"
