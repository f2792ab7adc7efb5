// libreyolo_cuda_nms: the CUDA implementation of the nms slot as a kernel plugin (spec 003 "hub"):
// the same kept indices as the portable NMS, from per-class suppression bitmasks built on the GPU
// and one greedy pass per class, each in its own block.
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/torch.h>

#include <cstdio>

#include "libreyolo/kernel_plugin.h"
#include "nms_kernel.h"

namespace {

// The portable NMS offsets each class into its own coordinate range up to 1,000 boxes and runs
// per class above; the same split here keeps every IoU computed from the same coordinates.
constexpr std::int64_t kOffsetTrickMaxBoxes = 1000;

at::Tensor cuda_nms(const at::Tensor& boxes_in, const at::Tensor& scores, const at::Tensor& classes_in,
                    double iou_threshold) {
    const c10::cuda::CUDAGuard guard(boxes_in.device());
    const std::int64_t n = boxes_in.size(0);
    if (n == 0) return torch::empty({0}, boxes_in.options().dtype(torch::kLong));
    const at::Tensor order = std::get<1>(scores.to(torch::kFloat32).sort(/*stable=*/true, 0, /*descending=*/true));
    at::Tensor boxes = boxes_in.to(torch::kFloat32);
    const at::Tensor classes = classes_in.to(torch::kLong);
    if (n <= kOffsetTrickMaxBoxes) boxes = boxes + (classes.to(torch::kFloat32) * (boxes.max() + 1)).unsqueeze(1);
    // Score order, then grouped by class (stable: each class keeps its score order), so every
    // class is one contiguous segment and NMS runs per class: no IoU across classes is computed.
    const at::Tensor sorted_classes = classes.index_select(0, order);
    const at::Tensor grouped = std::get<1>(sorted_classes.sort(/*stable=*/true, 0, /*descending=*/false));
    const at::Tensor grouped_boxes = boxes.index_select(0, order.index_select(0, grouped)).contiguous();
    const at::Tensor sizes = std::get<2>(torch::unique_consecutive(sorted_classes.index_select(0, grouped),
                                                                   /*return_inverse=*/false, /*return_counts=*/true));
    const at::Tensor starts = (sizes.cumsum(0) - sizes).contiguous();
    const at::Tensor words =
        (sizes + libreyolo_cuda_nms::kBoxesPerWord - 1).div(libreyolo_cuda_nms::kBoxesPerWord, "floor");
    const at::Tensor block_offset = torch::cat({torch::zeros({1}, words.options()), (words * words).cumsum(0)});
    const at::Tensor totals = torch::stack({block_offset[-1], words.max()}).cpu();  // one device-to-host copy

    libreyolo_cuda_nms::Segments segments{starts.data_ptr<std::int64_t>(),       sizes.data_ptr<std::int64_t>(),
                                          block_offset.data_ptr<std::int64_t>(), sizes.size(0),
                                          totals[0].item<std::int64_t>(),        totals[1].item<std::int64_t>()};
    at::Tensor mask = torch::empty({n, segments.max_words}, boxes.options().dtype(torch::kLong));
    at::Tensor keep_grouped = torch::empty({n}, boxes.options().dtype(torch::kUInt8));
    const cudaError_t status =
        libreyolo_cuda_nms::launch_nms(grouped_boxes.data_ptr<float>(), n, segments, static_cast<float>(iou_threshold),
                                       reinterpret_cast<unsigned long long*>(mask.data_ptr<std::int64_t>()),
                                       keep_grouped.data_ptr<std::uint8_t>(), c10::cuda::getCurrentCUDAStream());
    TORCH_CHECK(status == cudaSuccess, "libreyolo_cuda_nms: ", cudaGetErrorString(status));
    // Back to score order: the kept indices come out by descending score, as the portable ones.
    const at::Tensor keep = torch::zeros({n}, keep_grouped.options()).index_put_({grouped}, keep_grouped);
    return order.index_select(0, torch::nonzero(keep).view(-1));
}

bool accepts(const at::Tensor& boxes, const at::Tensor& scores, const at::Tensor& classes, const double&) {
    return boxes.is_cuda() && scores.device() == boxes.device() && classes.device() == boxes.device() &&
           boxes.dim() == 2 && boxes.size(1) == 4 && boxes.size(0) <= libreyolo_cuda_nms::nms_max_boxes();
}

}  // namespace

extern "C" __attribute__((visibility("default"))) int libreyolo_kernel_plugin_abi() {
    return LIBREYOLO_KERNEL_PLUGIN_ABI;
}

extern "C" __attribute__((visibility("default"))) int libreyolo_kernel_plugin_register(
    libreyolo::KernelPluginRegistrar* registrar, char* error, std::size_t error_size) {
    try {
        registrar->nms("cuda-bitmask", &cuda_nms, &accepts);
        return 0;
    } catch (const std::exception& e) {
        std::snprintf(error, error_size, "%s", e.what());
        return 1;
    }
}
