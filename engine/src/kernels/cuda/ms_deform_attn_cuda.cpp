#include "kernels/cuda/ms_deform_attn_cuda.h"

#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <torch/csrc/autograd/custom_function.h>

#include "kernels/cuda/ms_deform_attn_kernel.h"
#include "libreyolo/errors.h"

namespace libreyolo::kernels::cuda {
namespace {

DeformableLevels levels_of(const std::vector<std::int64_t>& shapes) {  // h0, w0, h1, w1, ...
    DeformableLevels levels;
    levels.count = static_cast<int>(shapes.size() / 2);
    std::int64_t start = 0;
    for (int l = 0; l < levels.count; ++l) {
        levels.height[l] = static_cast<int>(shapes[2 * l]);
        levels.width[l] = static_cast<int>(shapes[2 * l + 1]);
        levels.start[l] = start;
        start += shapes[2 * l] * shapes[2 * l + 1];
    }
    return levels;
}

DeformableDims dims_of(const torch::Tensor& value, const torch::Tensor& locations, int levels) {
    return {value.size(0), value.size(1), value.size(2), value.size(3), locations.size(1), locations.size(3) / levels};
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess)
        throw Error(std::string("ms_deform_attn (cuda) ") + what + ": " + cudaGetErrorString(status));
}

struct MsDeformAttn : torch::autograd::Function<MsDeformAttn> {
    static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& value_in,
                                 const torch::Tensor& locations_in, const torch::Tensor& weights_in,
                                 std::vector<std::int64_t> shapes) {
        const torch::Tensor value = value_in.contiguous(), locations = locations_in.contiguous(),
                            weights = weights_in.contiguous();
        const DeformableLevels levels = levels_of(shapes);
        const DeformableDims dims = dims_of(value, locations, levels.count);
        torch::Tensor out = torch::empty({dims.batch, dims.queries, dims.heads * dims.channels}, value.options());
        const c10::cuda::CUDAGuard guard(value.device());
        check(launch_ms_deform_attn_forward(value.data_ptr<float>(), locations.data_ptr<float>(),
                                            weights.data_ptr<float>(), out.data_ptr<float>(), levels, dims,
                                            c10::cuda::getCurrentCUDAStream()),
              "forward");
        ctx->save_for_backward({value, locations, weights});
        ctx->saved_data["shapes"] = shapes;
        return out;
    }

    static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                   torch::autograd::variable_list grads) {
        const auto saved = ctx->get_saved_variables();
        const torch::Tensor &value = saved[0], &locations = saved[1], &weights = saved[2];
        const DeformableLevels levels = levels_of(ctx->saved_data["shapes"].toIntVector());
        const DeformableDims dims = dims_of(value, locations, levels.count);
        const torch::Tensor grad_out = grads[0].contiguous();
        torch::Tensor grad_value = torch::zeros_like(value), grad_locations = torch::zeros_like(locations),
                      grad_weights = torch::zeros_like(weights);
        const c10::cuda::CUDAGuard guard(value.device());
        check(launch_ms_deform_attn_backward(
                  value.data_ptr<float>(), locations.data_ptr<float>(), weights.data_ptr<float>(),
                  grad_out.data_ptr<float>(), grad_value.data_ptr<float>(), grad_locations.data_ptr<float>(),
                  grad_weights.data_ptr<float>(), levels, dims, c10::cuda::getCurrentCUDAStream()),
              "backward");
        return {grad_value, grad_locations, grad_weights, torch::Tensor()};
    }
};

}  // namespace

bool ms_deform_attn_accepts(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                            const torch::Tensor& attention_weights, const DeformableSampling& sampling) {
    const auto on_one_cuda_device_in_float32 = [&](const torch::Tensor& t) {
        return t.is_cuda() && t.device() == value.device() && t.scalar_type() == torch::kFloat32;
    };
    return on_one_cuda_device_in_float32(value) && on_one_cuda_device_in_float32(sampling_locations) &&
           on_one_cuda_device_in_float32(attention_weights) && ms_deform_attn_layout_is_classic(sampling) &&
           sampling.spatial_shapes.size() <= static_cast<std::size_t>(kMaxDeformableLevels);
}

torch::Tensor ms_deform_attn(const torch::Tensor& value, const torch::Tensor& sampling_locations,
                             const torch::Tensor& attention_weights, const DeformableSampling& sampling) {
    std::vector<std::int64_t> shapes;
    for (const auto& [h, w] : sampling.spatial_shapes) shapes.insert(shapes.end(), {h, w});
    return MsDeformAttn::apply(value, sampling_locations, attention_weights, shapes);
}

}  // namespace libreyolo::kernels::cuda
