#include "models/yolox/yolox.h"

#include <cmath>

#include "libreyolo/errors.h"
#include "nn/flop_counter.h"

namespace libreyolo::models::yolox {

namespace F = torch::nn::functional;
using torch::indexing::Ellipsis;
using torch::indexing::Slice;

namespace {

constexpr std::array<int64_t, 3> kStrides{8, 16, 32};
constexpr std::array<int64_t, 3> kPyramidChannels{256, 512, 1024};

// Python's int(channels * width).
int64_t scaled(int64_t channels, double width) {
    return static_cast<int64_t>(static_cast<double>(channels) * width);
}

// Python's round(x) for the non-halfway values the size table gives (0.99, 2.01, 3, 3.99).
int64_t rounded(double x) {
    return std::llround(x);
}

torch::Tensor upsample2x(const torch::Tensor& x) {
    return F::interpolate(
        x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2.0, 2.0}).mode(torch::kNearest));
}

torch::nn::Sequential stage(int64_t in, int64_t out, int64_t n, bool depthwise) {
    torch::nn::Sequential s;
    s->push_back(make_conv(in, out, 3, 2, depthwise));
    s->push_back(CSPLayer(out, out, n, true, depthwise));
    return s;
}

quant::QuantConv2d prediction_conv(int64_t in, int64_t out) {
    return quant::QuantConv2d(torch::nn::Conv2dOptions(in, out, 1));
}

// (1, h·w, 2): each cell's (x, y), row-major; LibreYOLO's meshgrid without offset.
torch::Tensor cell_grid(int64_t h, int64_t w, const torch::TensorOptions& opts) {
    const auto yx = torch::meshgrid({torch::arange(h, opts), torch::arange(w, opts)}, "ij");
    return torch::stack({yx[1], yx[0]}, 2).view({1, -1, 2});
}

torch::Tensor run_pred(torch::nn::ModuleList& list, size_t level, const torch::Tensor& x) {
    auto& conv = *list[level]->as<quant::QuantConv2dImpl>();
    torch::Tensor y = conv.forward(x);
    nn::count_conv_flops(conv, y);
    return y;
}

}  // namespace

SizeConfig size_config(const std::string& size) {
    if (size == "n") return {0.33, 0.25, true, 416};
    if (size == "t") return {0.33, 0.375, false, 416};
    if (size == "s") return {0.33, 0.50, false, 640};
    if (size == "m") return {0.67, 0.75, false, 640};
    if (size == "l") return {1.00, 1.00, false, 640};
    if (size == "x") return {1.33, 1.25, false, 640};
    throw UnknownModel("yolox: unknown size '" + size + "' (sizes: n, t, s, m, l, x)");
}

CSPDarknetImpl::CSPDarknetImpl(double depth, double width, bool depthwise) {
    const int64_t base = scaled(64, width);
    const int64_t n = std::max<int64_t>(rounded(depth * 3), 1);
    stem = register_module("stem", Focus(3, base, 3));
    dark2 = register_module("dark2", stage(base, base * 2, n, depthwise));
    dark3 = register_module("dark3", stage(base * 2, base * 4, n * 3, depthwise));
    dark4 = register_module("dark4", stage(base * 4, base * 8, n * 3, depthwise));
    dark5 = register_module("dark5", torch::nn::Sequential());
    dark5->push_back(make_conv(base * 8, base * 16, 3, 2, depthwise));
    dark5->push_back(SPPBottleneck(base * 16, base * 16));
    dark5->push_back(CSPLayer(base * 16, base * 16, n, false, depthwise));
}

std::array<torch::Tensor, 3> CSPDarknetImpl::forward(const torch::Tensor& x) {
    torch::Tensor c3 = dark3->forward(dark2->forward(stem(x)));
    torch::Tensor c4 = dark4->forward(c3);
    return {c3, c4, dark5->forward(c4)};
}

