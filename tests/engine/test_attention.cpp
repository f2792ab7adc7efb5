// The attention policy on the CPU (spec 003): the manual equation against an independent
// computation (LibTorch's own MultiheadAttention with the same weights) for self-attention, shared
// key/value and separate inputs, with float and boolean masks, sequence- or batch-first; the fused
// path (SDPA) close to it; a ManualAttentionScope (what traces and exports use) forcing the manual
// math bit for bit even when fused is asked; set_fused_attention counting modules (through the
// public Model API too, which releases graphs only when something changed); the byte-exactness
// helper leaving the flags as they were; every registered family's default agreeing with that
// helper wherever the family has attention; the fused path's kept float16 weights rebuilt when a
// weight is written in place, replaced or asked in another dtype.
#include <QtTest/QtTest>

#include "kernels/manual_math.h"
#include "libreyolo/families.h"
#include "libreyolo/model.h"
#include "nn/attention_policy.h"
#include "nn/cast_weights_cache.h"
#include "nn/multihead_attention.h"
#include "registry/network_spec.h"

using namespace libreyolo;
using libreyolo::nn::MultiheadAttention;

namespace {

// LibTorch's module, given our module's weights.
torch::nn::MultiheadAttention libtorch_copy(const MultiheadAttention& ours, int64_t embed, int64_t heads) {
    torch::nn::MultiheadAttention theirs(torch::nn::MultiheadAttentionOptions(embed, heads));
    torch::NoGradGuard no_grad;
    theirs->in_proj_weight.copy_(ours->in_proj_weight);
    theirs->in_proj_bias.copy_(ours->in_proj_bias);
    theirs->out_proj->weight.copy_(ours->out_proj->weight);
    theirs->out_proj->bias.copy_(ours->out_proj->bias);
    return theirs;
}

struct Blocks : torch::nn::Module {
    MultiheadAttention a{32, 4}, b{32, 8}, c{32, 2};
    torch::nn::Linear head{32, 4};
    Blocks() {
        register_module("a", a);
        register_module("inner", std::make_shared<torch::nn::Module>())->register_module("b", b);
        register_module("c", c);
        register_module("head", head);
    }
    torch::Tensor forward(const torch::Tensor& x) {
        torch::Tensor y = a(x, x, x);
        y = b(y + x, y + x, y);
        return head(c(y, y, y));
    }
};

}  // namespace

