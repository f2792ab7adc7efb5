// Where the eager time of one AIFI-shaped attention layer goes (8×400 tokens, 256 channels, 8 heads,
// float16 activations under autocast, batch first): the layer, then each operation of the manual and the fused paths
// launched on its own from an idle GPU (CUDA events around the call: at this size that is the host's launch cost) and
// the host clock around the same call without waiting for the GPU, then the SDPA back-ends called directly. Guides
// which launches the fused path can drop (docs/kernels-bench.md).
//   bench_attention_parts [batch=8] [tokens=400] [runs=200] [warmup=20]
#include <ATen/autocast_mode.h>
#include <c10/cuda/CUDAGuard.h>

#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "aifi_attention.h"
#include "bench_common.h"
#include "gpu_timing.h"

#include "core/autocast.h"

namespace {

using namespace libreyolo;

template <typename Fn>
double median_host_us(Fn&& fn, int warmup, int runs) {
    for (int i = 0; i < warmup; ++i) fn();
    std::vector<double> us;
    for (int i = 0; i < runs; ++i) {
        torch::cuda::synchronize();
        const auto start = std::chrono::steady_clock::now();
        fn();
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    }
    torch::cuda::synchronize();
    return median(us);
}

template <typename Fn>
void row(const std::string& name, Fn&& fn, int warmup, int runs) {
    const double gpu = median_gpu_ms(fn, warmup, runs) * 1000.0;
    const double host = median_host_us(fn, warmup, runs);
    std::printf("%-58s events %7.1f us   host %7.1f us\n", name.c_str(), gpu, host);
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    if (!torch::cuda::is_available()) {
        std::fprintf(stderr, "bench_attention_parts: needs CUDA\n");
        return 1;
    }
    std::map<std::string, std::string> args{{"batch", "8"}, {"tokens", "400"}, {"runs", "200"}, {"warmup", "20"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_attention_parts", args, json)) return 2;
    const std::int64_t batch = std::stoll(args["batch"]), tokens = std::stoll(args["tokens"]);
    const int runs = std::stoi(args["runs"]), warmup = std::stoi(args["warmup"]);
    constexpr std::int64_t e = 256, heads = 8, head_dim = e / heads;

    torch::manual_seed(0);
    AifiAttentionPair attention = aifi_attention_pair(e, heads);
    torch::NoGradGuard no_grad;
    const torch::Tensor x = torch::randn({batch, tokens, e}, torch::dtype(torch::kHalf).device(torch::kCUDA)),
                        pos = torch::randn_like(x);
    const torch::Tensor xf = x.to(torch::kFloat), qh = x + pos;
    // The shared query/key part of the in-projection, in float32 and float16.
    const torch::Tensor w_qk = attention.manual->in_proj_weight.narrow(0, 0, 2 * e),
                        b_qk = attention.manual->in_proj_bias.narrow(0, 0, 2 * e);
    const torch::Tensor wh = attention.manual->in_proj_weight.to(torch::kHalf),
                        bh = attention.manual->in_proj_bias.to(torch::kHalf);
    const torch::Tensor wh_qk = wh.narrow(0, 0, 2 * e), bh_qk = bh.narrow(0, 0, 2 * e);
    const auto heads_first = [&](const torch::Tensor& t) {
        return t.view({batch, tokens, heads, head_dim}).transpose(1, 2);
    };
    const torch::Tensor packed = at::linear(qh, wh_qk, bh_qk);
    const torch::Tensor q4 = heads_first(packed.narrow(-1, 0, e)), k4 = heads_first(packed.narrow(-1, e, e)),
                        v4 = heads_first(at::linear(x, wh.narrow(0, 2 * e, e), bh.narrow(0, 2 * e, e)));
    std::printf("batch %lld, tokens %lld; SDPA picks back-end %lld (1 flash, 2 efficient, 3 cudnn)\n",
                static_cast<long long>(batch), static_cast<long long>(tokens),
                static_cast<long long>(at::_fused_sdp_choice(q4, k4, v4)));

    // The whole layer, manual and fused alternating run after run, as bench_kernels times it.
    const auto manual = aifi_layer(attention.manual, x, pos), fused = aifi_layer(attention.fused, x, pos);
    const auto [manual_ms, fused_ms] = paired_median_gpu_ms(manual, fused, warmup, runs);
    std::printf("%-58s events %7.1f us\n", "layer, manual (autocast, query = x + pos included)", manual_ms * 1000);
    std::printf("%-58s events %7.1f us\n", "layer, fused (autocast, query = x + pos included)", fused_ms * 1000);
    row("layer, fused alone", fused, warmup, runs);
    row(
        "autocast scope alone", [&] { const CudaAutocast autocast(true); }, warmup, runs);
    row(
        "x + pos (float16)", [&] { return x + pos; }, warmup, runs);
    row(
        "cast to float16", [&] { return xf.to(torch::kHalf); }, warmup, runs);
    row(
        "linear 256->512, autocast casts weight and bias",
        [&] {
            const CudaAutocast autocast(true);
            return at::linear(x, w_qk, b_qk);
        },
        warmup, runs);
    row(
        "linear 256->512, float16 operands, under autocast",
        [&] {
            const CudaAutocast autocast(true);
            return at::linear(qh, wh_qk, bh_qk);
        },
        warmup, runs);
    row(
        "linear 256->512, float16 operands", [&] { return at::linear(qh, wh_qk, bh_qk); }, warmup, runs);
    row(
        "addmm 256->512, float16 operands (2-D)",
        [&] {
            return at::addmm(bh_qk, qh.view({-1, e}), wh_qk.t());
        },
        warmup, runs);
    row(
        "mm 256->512, float16 operands, no bias",
        [&] {
            return at::mm(qh.view({-1, e}), wh_qk.t());
        },
        warmup, runs);
    row(
        "scaled_dot_product_attention", [&] { return at::scaled_dot_product_attention(q4, k4, v4); }, warmup, runs);
    row(
        "scaled_dot_product_attention under autocast",
        [&] {
            const CudaAutocast autocast(true);
            return at::scaled_dot_product_attention(q4, k4, v4);
        },
        warmup, runs);
    row(
        "_fused_sdp_choice alone", [&] { return at::_fused_sdp_choice(q4, k4, v4); }, warmup, runs);
    row(
        "_scaled_dot_product_flash_attention",
        [&] { return std::get<0>(at::_scaled_dot_product_flash_attention(q4, k4, v4)); }, warmup, runs);
    row(
        "_scaled_dot_product_efficient_attention",
        [&] { return std::get<0>(at::_scaled_dot_product_efficient_attention(q4, k4, v4, {}, false)); }, warmup, runs);
    row(
        "_scaled_dot_product_cudnn_attention",
        [&] { return std::get<0>(at::_scaled_dot_product_cudnn_attention(q4, k4, v4, {}, false)); }, warmup, runs);
    row(
        "empty float16 (allocation only)",
        [&] {
            return torch::empty({batch, tokens, e}, x.options());
        },
        warmup, runs);
    row(
        "bmm (manual scores)",
        [&] {
            return at::bmm(q4.reshape({-1, tokens, head_dim}), k4.reshape({-1, tokens, head_dim}).transpose(1, 2));
        },
        warmup, runs);
    return 0;
}
