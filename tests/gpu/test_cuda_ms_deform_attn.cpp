// The CUDA ms_deform_attn against its reference on a real GPU (the admission rule): the
// forward within 1e-5 relative and the gradients of value, sampling locations and attention
// weights within 1e-4 relative, at RT-DETR's layout (8 heads of 32 channels, three levels, four
// points) and at an odd one; and the calls it must leave to the reference (float64, RT-DETRv2's
// discrete sampling, per-level point counts).
#include <QtTest/QtTest>

#include "support/kernel_report.h"

#include "kernels/deform/ms_deform_attn.h"
#include "libreyolo/device.h"

using namespace libreyolo;
using kernels::DeformableSampling;

namespace {

struct Case {
    const char* what;
    int64_t batch, queries, heads, channels;
    std::vector<std::array<int64_t, 2>> shapes;
    int64_t points;
};

double relative_error(const torch::Tensor& got, const torch::Tensor& want) {
    return ((got - want).abs().max() / want.abs().max().clamp_min(1e-12)).item<double>();
}

}  // namespace

class TestCudaMsDeformAttn : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
    }

    void theCudaKernelMatchesTheReferenceForwardAndBackward() {
        torch::manual_seed(0);
        const std::vector<Case> cases = {
            {"RT-DETR decoder layout", 2, 300, 8, 32, {{40, 40}, {20, 20}, {10, 10}}, 4},
            {"odd sizes", 3, 17, 3, 5, {{7, 9}, {3, 2}, {1, 1}, {5, 4}}, 3},
        };
        for (const Case& c : cases) {
            DeformableSampling sampling{c.shapes, std::vector<int64_t>(c.shapes.size(), c.points), false};
            int64_t cells = 0;
            for (const auto& [h, w] : c.shapes) cells += h * w;
            const int64_t total = c.points * static_cast<int64_t>(c.shapes.size());
            const auto cuda = torch::TensorOptions().device(torch::kCUDA);
            const torch::Tensor value = torch::randn({c.batch, cells, c.heads, c.channels}, cuda);
            const torch::Tensor locations = torch::rand({c.batch, c.queries, c.heads, total, 2}, cuda) * 1.1 - 0.05;
            const torch::Tensor weights = torch::softmax(torch::randn({c.batch, c.queries, c.heads, total}, cuda), -1);
            const torch::Tensor upstream = torch::randn({c.batch, c.queries, c.heads * c.channels}, cuda);

            auto run = [&](bool accelerated) {
                if (!accelerated) qputenv("LIBREYOLO_KERNELS", "reference");
                reload_kernel_environment();
                std::vector<torch::Tensor> leaves = {value.clone().requires_grad_(true),
                                                     locations.clone().requires_grad_(true),
                                                     weights.clone().requires_grad_(true)};
                const torch::Tensor out = kernels::ms_deform_attn_slot()(leaves[0], leaves[1], leaves[2], sampling);
                const std::string used = testing::active_kernel("ms_deform_attn");
                out.backward(upstream);
                qunsetenv("LIBREYOLO_KERNELS");
                reload_kernel_environment();
                return std::tuple{out.detach(), leaves, used};
            };
            const auto [fast, fast_leaves, fast_used] = run(true);
            const auto [ref, ref_leaves, ref_used] = run(false);
            QCOMPARE(fast_used, std::string("cuda"));
            QCOMPARE(ref_used, std::string("portable"));
            const double forward = relative_error(fast, ref);
            qInfo("%s: forward %.2e, grad value %.2e, locations %.2e, weights %.2e", c.what, forward,
                  relative_error(fast_leaves[0].grad(), ref_leaves[0].grad()),
                  relative_error(fast_leaves[1].grad(), ref_leaves[1].grad()),
                  relative_error(fast_leaves[2].grad(), ref_leaves[2].grad()));
            QVERIFY2(forward < 1e-5, c.what);
            for (int k = 0; k < 3; ++k)
                QVERIFY2(relative_error(fast_leaves[k].grad(), ref_leaves[k].grad()) < 1e-4, c.what);
        }
    }

    void otherCallsTakeTheReference() {
        torch::manual_seed(1);
        const auto cuda = torch::TensorOptions().device(torch::kCUDA);
        const torch::Tensor value = torch::randn({1, 20, 2, 4}, cuda);
        const torch::Tensor locations = torch::rand({1, 6, 2, 4, 2}, cuda), weights = torch::rand({1, 6, 2, 4}, cuda);
        const DeformableSampling classic{{{4, 4}, {2, 2}}, {2, 2}, false};
        kernels::ms_deform_attn_slot()(value, locations, weights, classic);
        QCOMPARE(testing::active_kernel("ms_deform_attn"), std::string("cuda"));
        kernels::ms_deform_attn_slot()(value.to(torch::kFloat64), locations.to(torch::kFloat64),
                                       weights.to(torch::kFloat64), classic);
        QCOMPARE(testing::active_kernel("ms_deform_attn"), std::string("portable"));
        kernels::ms_deform_attn_slot()(value, locations, weights,
                                       DeformableSampling{classic.spatial_shapes, {2, 2}, true});
        QCOMPARE(testing::active_kernel("ms_deform_attn"), std::string("portable"));
        kernels::ms_deform_attn_slot()(value, locations, weights,
                                       DeformableSampling{classic.spatial_shapes, {3, 1}, false});
        QCOMPARE(testing::active_kernel("ms_deform_attn"), std::string("portable"));
    }
};

QTEST_APPLESS_MAIN(TestCudaMsDeformAttn)
#include "test_cuda_ms_deform_attn.moc"
