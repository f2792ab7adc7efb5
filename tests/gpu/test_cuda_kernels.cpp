// The CUDA kernels of the registry against their references on the GPU (spec 003's admission
// rule): letterbox bit-identical to its reference; spp_max_pool and avg_pool_2x2 bit-identical to
// theirs (LibTorch's pools); decode_topk keeping the reference's candidates
// exactly (boxes within float32 rounding), also when replayed from a CUDA graph; fake_quant_fp8's forward bit-identical
// to the reference (per tensor, per channel, per activation channel; values past ±448·s, subnormal, zero, NaN) and its
// gradient the straight-through estimator's within 1e-6; the in-tree CUDA NMS plugin, loaded through its manifest,
// keeping the same indices as the portable NMS on fixtures from 1 to 30,000 boxes (ties, degenerate boxes, 1 and 80
// classes, both sides of the 1,000-box split), and predict on a CUDA model going through it with the same detections as
// the portable NMS; the fused attention's eager inference forward under autocast, which keeps its float16 weights
// across calls, giving what autocast's own casts give until a weight is written in place or replaced, and a CUDA graph
// captured after those copies exist still casting inside the graph (it follows the weights).
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAGuard.h>
#include <QtTest/QtTest>

#include <limits>
#include <utility>

#include "support/kernel_report.h"

#include "support/patterned_image.h"

#include "core/autocast.h"
#include "kernels/decode_topk_slot.h"
#include "kernels/fake_quant_slot.h"
#include "kernels/letterbox_slot.h"
#include "kernels/nms.h"
#include "kernels/nms_slot.h"
#include "kernels/pool_slots.h"
#include "libreyolo/device.h"
#include "libreyolo/image.h"
#include "libreyolo/kernels.h"
#include "libreyolo/model.h"
#include "nn/multihead_attention.h"
#include "predict/candidates.h"
#include "quant/fake_quant.h"

using namespace libreyolo;

namespace {

// Values spread over the E4M3 range and past it for a scale of about 1/64.
torch::Tensor spread(std::vector<std::int64_t> shape) {
    torch::Tensor x = torch::randn(shape, torch::kCUDA) * 4;
    x.view(-1).slice(0, 0, 16).copy_(torch::tensor({0.0f, -0.0f, 1e-6f, -3e-5f, 7.0f, -7.0f, 1e3f, -1e3f, 6.9f, 2.5e-4f,
                                                    1e-30f, 448.0f / 64, 449.0f / 64, 3.0f, -100.0f, 0.5f},
                                                   torch::kCUDA));
    return x;
}

struct NmsCase {
    std::int64_t n, classes;
    double iou;
};

}  // namespace

