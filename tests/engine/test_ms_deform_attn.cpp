// The ms_deform_attn slot on any machine: the reference (grid_sample formulation) against a
// direct per-element loop over bilinear samples with zero padding, RT-DETRv2's discrete sampling
// and per-level point counts, shape errors that name the tensors, and which calls an accelerated
// implementation may take (eager, the classic layout) versus the reference.
#include <QtTest/QtTest>

#include "support/kernel_report.h"
#include "support/test_helpers.h"

#include "kernels/deform/ms_deform_attn.h"
#include "kernels/manual_math.h"

using namespace libreyolo;
using kernels::DeformableSampling;

namespace {

// out[n, q, m·D + d] = Σ_l Σ_p w · sample_l(x · W − 0.5, y · H − 0.5), written out element by element.
torch::Tensor naive(const torch::Tensor& value, const torch::Tensor& loc, const torch::Tensor& weights,
                    const DeformableSampling& s) {
    const auto v = value.accessor<float, 4>();
    const auto xy = loc.accessor<float, 5>();
    const auto a = weights.accessor<float, 4>();
    const int64_t n_ = value.size(0), heads = value.size(2), channels = value.size(3), queries = loc.size(1);
    torch::Tensor out = torch::zeros({n_, queries, heads * channels});
    auto o = out.accessor<float, 3>();
    for (int64_t n = 0; n < n_; ++n)
        for (int64_t q = 0; q < queries; ++q)
            for (int64_t m = 0; m < heads; ++m)
                for (int64_t d = 0; d < channels; ++d) {
                    double sum = 0;
                    int64_t start = 0, point = 0;
                    for (std::size_t l = 0; l < s.spatial_shapes.size(); ++l) {
                        const auto [h, w] = s.spatial_shapes[l];
                        const auto at = [&](int64_t y, int64_t x) -> double {
                            if (y < 0 || y >= h || x < 0 || x >= w) return 0;
                            return v[n][start + y * w + x][m][d];
                        };
                        for (int64_t p = 0; p < s.points_per_level[l]; ++p, ++point) {
                            const double lx = xy[n][q][m][point][0], ly = xy[n][q][m][point][1];
                            double sample;
                            if (s.discrete) {
                                const int64_t x = std::clamp<int64_t>(int64_t(lx * w + 0.5), 0, h - 1);
                                const int64_t y = std::clamp<int64_t>(int64_t(ly * h + 0.5), 0, h - 1);
                                sample = at(y, x);
                            } else {
                                const double px = lx * w - 0.5, py = ly * h - 0.5;
                                const int64_t x0 = int64_t(std::floor(px)), y0 = int64_t(std::floor(py));
                                const double fx = px - x0, fy = py - y0;
                                sample = (1 - fy) * (1 - fx) * at(y0, x0) + (1 - fy) * fx * at(y0, x0 + 1) +
                                         fy * (1 - fx) * at(y0 + 1, x0) + fy * fx * at(y0 + 1, x0 + 1);
                            }
                            sum += a[n][q][m][point] * sample;
                        }
                        start += h * w;
                    }
                    o[n][q][m * channels + d] = static_cast<float>(sum);
                }
    return out;
}

struct Inputs {
    torch::Tensor value, locations, weights;
    DeformableSampling sampling;
};

Inputs random_inputs(std::vector<std::array<int64_t, 2>> shapes, std::vector<int64_t> points, bool discrete = false) {
    Inputs in;
    in.sampling = {std::move(shapes), std::move(points), discrete};
    int64_t cells = 0, total = 0;
    for (const auto& [h, w] : in.sampling.spatial_shapes) cells += h * w;
    for (const int64_t p : in.sampling.points_per_level) total += p;
    in.value = torch::randn({2, cells, 3, 4});
    // Some points outside the map (zero padding) and some on its edge cells.
    in.locations = torch::rand({2, 5, 3, total, 2}) * 1.2 - 0.1;
    in.weights = torch::rand({2, 5, 3, total});
    return in;
}

}  // namespace

