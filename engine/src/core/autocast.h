#pragma once
// Scoped CUDA autocast (the C++ side of `with torch.autocast("cuda", dtype)`): enables it for
// this thread, restores the previous state on exit and, when the outermost scope closes, drops
// the cached casts of the weights, as Python's context manager does.
#include <ATen/autocast_mode.h>

namespace libreyolo {

class CudaAutocast {
public:
    explicit CudaAutocast(bool enabled, at::ScalarType dtype = at::kHalf)
        : active_(enabled),
          was_enabled_(at::autocast::is_autocast_enabled(at::kCUDA)),
          previous_dtype_(at::autocast::get_autocast_dtype(at::kCUDA)) {
        if (!active_) return;
        at::autocast::set_autocast_enabled(at::kCUDA, true);
        at::autocast::set_autocast_dtype(at::kCUDA, dtype);
        at::autocast::increment_nesting();
    }
    ~CudaAutocast() {
        if (!active_) return;
        if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
        at::autocast::set_autocast_enabled(at::kCUDA, was_enabled_);
        at::autocast::set_autocast_dtype(at::kCUDA, previous_dtype_);
    }
    CudaAutocast(const CudaAutocast&) = delete;
    CudaAutocast& operator=(const CudaAutocast&) = delete;

private:
    bool active_;
    bool was_enabled_;
    at::ScalarType previous_dtype_;
};

// Autocast off on CPU and CUDA for the scope (a float32 island inside an autocast region), the
// previous state restored on exit.
class AutocastOff {
public:
    AutocastOff()
        : cuda_was_enabled_(at::autocast::is_autocast_enabled(at::kCUDA)),
          cpu_was_enabled_(at::autocast::is_autocast_enabled(at::kCPU)) {
        at::autocast::set_autocast_enabled(at::kCUDA, false);
        at::autocast::set_autocast_enabled(at::kCPU, false);
    }
    ~AutocastOff() {
        at::autocast::set_autocast_enabled(at::kCUDA, cuda_was_enabled_);
        at::autocast::set_autocast_enabled(at::kCPU, cpu_was_enabled_);
    }
    AutocastOff(const AutocastOff&) = delete;
    AutocastOff& operator=(const AutocastOff&) = delete;

private:
    bool cuda_was_enabled_;
    bool cpu_was_enabled_;
};

}  // namespace libreyolo