class TestCudaKernels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init() {
        if (!cuda_available()) QSKIP("no usable CUDA device");
    }

    // The fused path's preprocessing: the CUDA letterbox gives the reference's values bit for bit
    // (its float32 operations in the same order, one rounding each), letterboxed and stretched,
    // up- and downscaled, in every canvas dtype and layout, for a batch whose rows sit in a wider
    // buffer (a crop), and the reference computed on the CPU agrees too.
    void letterboxCudaMatchesTheReferenceExactly() {
        torch::manual_seed(0);
        struct Case {
            int h, w, input;
            bool stretch;
        };
        for (const Case c : {Case{480, 640, 640, false}, Case{720, 1280, 320, true}, Case{37, 53, 320, false},
                             Case{1, 5, 64, false}, Case{640, 480, 640, false}})
            for (const auto dtype : {torch::kFloat32, torch::kFloat16, torch::kBFloat16})
                for (const bool channels_last : {true, false}) {
                    const torch::Tensor wide =
                        torch::randint(0, 256, {2, c.h, c.w + 7, 3}, torch::dtype(torch::kUInt8).device(torch::kCUDA));
                    const torch::Tensor pixels = wide.slice(2, 0, c.w).permute({0, 3, 1, 2});
                    const kernels::InputCanvas canvas =
                        kernels::input_canvas(c.h, c.w, c.input, c.input, c.stretch, dtype, channels_last);
                    const torch::Tensor got = kernels::letterbox_slot()(pixels, canvas);
                    const QString what = QString("%1x%2 -> %3 %4 %5")
                                             .arg(c.h)
                                             .arg(c.w)
                                             .arg(c.input)
                                             .arg(c10::toString(dtype))
                                             .arg(channels_last ? "NHWC" : "NCHW");
                    QVERIFY2(testing::active_kernel("letterbox") == "cuda", qPrintable(what));
                    QCOMPARE(got.is_contiguous(channels_last ? torch::MemoryFormat::ChannelsLast
                                                             : torch::MemoryFormat::Contiguous),
                             true);
                    QVERIFY2(torch::equal(got, kernels::letterbox_reference(pixels, canvas)), qPrintable(what));
                    QVERIFY2(torch::equal(got.cpu(), kernels::letterbox_reference(pixels.cpu(), canvas)),
                             qPrintable(what + " (reference on the CPU)"));
                }
    }

    // YOLOv9's fused pools: SPPELAN's three cascaded max pools in one kernel and the 2x2 smoothing
    // give LibTorch's values bit for bit, in float32, float16 and bfloat16, on maps from 1x1 to
    // 40x40 (the 13x13 window clipped on every side), with NaN and -inf among the values; the
    // smoothing also on a channel slice of a wider map (ADown's halves' producer).
    void poolCudaKernelsMatchTheirReferencesExactly() {
        torch::manual_seed(0);
        for (const auto dtype : {torch::kFloat32, torch::kFloat16, torch::kBFloat16})
            for (const auto& [h, w] : {std::pair{20, 20}, std::pair{1, 1}, std::pair{7, 13}, std::pair{40, 33}}) {
                const int64_t c = 24;
                const QString what = QString("%1 %2x%3").arg(c10::toString(dtype)).arg(h).arg(w);
                const auto options = torch::TensorOptions().device(torch::kCUDA).dtype(dtype);
                torch::Tensor buffer =
                    torch::empty({2, 4 * c, h, w}, options.memory_format(torch::MemoryFormat::ChannelsLast));
                torch::Tensor first = torch::randn({2, c, h, w}, options) * 3;
                first.view(-1)[5] = std::numeric_limits<float>::quiet_NaN();
                first.view(-1)[17] = -std::numeric_limits<float>::infinity();
                buffer.slice(1, 0, c).copy_(first);
                torch::Tensor expected = buffer.clone();
                kernels::spp_max_pool_reference(expected, c);
                kernels::spp_max_pool_slot()(buffer, c);
                QVERIFY2(testing::active_kernel("spp_max_pool") == "cuda", qPrintable(what));
                QVERIFY2(torch::equal(buffer.nan_to_num(7.0), expected.nan_to_num(7.0)), qPrintable(what));
                QVERIFY2(torch::equal(buffer.isnan(), expected.isnan()), qPrintable(what + ": NaN positions"));
                if (h < 2 || w < 2) continue;
                const torch::Tensor wide =
                    torch::randn({2, 2 * c, h, w}, options).contiguous(torch::MemoryFormat::ChannelsLast);
                for (const torch::Tensor& x : {wide, wide.slice(1, c, 2 * c)}) {
                    const torch::Tensor got = kernels::avg_pool_2x2_slot()(x);
                    QVERIFY2(testing::active_kernel("avg_pool_2x2") == "cuda", qPrintable(what));
                    QVERIFY2(torch::equal(got, kernels::avg_pool_2x2_reference(x)), qPrintable(what + " avg"));
                }
            }
    }

    // The fused path's candidate selection: the CUDA kernel keeps exactly the reference's pairs (the
    // same sigmoid in float32: equal scores, so equal indices and order) and decodes their boxes
    // within float32 rounding (its softmax sums in another order), for float32, float16 and bfloat16
    // maps, channels-last and contiguous, one and three images, thresholds from almost every pair
    // (past 30,000) to none; and it records in a CUDA graph, whose replay repeats its eager result.
    void decodeTopkCudaKeepsTheReferencesCandidates() {
        torch::manual_seed(0);
        const kernels::DflHead head{{8, 16, 32}, 16, 80};
        for (const auto dtype : {torch::kFloat32, torch::kFloat16, torch::kBFloat16})
            for (const bool channels_last : {true, false})
                for (const int64_t batch : {1, 3})
                    for (const double conf : {0.001, 0.3, 0.97, 1.0}) {
                        std::vector<torch::Tensor> levels;
                        for (int64_t side : {40, 20, 10}) {
                            torch::Tensor level = (torch::randn({batch, 144, side, side}, torch::kCUDA) * 3).to(dtype);
                            if (channels_last) level = level.contiguous(torch::MemoryFormat::ChannelsLast);
                            levels.push_back(level);
                        }
                        const QString what = QString("%1 %2 batch %3 conf %4")
                                                 .arg(c10::toString(dtype))
                                                 .arg(channels_last ? "NHWC" : "NCHW")
                                                 .arg(batch)
                                                 .arg(conf);
                        const predict::PackedCandidates got(kernels::decode_topk_slot()(levels, head, conf));
                        QVERIFY2(testing::active_kernel("decode_topk") == "cuda", qPrintable(what));
                        const predict::PackedCandidates expected(kernels::decode_topk_reference(levels, head, conf));
                        for (int64_t image = 0; image < batch; ++image) {
                            QVERIFY2(got.count(image) == expected.count(image), qPrintable(what));
                            const auto a = got.select(image, torch::kCPU), b = expected.select(image, torch::kCPU);
                            QVERIFY2(torch::equal(a.class_ids, b.class_ids), qPrintable(what));
                            QVERIFY2(torch::equal(a.conf, b.conf), qPrintable(what));
                            QVERIFY2(torch::allclose(a.boxes, b.boxes, 1e-5, 1e-3), qPrintable(what));
                        }
                        if (conf == 0.001) QVERIFY2(got.count(0) > predict::kMaxNmsCandidates, qPrintable(what));
                        if (conf == 1.0) QVERIFY2(got.count(0) == 0, qPrintable(what));
                    }
    }

    void decodeTopkReplaysItsEagerResult() {
        torch::manual_seed(1);
        const kernels::DflHead head{{8, 16, 32}, 16, 80};
        std::vector<torch::Tensor> levels;
        for (int64_t side : {80, 40, 20})
            levels.push_back((torch::randn({2, 144, side, side}, torch::kCUDA) * 3)
                                 .to(torch::kFloat16)
                                 .contiguous(torch::MemoryFormat::ChannelsLast));
        const predict::PackedCandidates eager(kernels::decode_topk_slot()(levels, head, 0.4));
        at::cuda::CUDAGraph graph;
        const c10::cuda::CUDAStream side = c10::cuda::getStreamFromPool();
        torch::Tensor captured;
        {
            const c10::cuda::CUDAStreamGuard on_side(side);
            graph.capture_begin();
            captured = kernels::decode_topk_slot()(levels, head, 0.4);
            graph.capture_end();
        }
        for (int replay = 0; replay < 3; ++replay) {
            graph.replay();
            const predict::PackedCandidates got(captured);
            for (int64_t image = 0; image < 2; ++image) {
                QCOMPARE(got.count(image), eager.count(image));
                const auto a = got.select(image, torch::kCPU), b = eager.select(image, torch::kCPU);
                QVERIFY(torch::equal(a.class_ids, b.class_ids) && torch::equal(a.conf, b.conf) &&
                        torch::equal(a.boxes, b.boxes));
            }
        }
    }

    void fakeQuantCudaMatchesTheReferenceExactly() {
        torch::manual_seed(0);
        struct Case {
            const char* what;
            torch::Tensor x, scale;
        };
        const std::vector<Case> cases = {
            {"per tensor, 8M", spread({8 << 20}), torch::full({}, 1.0f / 64, torch::kCUDA)},
            {"per output channel (64,32,3,3)", spread({64, 32, 3, 3}), torch::rand({64, 1, 1, 1}, torch::kCUDA) / 32},
            {"per activation channel (8,64,40,40)", spread({8, 64, 40, 40}),
             torch::rand({1, 64, 1, 1}, torch::kCUDA) / 32},
            {"trailing axis (100,48)", spread({100, 48}), torch::rand({48}, torch::kCUDA) / 32},
            {"tiny scale", spread({4096}), torch::full({1}, 1e-14f, torch::kCUDA)},
        };
        for (const Case& c : cases) {
            const torch::Tensor reference = kernels::fake_quant_fp8_reference(c.x, c.scale);
            QCOMPARE(kernels::fake_quant_fp8_slot()(c.x, c.scale).sizes(), reference.sizes());
            QVERIFY2(testing::active_kernel("fake_quant_fp8") == "cuda", c.what);
            const torch::Tensor fast = kernels::fake_quant_fp8_slot()(c.x, c.scale);
            QVERIFY2(torch::equal(fast, reference), c.what);
            QVERIFY2(torch::equal(fast.cpu(), kernels::fake_quant_fp8_reference(c.x.cpu(), c.scale.cpu())), c.what);

            const torch::Tensor x = c.x.clone().requires_grad_(true);
            const torch::Tensor upstream = torch::randn_like(x);
            kernels::fake_quant_fp8_slot()(x, c.scale).backward(upstream);
            const double grad_error = (x.grad() - upstream).abs().max().item<double>();
            QVERIFY2(grad_error <= 1e-6, c.what);
        }
        const torch::Tensor nan = torch::tensor({1.0f, NAN, -2.0f}, torch::kCUDA);
        const torch::Tensor out = kernels::fake_quant_fp8_slot()(nan, torch::full({}, 0.5f, torch::kCUDA)).cpu();
        QVERIFY(std::isnan(out[1].item<float>()));
        QCOMPARE(out[0].item<float>(), 1.0f);
    }

    void theFakeQuantReferenceStaysForOtherInputs() {
        const torch::Tensor half = torch::randn({64}, torch::kCUDA).to(torch::kFloat16);
        kernels::fake_quant_fp8_slot()(half.to(torch::kFloat32).t().contiguous(), torch::full({}, 0.1f));
        QCOMPARE(testing::active_kernel("fake_quant_fp8"), std::string("portable"));  // the scale is on the CPU
    }

    void cudaNmsPluginKeepsThePortableIndices() {
        bool loaded = false;
        for (const KernelPluginInfo& p : kernel_plugins())
            if (p.provider == "libreyolo-cuda-nms") {
                qInfo("libreyolo-cuda-nms: %s", p.state.c_str());
                loaded = p.state == "loaded";
            }
        QVERIFY(loaded);
        torch::manual_seed(1);
        const std::vector<NmsCase> cases = {{1, 1, 0.45},     {50, 1, 0.45},   {999, 80, 0.45},  {1000, 80, 0.7},
                                            {1001, 80, 0.45}, {5000, 1, 0.5},  {5000, 80, 0.45}, {30000, 80, 0.45},
                                            {30000, 3, 0.6},  {30000, 1, 0.45}};
        for (const NmsCase& c : cases) {
            const torch::Tensor xy = torch::rand({c.n, 2}) * 640;
            torch::Tensor boxes = torch::cat({xy, xy + 4 + torch::rand({c.n, 2}) * 120}, 1);
            boxes.slice(0, 0, std::min<std::int64_t>(c.n, 5))
                .select(1, 2)
                .copy_(boxes.slice(0, 0, std::min<std::int64_t>(c.n, 5)).select(1, 0));  // zero-area boxes
            // Scores on a coarse grid: many ties, which the order must break as the portable NMS does.
            const torch::Tensor scores = (torch::rand({c.n}) * 50).floor() / 50;
            const torch::Tensor classes = torch::randint(0, c.classes, {c.n}, torch::kLong);
            const torch::Tensor reference = kernels::nms_keep(boxes, scores, classes, c.iou);
            const torch::Tensor fast = kernels::nms_slot()(boxes.cuda(), scores.cuda(), classes.cuda(), c.iou);
            QCOMPARE(testing::active_kernel("nms"), std::string("cuda-bitmask"));
            const std::string what = std::to_string(c.n) + " boxes, " + std::to_string(c.classes) + " classes";
            QVERIFY2(fast.is_cuda(), what.c_str());
            QVERIFY2(torch::equal(fast.cpu(), reference), what.c_str());
        }
    }

    void predictOnCudaUsesTheCudaNmsWithTheSameDetections() {
        Model model = Model::load(default_model(), "cuda");
        const testing::PatternedImage image;
        const ImageView view = image.view();
        PredictOptions o;
        o.conf = 0.001f;  // many candidates
        const Result fast = model.predict(std::vector<ImageView>{view}, o).front();
        QCOMPARE(testing::active_kernel("nms"), std::string("cuda-bitmask"));
        qputenv("LIBREYOLO_KERNELS", "reference");
        reload_kernel_environment();
        const Result portable = model.predict(std::vector<ImageView>{view}, o).front();
        QCOMPARE(testing::active_kernel("nms"), std::string("portable"));
        qunsetenv("LIBREYOLO_KERNELS");
        reload_kernel_environment();
        qInfo("%zu detections", fast.boxes.size());
        QVERIFY(fast.boxes.size() > 10);
        QCOMPARE(fast.boxes.size(), portable.boxes.size());
        for (std::size_t i = 0; i < fast.boxes.size(); ++i) {
            QCOMPARE(fast.boxes[i].cls, portable.boxes[i].cls);
            QCOMPARE(fast.boxes[i].conf, portable.boxes[i].conf);
            QCOMPARE(fast.boxes[i].x1, portable.boxes[i].x1);
            QCOMPARE(fast.boxes[i].y2, portable.boxes[i].y2);
        }
    }

    void fusedAttentionCastWeightsFollowTheWeights() {
        torch::manual_seed(7);
        const auto fused_module = [] {
            nn::MultiheadAttention m(256, 8, /*batch_first=*/true);
            m->to(torch::kCUDA);
            m->fused_attn = true;
            return m;
        };
        nn::MultiheadAttention attention = fused_module();
        const auto half = torch::dtype(torch::kHalf).device(torch::kCUDA);
        const torch::Tensor src = torch::randn({2, 400, 256}, half), q = src + torch::randn_like(src);
        const torch::NoGradGuard no_grad;
        const auto forward = [&](nn::MultiheadAttention& m) {
            const CudaAutocast autocast(true);
            return m(q, q, src);
        };
        // What casting the weights now gives: a fresh module with a copy of them.
        const auto freshly_cast = [&] {
            nn::MultiheadAttention copy = fused_module();
            const auto from = attention->parameters(), to = copy->parameters();
            for (std::size_t i = 0; i < from.size(); ++i) to[i].copy_(from[i]);
            return forward(copy);
        };
        const torch::Tensor first = forward(attention);
        QVERIFY(torch::equal(forward(attention), first));  // from the kept copies
        {
            const torch::AutoGradMode grad(true);  // autocast's casts, no kept copies
            QVERIFY(torch::allclose(forward(attention).detach(), first, 1e-3, 1e-3));
        }
        attention->in_proj_weight.mul_(0.5);  // in place: the version counter moves
        torch::Tensor expected = freshly_cast();
        QVERIFY(!torch::allclose(expected, first, 1e-2, 1e-2));
        QVERIFY(torch::equal(forward(attention), expected));
        attention->out_proj->weight.set_data(torch::randn_like(attention->out_proj->weight));  // another storage
        expected = freshly_cast();
        QVERIFY(torch::equal(forward(attention), expected));

        // Captured after the copies exist, a graph still casts the live weights.
        at::cuda::CUDAGraph graph;
        torch::Tensor captured;
        {
            const c10::cuda::CUDAStreamGuard side(c10::cuda::getStreamFromPool());
            forward(attention);
            const bool cache_was = at::autocast::is_autocast_cache_enabled();
            at::autocast::set_autocast_cache_enabled(false);
            graph.capture_begin();
            captured = forward(attention);
            graph.capture_end();
            at::autocast::set_autocast_cache_enabled(cache_was);
        }
        torch::cuda::synchronize();
        const torch::Tensor before = forward(attention);
        attention->out_proj->bias.add_(1.0);
        graph.replay();
        torch::cuda::synchronize();
        QVERIFY(!torch::allclose(captured, before, 1e-2, 1e-2));
        QVERIFY(torch::allclose(captured, freshly_cast(), 1e-3, 1e-3));
    }
};

QTEST_APPLESS_MAIN(TestCudaKernels)
#include "test_cuda_kernels.moc"
