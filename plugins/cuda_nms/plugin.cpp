// libreyolo_cuda_nms: the CUDA implementation of the nms slot as a kernel plugin (spec 003 "hub"):
// the same kept indices as the portable NMS, from a suppression bitmask built on the GPU and one
// greedy pass in a single block.
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
    const bool offset_trick = n <= kOffsetTrickMaxBoxes;
    if (offset_trick) boxes = boxes + (classes.to(torch::kFloat32) * (boxes.max() + 1)).unsqueeze(1);
    const at::Tensor sorted_boxes = boxes.index_select(0, order).contiguous();
    const at::Tensor sorted_classes = classes.index_select(0, order).contiguous();
    const std::int64_t words = (n + libreyolo_cuda_nms::kBoxesPerWord - 1) / libreyolo_cuda_nms::kBoxesPerWord;
    at::Tensor mask = torch::empty({n, words}, boxes.options().dtype(torch::kLong));
    at::Tensor keep = torch::empty({n}, boxes.options().dtype(torch::kUInt8));
    const cudaError_t status = libreyolo_cuda_nms::launch_nms(
        sorted_boxes.data_ptr<float>(), offset_trick ? nullptr : sorted_classes.data_ptr<std::int64_t>(), n,
        static_cast<float>(iou_threshold), reinterpret_cast<unsigned long long*>(mask.data_ptr<std::int64_t>()),
        keep.data_ptr<std::uint8_t>(), c10::cuda::getCurrentCUDAStream());
    TORCH_CHECK(status == cudaSuccess, "libreyolo_cuda_nms: ", cudaGetErrorString(status));
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