PAFPNImpl::PAFPNImpl(double depth, double width, bool depthwise) {
    const int64_t c0 = scaled(kPyramidChannels[0], width), c1 = scaled(kPyramidChannels[1], width),
                  c2 = scaled(kPyramidChannels[2], width);
    const int64_t n = rounded(3 * depth);
    backbone = register_module("backbone", CSPDarknet(depth, width, depthwise));
    lateral_conv0 = register_module("lateral_conv0", Conv(ConvOptions(c2, c1, 1)));
    C3_p4 = register_module("C3_p4", CSPLayer(scaled(2 * kPyramidChannels[1], width), c1, n, false, depthwise));
    reduce_conv1 = register_module("reduce_conv1", Conv(ConvOptions(c1, c0, 1)));
    C3_p3 = register_module("C3_p3", CSPLayer(scaled(2 * kPyramidChannels[0], width), c0, n, false, depthwise));
    bu_conv2 = make_conv(c0, c0, 3, 2, depthwise);
    register_module("bu_conv2", bu_conv2.ptr());
    C3_n3 = register_module("C3_n3", CSPLayer(scaled(2 * kPyramidChannels[0], width), c1, n, false, depthwise));
    bu_conv1 = make_conv(c1, c1, 3, 2, depthwise);
    register_module("bu_conv1", bu_conv1.ptr());
    C3_n4 = register_module("C3_n4", CSPLayer(scaled(2 * kPyramidChannels[1], width), c2, n, false, depthwise));
}

std::array<torch::Tensor, 3> PAFPNImpl::forward(const torch::Tensor& x) {
    const auto [x2, x1, x0] = backbone(x);
    torch::Tensor fpn_out0 = lateral_conv0(x0);
    torch::Tensor f_out0 = C3_p4(torch::cat({upsample2x(fpn_out0), x1}, 1));
    torch::Tensor fpn_out1 = reduce_conv1(f_out0);
    torch::Tensor pan_out2 = C3_p3(torch::cat({upsample2x(fpn_out1), x2}, 1));
    torch::Tensor pan_out1 = C3_n3(torch::cat({bu_conv2.forward(pan_out2), fpn_out1}, 1));
    torch::Tensor pan_out0 = C3_n4(torch::cat({bu_conv1.forward(pan_out1), fpn_out0}, 1));
    return {pan_out2, pan_out1, pan_out0};
}

HeadImpl::HeadImpl(int64_t nc, double width, bool depthwise) : nc_(nc) {
    const int64_t hidden = scaled(256, width);
    stems = register_module("stems", torch::nn::ModuleList());
    cls_convs = register_module("cls_convs", torch::nn::ModuleList());
    reg_convs = register_module("reg_convs", torch::nn::ModuleList());
    cls_preds = register_module("cls_preds", torch::nn::ModuleList());
    reg_preds = register_module("reg_preds", torch::nn::ModuleList());
    obj_preds = register_module("obj_preds", torch::nn::ModuleList());
    for (int64_t channels : kPyramidChannels) {
        stems->push_back(Conv(ConvOptions(scaled(channels, width), hidden, 1)));
        for (auto* towers : {&cls_convs, &reg_convs})
            (*towers)->push_back(torch::nn::Sequential(make_conv(hidden, hidden, 3, 1, depthwise),
                                                       make_conv(hidden, hidden, 3, 1, depthwise)));
        cls_preds->push_back(prediction_conv(hidden, nc));
        reg_preds->push_back(prediction_conv(hidden, 4));
        obj_preds->push_back(prediction_conv(hidden, 1));
    }
}

HeadImpl::LevelOutputs HeadImpl::run_level(size_t level, const torch::Tensor& feature) {
    torch::Tensor x = stems[level]->as<ConvImpl>()->forward(feature);
    torch::Tensor cls_feat = cls_convs[level]->as<torch::nn::SequentialImpl>()->forward(x);
    torch::Tensor reg_feat = reg_convs[level]->as<torch::nn::SequentialImpl>()->forward(x);
    return {run_pred(reg_preds, level, reg_feat), run_pred(obj_preds, level, reg_feat),
            run_pred(cls_preds, level, cls_feat)};
}

std::vector<torch::Tensor> HeadImpl::forward_levels(const std::array<torch::Tensor, 3>& features) {
    std::vector<torch::Tensor> levels;
    for (size_t k = 0; k < features.size(); ++k) {
        const LevelOutputs o = run_level(k, features[k]);
        levels.push_back(torch::cat({o.box, o.obj.sigmoid(), o.cls.sigmoid()}, 1));
    }
    return levels;
}

