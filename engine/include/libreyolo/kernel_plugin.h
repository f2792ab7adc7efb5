#pragma once
// What a kernel plugin (a shared library, spec 003 "hub") exports and what it is given. A plugin
// is built against the same LibTorch, CUDA and compiler as the engine (its manifest's build tag
// says which), so C++ types cross the boundary; the two entry points are C so that they are found
// by name and the ABI version is checked before anything else is called:
//
//   extern "C" int libreyolo_kernel_plugin_abi();   // returns LIBREYOLO_KERNEL_PLUGIN_ABI
//   extern "C" int libreyolo_kernel_plugin_register(libreyolo::KernelPluginRegistrar* registrar,
//                                                   char* error, std::size_t error_size);
//
// register returns 0 after registering its implementations, or nonzero with a message in error.
// The implementations are registered under the provider name of the plugin's manifest entry.
#include <ATen/core/Tensor.h>

#include <cstddef>
#include <functional>
#include <string>

#define LIBREYOLO_KERNEL_PLUGIN_ABI 1

namespace libreyolo {

class KernelPluginRegistrar {
public:
    virtual ~KernelPluginRegistrar() = default;

    // The nms slot: (boxes (N, 4) xyxy, scores (N), classes (N), iou) -> kept indices by
    // descending score, on the boxes' device.
    using Nms = std::function<at::Tensor(const at::Tensor&, const at::Tensor&, const at::Tensor&, double)>;
    using NmsAccepts = std::function<bool(const at::Tensor&, const at::Tensor&, const at::Tensor&, const double&)>;
    virtual void nms(const std::string& name, Nms fn, NmsAccepts accepts) = 0;

    // The fake_quant_fp8 slot: (x, broadcastable scale) -> fake-quantized x, straight-through gradient.
    using FakeQuant = std::function<at::Tensor(const at::Tensor&, const at::Tensor&)>;
    using FakeQuantAccepts = std::function<bool(const at::Tensor&, const at::Tensor&)>;
    virtual void fake_quant_fp8(const std::string& name, FakeQuant fn, FakeQuantAccepts accepts) = 0;
};

}  // namespace libreyolo

extern "C" {
using LibreyoloKernelPluginAbi = int (*)();
using LibreyoloKernelPluginRegister = int (*)(libreyolo::KernelPluginRegistrar*, char*, std::size_t);
}