class TestAttention : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void manualMatchesLibtorchsMultiheadAttention() {
        torch::manual_seed(0);
        MultiheadAttention ours(64, 8);
        auto theirs = libtorch_copy(ours, 64, 8);
        torch::NoGradGuard no_grad;
        const torch::Tensor x = torch::randn({20, 3, 64}), pos = torch::randn({20, 3, 64});
        const torch::Tensor other = torch::randn({30, 3, 64}), other_v = torch::randn({30, 3, 64});
        const torch::Tensor float_mask = torch::randn({20, 20}), bool_mask = torch::rand({20, 30}) > 0.8;
        struct Case {
            const char* what;
            torch::Tensor q, k, v, mask;
        };
        const torch::Tensor qk = x + pos;
        for (const Case& c : {Case{"self", x, x, x, {}}, Case{"shared q/k (AIFI)", qk, qk, x, {}},
                              Case{"separate", x, other, other_v, {}}, Case{"float mask", x, x, x, float_mask}}) {
            const torch::Tensor got = ours(c.q, c.k, c.v, c.mask);
            const torch::Tensor want = std::get<0>(theirs->forward(c.q, c.k, c.v, torch::Tensor(), true, c.mask));
            QVERIFY2(torch::allclose(got, want, 1e-5, 1e-5), c.what);
            ours->fused_attn = true;
            QVERIFY2(torch::allclose(ours(c.q, c.k, c.v, c.mask), got, 1e-5, 1e-5), c.what);
            ours->fused_attn = false;
        }
        // A boolean mask is PyTorch's: true masks out, the same as -inf added.
        const torch::Tensor as_float = torch::zeros({20, 30}).masked_fill(bool_mask, -INFINITY);
        QVERIFY(torch::equal(ours(x, other, other_v, bool_mask), ours(x, other, other_v, as_float)));
        ours->fused_attn = true;
        QVERIFY(torch::allclose(ours(x, other, other_v, bool_mask), ours(x, other, other_v, as_float), 1e-5, 1e-5));
    }

    void batchFirstIsTheSameComputationTransposed() {
        torch::manual_seed(1);
        MultiheadAttention seq(32, 4), batch(32, 4, /*batch_first=*/true);
        torch::NoGradGuard no_grad;
        for (const auto& item : seq->named_parameters()) batch->named_parameters()[item.key()].copy_(item.value());
        const torch::Tensor x = torch::randn({10, 2, 32});
        QVERIFY(
            torch::equal(batch(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1)).transpose(0, 1), seq(x, x, x)));
    }

    void aManualScopeForcesTheEquationBitForBit() {
        torch::manual_seed(2);
        MultiheadAttention m(48, 6);
        torch::NoGradGuard no_grad;
        const torch::Tensor x = torch::randn({16, 2, 48});
        const torch::Tensor manual = m(x, x, x);
        m->fused_attn = true;
        QVERIFY(!kernels::manual_attention_required());
        {
            const kernels::ManualAttentionScope exporting;
            QVERIFY(kernels::manual_attention_required());
            QVERIFY(torch::equal(m(x, x, x), manual));
        }
        QVERIFY(!kernels::manual_attention_required());
    }

    void setFusedAttentionCountsTheModules() {
        Blocks net;
        QCOMPARE(nn::set_fused_attention(net, true), 3);
        QVERIFY(net.a->fused_attn && net.b->fused_attn && net.c->fused_attn);
        QCOMPARE(nn::set_fused_attention(net, false), 3);
        QVERIFY(!net.b->fused_attn);
        Model yolo = Model::create("yolo9-t", 80, "cpu");
        QCOMPARE(yolo.set_fused_attention(true), 0);
        QCOMPARE(yolo.set_fused_attention(false), 0);
    }

    void theByteExactnessHelperComparesAndRestores() {
        torch::manual_seed(3);
        Blocks net;
        net.b->fused_attn = true;
        const torch::Tensor x = torch::randn({12, 2, 32});
        const bool exact = nn::fused_attention_is_byte_exact(net, [&] { return net.forward(x); });
        QVERIFY(!net.a->fused_attn && net.b->fused_attn && !net.c->fused_attn);
        torch::NoGradGuard no_grad;
        nn::set_fused_attention(net, false);
        const torch::Tensor manual = net.forward(x);
        nn::set_fused_attention(net, true);
        QCOMPARE(exact, torch::equal(manual, net.forward(x)));
        qInfo("fused vs manual on this CPU: %s", exact ? "byte-identical" : "different in the last bits");
    }

    // A family may start fused only where that changes no byte (spec: "a helper that checks
    // byte-exactness of fused vs manual for a family decides its default").
    void everyFamilysDefaultFollowsTheHelper() {
        for (const FamilyTraits& family : registered_families()) {
            registry::NetworkSpec spec;
            spec.name.family = family.family;
            spec.name.size = family.sizes.front();
            spec.nc = 4;
            auto net = registry::build_network(spec);
            net->eval();
            const int modules = nn::set_fused_attention(*net, family.fused_attention_default);
            if (modules == 0) {
                QVERIFY2(!family.fused_attention_default, family.family.c_str());
                continue;
            }
            // 320: leaves every DETR decoder its 300 queries' cells (D-FINE-n has strides 16 and 32 only).
            const torch::Tensor x = torch::rand({1, 3, 320, 320});
            const bool exact = nn::fused_attention_is_byte_exact(*net, [&] { return net->forward(x); });
            QCOMPARE(family.fused_attention_default, exact);
        }
    }

    void castWeightsAreKeptUntilAWeightChanges() {
        nn::CastWeightsCache cache;
        torch::Tensor w = torch::randn({4, 3}), b = torch::randn({4});
        const auto cast = [&](at::ScalarType dtype = torch::kHalf) { return cache.get({w, b}, dtype); };
        const std::vector<torch::Tensor> first = cast();
        QCOMPARE(first[0].scalar_type(), torch::kHalf);
        QVERIFY(torch::equal(first[0], w.to(torch::kHalf)));
        QCOMPARE(cast()[0].data_ptr(), first[0].data_ptr());  // kept
        w.mul_(2);                                            // written in place
        QVERIFY(torch::equal(cast()[0], w.to(torch::kHalf)));
        b = torch::randn({4});  // another tensor
        QVERIFY(torch::equal(cast()[1], b.to(torch::kHalf)));
        QCOMPARE(cast(torch::kBFloat16)[0].scalar_type(), torch::kBFloat16);
        // Only for CUDA weights with autograd off.
        const torch::NoGradGuard no_grad;
        QVERIFY(!nn::may_use_cast_weights_cache({w, b}));
    }
};

QTEST_APPLESS_MAIN(TestAttention)
#include "test_attention.moc"