torch::Tensor HeadImpl::decode(const std::vector<torch::Tensor>& levels) const {
    std::vector<torch::Tensor> flat, grids, strides;
    for (size_t k = 0; k < levels.size(); ++k) {
        const torch::Tensor& level = levels[k];
        const int64_t b = level.size(0), c = level.size(1), h = level.size(2), w = level.size(3);
        flat.push_back(level.view({b, c, -1}).permute({0, 2, 1}));
        const auto opts = level.options();
        grids.push_back(cell_grid(h, w, opts));
        strides.push_back(torch::full({1, h * w, 1}, static_cast<double>(kStrides[k]), opts));
    }
    torch::Tensor out = torch::cat(flat, 1);
    const torch::Tensor grid = torch::cat(grids, 1), stride = torch::cat(strides, 1);
    const torch::Tensor centre = (out.index({Ellipsis, Slice(0, 2)}) + grid) * stride;
    const torch::Tensor size = torch::exp(out.index({Ellipsis, Slice(2, 4)})) * stride;
    const torch::Tensor half = size / 2;
    const torch::Tensor scores =
        out.index({Ellipsis, Slice(4, 5)}) * out.index({Ellipsis, Slice(5, torch::indexing::None)});
    return torch::cat({centre - half, centre + half, scores}, -1).transpose(1, 2);
}

void set_anchor_grid(TrainMaps& maps, const LevelSizes& levels, const torch::TensorOptions& opts) {
    std::vector<torch::Tensor> xs, ys, strides;
    for (size_t k = 0; k < levels.size(); ++k) {
        const auto [h, w] = levels[k];
        const torch::Tensor grid = cell_grid(h, w, opts);
        xs.push_back(grid.index({Slice(), Slice(), 0}));
        ys.push_back(grid.index({Slice(), Slice(), 1}));
        strides.push_back(torch::full({1, h * w}, static_cast<double>(kStrides[k]), opts));
    }
    maps.x_shifts = torch::cat(xs, 1);
    maps.y_shifts = torch::cat(ys, 1);
    maps.strides = torch::cat(strides, 1);
}

LevelSizes level_sizes(int64_t height, int64_t width) {
    LevelSizes levels;
    for (size_t k = 0; k < levels.size(); ++k) levels[k] = {height / kStrides[k], width / kStrides[k]};
    return levels;
}

TrainMaps HeadImpl::train_maps(const std::array<torch::Tensor, 3>& features, bool with_raw_box) {
    std::vector<torch::Tensor> outputs, raw;
    LevelSizes levels;
    for (size_t k = 0; k < features.size(); ++k) {
        const LevelOutputs o = run_level(k, features[k]);
        const int64_t b = o.box.size(0), h = o.box.size(2), w = o.box.size(3);
        levels[k] = {h, w};
        // (B, 5 + nc, H, W) → (B, H·W, 5 + nc), LibreYOLO's get_output_and_grid.
        torch::Tensor out = torch::cat({o.box, o.obj, o.cls}, 1).permute({0, 2, 3, 1}).reshape({b, h * w, -1});
        const torch::Tensor grid = cell_grid(h, w, o.box.options());
        const double stride = static_cast<double>(kStrides[k]);
        out = torch::cat({(out.index({Ellipsis, Slice(0, 2)}) + grid) * stride,
                          torch::exp(out.index({Ellipsis, Slice(2, 4)})) * stride,
                          out.index({Ellipsis, Slice(4, torch::indexing::None)})},
                         -1);
        outputs.push_back(out);
        if (with_raw_box) raw.push_back(o.box.permute({0, 2, 3, 1}).reshape({b, h * w, 4}));
    }
    TrainMaps m;
    m.outputs = torch::cat(outputs, 1);
    set_anchor_grid(m, levels, m.outputs.options());
    if (with_raw_box) m.raw_box = torch::cat(raw, 1);
    return m;
}

YOLOXImpl::YOLOXImpl(const std::string& size, int64_t nc) {
    const SizeConfig cfg = size_config(size);
    backbone = register_module("backbone", PAFPN(cfg.depth, cfg.width, cfg.depthwise));
    head = register_module("head", Head(nc, cfg.width, cfg.depthwise));
}

torch::Tensor YOLOXImpl::to_network_pixels(const torch::Tensor& images) {
    return images.flip({1}).mul(255);
}

std::array<torch::Tensor, 3> YOLOXImpl::features(const torch::Tensor& images) {
    return backbone(to_network_pixels(images));
}

torch::Tensor YOLOXImpl::forward(const torch::Tensor& images) {
    return head->decode(head->forward_levels(features(images)));
}

}  // namespace libreyolo::models::yolox
