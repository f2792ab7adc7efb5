#include "libreyolo/device.h"

#include <torch/cuda.h>

#include <charconv>

#include "core/text.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo {
namespace {

bool parse_index(std::string_view text, int& out) {
    if (text.empty()) return false;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
    return ec == std::errc() && ptr == text.data() + text.size() && out >= 0;
}

}  // namespace

std::string DeviceSpec::str() const {
    switch (kind) {
        case Kind::Auto:
            return "auto";
        case Kind::Cpu:
            return "cpu";
        case Kind::Cuda:
            return "cuda:" + std::to_string(index);
    }
    return "?";
}

DeviceSpec parse_device(std::string_view text) {
    const std::string s = lower_case(text);
    if (s.empty() || s == "auto") return {DeviceSpec::Kind::Auto, 0};
    if (s == "cpu") return {DeviceSpec::Kind::Cpu, 0};
    if (s == "cuda" || s == "gpu") return {DeviceSpec::Kind::Cuda, 0};
    int index = 0;
    if (s.rfind("cuda:", 0) == 0 && parse_index(std::string_view(s).substr(5), index))
        return {DeviceSpec::Kind::Cuda, index};
    if (parse_index(s, index)) return {DeviceSpec::Kind::Cuda, index};
    throw InvalidArgument("device: '" + std::string(text) + "' is not a device (use auto, cpu, cuda, cuda:N or N)");
}

bool cuda_available() {
    return torch::cuda::is_available();
}
int cuda_device_count() {
    return static_cast<int>(torch::cuda::device_count());
}

DeviceSpec resolve_device(const DeviceSpec& spec) {
    switch (spec.kind) {
        case DeviceSpec::Kind::Cpu:
            return spec;
        case DeviceSpec::Kind::Auto:
            if (cuda_available()) return {DeviceSpec::Kind::Cuda, 0};
            log_info("device", "no usable CUDA device: running on the CPU");
            return {DeviceSpec::Kind::Cpu, 0};
        case DeviceSpec::Kind::Cuda: {
            const int count = cuda_available() ? cuda_device_count() : 0;
            if (count == 0)
                throw DeviceError("device: " + spec.str() +
                                  " requested but no usable CUDA device was found "
                                  "(use device=cpu)");
            if (spec.index >= count)
                throw DeviceError("device: " + spec.str() + " requested but only " + std::to_string(count) +
                                  " CUDA device(s) exist");
            return spec;
        }
    }
    return spec;
}

}  // namespace libreyolo
