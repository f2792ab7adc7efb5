// A CPU kernel plugin for the hub tests: a plain greedy class-aware NMS registered in the nms slot
// as "test-greedy". LIBREYOLO_TEST_PLUGIN_MODE, read when the plugin is loaded, makes it misbehave:
// "abi" (reports ABI 999), "throwing-predicate", "failing-kernel", "register-fails".
#include <torch/torch.h>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "libreyolo/kernel_plugin.h"

namespace {

std::string mode() {
    const char* m = std::getenv("LIBREYOLO_TEST_PLUGIN_MODE");
    return m ? m : "good";
}

at::Tensor greedy_nms(const at::Tensor& boxes_in, const at::Tensor& scores, const at::Tensor& classes_in, double iou) {
    const at::Tensor boxes = boxes_in.to(torch::kFloat32).contiguous();
    const at::Tensor classes = classes_in.to(torch::kLong).contiguous();
    const at::Tensor order = std::get<1>(scores.sort(/*stable=*/true, 0, /*descending=*/true));
    const auto b = boxes.accessor<float, 2>();
    const auto c = classes.accessor<std::int64_t, 1>();
    const auto o = order.accessor<std::int64_t, 1>();
    const auto area = [&](std::int64_t i) { return (b[i][2] - b[i][0]) * (b[i][3] - b[i][1]); };
    std::vector<std::int64_t> keep;
    for (std::int64_t oi = 0; oi < order.size(0); ++oi) {
        const std::int64_t i = o[oi];
        bool suppressed = false;
        for (const std::int64_t k : keep) {
            if (c[k] != c[i]) continue;
            const float w = std::max(0.0f, std::min(b[k][2], b[i][2]) - std::max(b[k][0], b[i][0]));
            const float h = std::max(0.0f, std::min(b[k][3], b[i][3]) - std::max(b[k][1], b[i][1]));
            const float inter = w * h;
            if (inter / (area(k) + area(i) - inter) > static_cast<float>(iou)) suppressed = true;
        }
        if (!suppressed) keep.push_back(i);
    }
    return torch::tensor(keep, torch::kLong);
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int libreyolo_kernel_plugin_abi() {
    return mode() == "abi" ? 999 : LIBREYOLO_KERNEL_PLUGIN_ABI;
}

extern "C" __attribute__((visibility("default"))) int libreyolo_kernel_plugin_register(
    libreyolo::KernelPluginRegistrar* registrar, char* error, std::size_t error_size) {
    const std::string m = mode();
    if (m == "register-fails") {
        std::snprintf(error, error_size, "no device it likes");
        return 1;
    }
    libreyolo::KernelPluginRegistrar::Nms fn = &greedy_nms;
    if (m == "failing-kernel")
        fn = [](const at::Tensor&, const at::Tensor&, const at::Tensor&, double) -> at::Tensor {
            throw std::runtime_error("kernel exploded");
        };
    libreyolo::KernelPluginRegistrar::NmsAccepts accepts =
        [](const at::Tensor& boxes, const at::Tensor&, const at::Tensor&, const double&) { return !boxes.is_cuda(); };
    if (m == "throwing-predicate")
        accepts = [](const at::Tensor&, const at::Tensor&, const at::Tensor&, const double&) -> bool {
            throw std::runtime_error("predicate exploded");
        };
    registrar->nms("test-greedy", fn, accepts);
    return 0;
}
