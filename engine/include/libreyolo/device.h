#pragma once
// Device selection: "auto", "cpu", "cuda", "cuda:N", or a bare GPU index "N" (Ultralytics style).
#include <string>
#include <string_view>

namespace libreyolo {

struct DeviceSpec {
    enum class Kind { Auto, Cpu, Cuda };
    Kind kind = Kind::Auto;
    int index = 0;  // meaningful for Cuda only

    std::string str() const;  // "auto", "cpu", "cuda:0"
    bool operator==(const DeviceSpec&) const = default;
};

// Parses text; throws InvalidArgument naming the text when it is not a device.
DeviceSpec parse_device(std::string_view text);

// Turns Auto into Cpu or Cuda:0 and checks that a Cuda device exists (DeviceError if not).
// Auto without a usable GPU logs one line saying that the CPU is used.
DeviceSpec resolve_device(const DeviceSpec& spec);

bool cuda_available();
int cuda_device_count();

}  // namespace libreyolo
