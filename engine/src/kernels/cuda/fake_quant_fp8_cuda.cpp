#include "kernels/cuda/fake_quant_fp8_cuda.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/custom_function.h>

#include "kernels/cuda/fake_quant_fp8_kernel.h"
#include "libreyolo/errors.h"

namespace libreyolo::kernels::cuda {
namespace {

struct ScaleLayout {
    std::int64_t count = 1, inner = 1;
};

// How element i of x finds its scale, or nullopt when scale is not one value or one value per
// index of a single axis of x.
std::optional<ScaleLayout> scale_layout(const torch::Tensor& x, const torch::Tensor& scale) {
    if (scale.numel() == 1) return ScaleLayout{};
    if (scale.dim() > x.dim()) return std::nullopt;
    const std::int64_t offset = x.dim() - scale.dim();  // broadcasting aligns the trailing axes
    std::optional<std::int64_t> axis;
    for (std::int64_t d = 0; d < scale.dim(); ++d) {
        if (scale.size(d) == 1) continue;
        if (axis || scale.size(d) != x.size(d + offset)) return std::nullopt;
        axis = d + offset;
    }
    if (!axis) return ScaleLayout{};
    ScaleLayout layout{x.size(*axis), 1};
    for (std::int64_t d = *axis + 1; d < x.dim(); ++d) layout.inner *= x.size(d);
    return layout;
}

struct FakeQuantFp8 : torch::autograd::Function<FakeQuantFp8> {
    static torch::Tensor forward(torch::autograd::AutogradContext*, const torch::Tensor& x,
                                 const torch::Tensor& scale) {
        const ScaleLayout layout = *scale_layout(x, scale);
        const torch::Tensor s = scale.contiguous();
        torch::Tensor y = torch::empty_like(x);
        const c10::cuda::CUDAGuard guard(x.device());
        const cudaError_t status =
            launch_fake_quant_fp8(x.data_ptr<float>(), s.data_ptr<float>(), y.data_ptr<float>(), x.numel(),
                                  layout.count, layout.inner, c10::cuda::getCurrentCUDAStream());
        if (status != cudaSuccess) throw Error(std::string("fake_quant_fp8 (cuda): ") + cudaGetErrorString(status));
        return y;
    }
    // Straight-through: the gradient reaches x unchanged; the scale gets none, as in the reference.
    static torch::autograd::variable_list backward(torch::autograd::AutogradContext*,
                                                   torch::autograd::variable_list grads) {
        return {grads[0], torch::Tensor()};
    }
};

}  // namespace

bool fake_quant_fp8_accepts(const torch::Tensor& x, const torch::Tensor& scale) {
    return x.is_cuda() && x.scalar_type() == torch::kFloat32 && x.is_contiguous() && scale.device() == x.device() &&
           scale.scalar_type() == torch::kFloat32 && scale_layout(x, scale).has_value();
}

torch::Tensor fake_quant_fp8(const torch::Tensor& x, const torch::Tensor& scale) {
    return FakeQuantFp8::apply(x, scale);
}

}  // namespace libreyolo::kernels::cuda
