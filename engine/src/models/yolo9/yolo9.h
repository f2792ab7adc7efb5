#pragma once
// LibreYOLO9Model: backbone, PAN neck and the DDetect head, with LibreYOLO's key names
// (backbone.*, neck.*, head.cv2|cv3).
#include <array>
#include <string>
#include <utility>

#include "kernels/decode_topk_slot.h"
#include "kernels/dfl_decode.h"
#include "models/constant_tables.h"
#include "models/yolo9/blocks.h"
#include "models/yolo9/config.h"
#include "nn/detector.h"

namespace libreyolo::models::yolo9 {

class BackboneImpl : public torch::nn::Module {
public:
    explicit BackboneImpl(const Config& cfg);
    // Returns P3, P4, P5 (after SPPELAN).
    std::array<torch::Tensor, 3> forward(const torch::Tensor& x);

    Conv conv0{nullptr}, conv1{nullptr};
    std::shared_ptr<torch::nn::Module> elan1;
    std::shared_ptr<DownsampleImpl> down2, down3, down4;
    RepNCSPELAN elan2{nullptr}, elan3{nullptr}, elan4{nullptr};
    SPPELAN spp{nullptr};
};
TORCH_MODULE(Backbone);

class NeckImpl : public torch::nn::Module {
public:
    explicit NeckImpl(const Config& cfg);
    std::array<torch::Tensor, 3> forward(const std::array<torch::Tensor, 3>& p);

    RepNCSPELAN elan_up1{nullptr}, elan_up2{nullptr}, elan_down1{nullptr}, elan_down2{nullptr};
    std::shared_ptr<DownsampleImpl> down1, down2;
};
TORCH_MODULE(Neck);

// Decoupled anchor-free head: per scale a box tower (cv2, 4·reg_max distribution bins) and a
// class tower (cv3); DFL integral, LTRB decode against the grid, sigmoid scores.
class DDetectImpl : public torch::nn::Module {
public:
    // class_hidden: width of the class towers; 0 = LibreYOLO's rule max(ch[0], min(nc, 100)).
    DDetectImpl(int64_t nc, const std::array<int64_t, 3>& channels, int64_t class_hidden = 0, int64_t reg_max = 16);
    // Raw per-scale maps (B, 4·reg_max + nc, H, W).
    std::vector<torch::Tensor> forward_raw(const std::array<torch::Tensor, 3>& features);
    // (B, 4 + nc, anchors): xyxy in input pixels and sigmoid scores.
    torch::Tensor decode(const std::vector<torch::Tensor>& raw);

    // ONNX nodes of forward_raw and decode over the three feature maps of the given sizes.
    std::string emit_onnx(onnx::Graph& graph, const std::array<std::string, 3>& features,
                          const std::array<std::pair<int64_t, int64_t>, 3>& sizes);

    int64_t nc() const { return nc_; }
    int64_t reg_max() const { return reg_max_; }
    int64_t class_hidden() const { return class_hidden_; }
    kernels::DflHead dfl_head() const;

    torch::nn::ModuleList cv2{nullptr}, cv3{nullptr};

private:
    // Typed views of the towers registered in cv2 / cv3 (which only provide the key names).
    struct Tower {
        Conv first{nullptr}, second{nullptr};
        quant::QuantConv2d out{nullptr};
        torch::Tensor forward(const torch::Tensor& x);
        // forward(x) written into out_slice, a channel slice of its level's map.
        void forward_into(const torch::Tensor& x, const torch::Tensor& out_slice);
    };
    // The fused copy's forward_raw: the six towers run concurrently on a GPU, each storing its output
    // into its part of its level's channels-last map (no concatenation afterwards).
    std::vector<torch::Tensor> forward_raw_in_place(const std::array<torch::Tensor, 3>& features);
    std::vector<Tower> box_towers_, class_towers_;
    int64_t nc_, reg_max_, class_hidden_;
    std::array<double, 3> strides_{8, 16, 32};

    // The anchors of the levels' sizes, dtype and device (kernels/dfl_decode.h) as LibreYOLO computes them
    // on each call, but once (ConstantTableCache), so that a graphed forward launches none of their kernels.
    kernels::DflAnchors anchor_grid(const std::vector<torch::Tensor>& raw);
    ConstantTableCache anchor_grids_;
};
TORCH_MODULE(DDetect);

class YOLO9Impl : public nn::DetectorImpl {
public:
    YOLO9Impl(const std::string& size, int64_t nc, int64_t class_hidden = 0);
    torch::Tensor forward(const torch::Tensor& images) override;
    graphs::ForwardPlan candidate_plan(float conf) override;
    std::vector<torch::Tensor> forward_raw(const torch::Tensor& images);
    int num_classes() const override { return static_cast<int>(head->nc()); }
    std::vector<nn::OnnxOutput> emit_onnx(onnx::Graph& graph, const std::string& images, int64_t height,
                                          int64_t width) override;
    const std::string& size() const { return size_; }

    Backbone backbone{nullptr};
    Neck neck{nullptr};
    DDetect head{nullptr};

private:
    std::string size_;
};
TORCH_MODULE(YOLO9);

}  // namespace libreyolo::models::yolo9
