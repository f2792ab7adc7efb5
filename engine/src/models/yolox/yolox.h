#pragma once
// LibreYOLOXModel: the CSPDarknet backbone inside the PAFPN neck (backbone.backbone.*,
// backbone.*) and the decoupled head (head.stems, cls_convs, reg_convs, cls_preds, reg_preds,
// obj_preds), with LibreYOLO's key names and sizes n/t/s/m/l/x.
#include <array>
#include <string>

#include "models/yolox/blocks.h"
#include "nn/detector.h"

namespace libreyolo::models::yolox {

struct SizeConfig {
    double depth = 0.33, width = 0.5;
    bool depthwise = false;
    int default_imgsz = 640;
};

// LibreYOLOXModel.CONFIGS and LibreYOLOX.INPUT_SIZES. Throws UnknownModel for another size.
SizeConfig size_config(const std::string& size);

class CSPDarknetImpl : public torch::nn::Module {
public:
    CSPDarknetImpl(double depth, double width, bool depthwise);
    // dark3, dark4, dark5.
    std::array<torch::Tensor, 3> forward(const torch::Tensor& x);
    Focus stem{nullptr};
    torch::nn::Sequential dark2{nullptr}, dark3{nullptr}, dark4{nullptr}, dark5{nullptr};
};
TORCH_MODULE(CSPDarknet);

class PAFPNImpl : public torch::nn::Module {
public:
    PAFPNImpl(double depth, double width, bool depthwise);
    // The three pyramid outputs at strides 8, 16, 32.
    std::array<torch::Tensor, 3> forward(const torch::Tensor& x);
    CSPDarknet backbone{nullptr};
    Conv lateral_conv0{nullptr}, reduce_conv1{nullptr};
    CSPLayer C3_p4{nullptr}, C3_p3{nullptr}, C3_n3{nullptr}, C3_n4{nullptr};
    torch::nn::AnyModule bu_conv2, bu_conv1;
};
TORCH_MODULE(PAFPN);

// What the training loss reads from one forward (LibreYOLO's forward_train_maps): per anchor the
// decoded box (cx, cy, w, h in input pixels), the objectness and class logits; the anchors' grid
// cells and strides; and, once the L1 term is on, the raw box regressions.
struct TrainMaps {
    torch::Tensor outputs;   // (B, anchors, 5 + nc)
    torch::Tensor x_shifts;  // (1, anchors)
    torch::Tensor y_shifts;  // (1, anchors)
    torch::Tensor strides;   // (1, anchors)
    torch::Tensor raw_box;   // (B, anchors, 4), defined only when asked for
};

// The anchors' cells and strides of maps (x_shifts, y_shifts, strides) for pyramid levels of
// these (height, width) at strides 8, 16, 32, with opts' dtype and device.
using LevelSizes = std::array<std::pair<int64_t, int64_t>, 3>;
void set_anchor_grid(TrainMaps& maps, const LevelSizes& levels, const torch::TensorOptions& opts);
// The level sizes of a height × width input (multiples of 32).
LevelSizes level_sizes(int64_t height, int64_t width);

class HeadImpl : public torch::nn::Module {
public:
    HeadImpl(int64_t nc, double width, bool depthwise);
    // Per level (B, 5 + nc, H, W): box regression, sigmoid objectness, sigmoid class scores.
    std::vector<torch::Tensor> forward_levels(const std::array<torch::Tensor, 3>& features);
    // (B, 4 + nc, anchors): xyxy in input pixels and objectness × class scores, LibreYOLO's
    // decode_outputs and postprocess arithmetic.
    torch::Tensor decode(const std::vector<torch::Tensor>& levels) const;
    TrainMaps train_maps(const std::array<torch::Tensor, 3>& features, bool with_raw_box);
    int64_t nc() const { return nc_; }

    torch::nn::ModuleList stems{nullptr}, cls_convs{nullptr}, reg_convs{nullptr};
    torch::nn::ModuleList cls_preds{nullptr}, reg_preds{nullptr}, obj_preds{nullptr};

private:
    struct LevelOutputs {
        torch::Tensor box, obj, cls;  // raw (B, 4|1|nc, H, W)
    };
    LevelOutputs run_level(size_t level, const torch::Tensor& feature);
    int64_t nc_;
};
TORCH_MODULE(Head);

class YOLOXImpl : public nn::DetectorImpl {
public:
    YOLOXImpl(const std::string& size, int64_t nc);
    // images: RGB in [0, 1], as every family receives them. YOLOX's weights expect BGR in 0–255
    // (LibreYOLO's preprocess): flipping the channels and scaling by 255 recovers those values
    // exactly, for every byte, in float32 and float16 (a test checks it).
    torch::Tensor forward(const torch::Tensor& images) override;
    int num_classes() const override { return static_cast<int>(head->nc()); }
    std::array<torch::Tensor, 3> features(const torch::Tensor& images);
    static torch::Tensor to_network_pixels(const torch::Tensor& images);

    PAFPN backbone{nullptr};
    Head head{nullptr};
};

}  // namespace libreyolo::models::yolox
