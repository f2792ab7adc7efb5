#pragma once
// Channel plan of each YOLOv9 size, as LibreYOLO's YOLO9_CONFIGS (official MIT YOLO configs).
#include <array>
#include <cstdint>
#include <string>

namespace libreyolo::models::yolo9 {

struct Stage {
    int64_t down_out;  // channels after the down-sampling block
    int64_t elan_out;  // channels after the RepNCSPELAN
    int64_t part;      // RepNCSPELAN part channels
};

struct ElanWidth {
    int64_t out;
    int64_t part;
};

struct Config {
    int64_t conv0_out, conv1_out;
    bool first_block_is_elan;  // ELAN (t, s) or RepNCSPELAN (m, c)
    int64_t first_block_out, first_block_part;
    bool adown;  // ADown (c) or AConv (t, s, m)
    std::array<Stage, 3> stages;
    int64_t spp_out;
    int64_t repeats;
    ElanWidth neck_up1, neck_up2;
    int64_t neck_down1_out;
    ElanWidth neck_down1;
    int64_t neck_down2_out;
    ElanWidth neck_down2;
    std::array<int64_t, 3> head_channels;
};

// Throws UnknownModel for a size other than t, s, m, c.
const Config& config_for(const std::string& size);

}  // namespace libreyolo::models::yolo9