class TestMsDeformAttn : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void theReferenceIsBilinearSamplingWithZeroPadding() {
        torch::manual_seed(0);
        const Inputs in = random_inputs({{6, 5}, {3, 3}, {2, 1}}, {4, 4, 4});
        const torch::Tensor got = kernels::ms_deform_attn_reference(in.value, in.locations, in.weights, in.sampling);
        QCOMPARE(got.sizes().vec(), (std::vector<int64_t>{2, 5, 12}));
        QVERIFY(torch::allclose(got, naive(in.value, in.locations, in.weights, in.sampling), 1e-5, 1e-5));
        // Through the slot, on the CPU: the reference.
        QVERIFY(torch::equal(kernels::ms_deform_attn_slot()(in.value, in.locations, in.weights, in.sampling), got));
        QCOMPARE(testing::active_kernel("ms_deform_attn"), std::string("portable"));
    }

    void discreteSamplingAndPerLevelPointCountsAsRTDETRv2() {
        torch::manual_seed(1);
        for (const bool discrete : {false, true}) {
            const Inputs in = random_inputs({{4, 4}, {2, 2}}, {3, 1}, discrete);
            QVERIFY(!kernels::ms_deform_attn_layout_is_classic(in.sampling));
            const torch::Tensor got =
                kernels::ms_deform_attn_reference(in.value, in.locations, in.weights, in.sampling);
            QVERIFY2(torch::allclose(got, naive(in.value, in.locations, in.weights, in.sampling), 1e-5, 1e-5),
                     discrete ? "discrete" : "bilinear");
        }
    }

    void gradientsReachValueLocationsAndWeights() {
        torch::manual_seed(2);
        Inputs in = random_inputs({{5, 5}, {3, 2}}, {2, 2});
        in.value.requires_grad_(true);
        in.locations = in.locations.clamp(0.05, 0.95).requires_grad_(true);
        in.weights.requires_grad_(true);
        kernels::ms_deform_attn_reference(in.value, in.locations, in.weights, in.sampling).square().sum().backward();
        for (const torch::Tensor& t : {in.value, in.locations, in.weights})
            QVERIFY(t.grad().defined() && t.grad().abs().sum().item<double>() > 0);
    }

    void onlyEagerClassicCallsMayTakeAnAcceleratedKernel() {
        DeformableSampling classic{{{8, 8}, {4, 4}}, {4, 4}, false};
        QVERIFY(kernels::ms_deform_attn_layout_is_classic(classic));
        DeformableSampling varying = classic;
        varying.points_per_level = {4, 2};
        QVERIFY(!kernels::ms_deform_attn_layout_is_classic(varying));
        DeformableSampling discrete = classic;
        discrete.discrete = true;
        QVERIFY(!kernels::ms_deform_attn_layout_is_classic(discrete));
        {
            const kernels::ManualAttentionScope exporting;  // what traces and exports hold
            QVERIFY(!kernels::ms_deform_attn_layout_is_classic(classic));
        }
        QVERIFY(kernels::ms_deform_attn_layout_is_classic(classic));
    }

    void shapeErrorsNameTheTensors() {
        const Inputs in = random_inputs({{4, 4}}, {2});
        DeformableSampling wrong = in.sampling;
        wrong.spatial_shapes = {{4, 5}};
        QVERIFY(QString::fromStdString(testing::error_of([&] {
                    kernels::ms_deform_attn_reference(in.value, in.locations, in.weights, wrong);
                })).contains("value holds 16 cells, the levels 20"));
        QVERIFY(QString::fromStdString(testing::error_of([&] {
                    kernels::ms_deform_attn_reference(in.value, in.locations, in.weights.narrow(3, 0, 1), in.sampling);
                })).contains("attention_weights must be"));
    }
};

QTEST_APPLESS_MAIN(TestMsDeformAttn)
#include "test_ms_deform_attn.moc"
