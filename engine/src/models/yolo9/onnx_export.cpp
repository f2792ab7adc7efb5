// YOLOv9 as ONNX nodes, module by module, from the fused copy's parameters (BatchNorm folded into
// each convolution, RepConvN's branches merged): the same operations as forward(), in opset-13
// operators, each value named after its module's state_dict path.
#include <functional>

#include "libreyolo/errors.h"
#include "models/yolo9/yolo9.h"
#include "onnx/layers.h"
#include "onnx/onnx_graph.h"

namespace libreyolo::models::yolo9 {

using onnx::Attribute;
using onnx::Graph;

namespace {

std::vector<int64_t> pads_of(const kernels::ConvGeometry& g) {
    return {g.padding[0], g.padding[1], g.padding[0], g.padding[1]};
}

std::string convolution(Graph& g, const std::string& name, const std::string& x, const torch::Tensor& weight,
                        const torch::Tensor& bias, const kernels::ConvGeometry& geometry) {
    std::vector<std::string> inputs{x, g.weight(name + ".weight", weight)};
    if (bias.defined()) inputs.push_back(g.weight(name + ".bias", bias));
    return g.op("Conv", inputs, name,
                {{"kernel_shape", std::vector<int64_t>{weight.size(2), weight.size(3)}},
                 {"strides", geometry.stride},
                 {"pads", pads_of(geometry)},
                 {"dilations", geometry.dilation},
                 {"group", geometry.groups}});
}

std::string conv(Graph& g, const ConvImpl& c, const std::string& name, const std::string& x) {
    if (!c.folded()) throw Error("ONNX export: " + name + " is not folded (export runs on the fused copy)");
    const std::string y = convolution(g, name + ".conv", x, c.conv->weight, c.conv->bias, *c.folded_geometry());
    return c.activation() == kernels::ConvActivation::SiLU ? onnx::silu(g, y, name) : y;
}

std::string rep_conv(Graph& g, const RepConvNImpl& r, const std::string& name, const std::string& x) {
    if (!r.merged_geometry()) throw Error("ONNX export: " + name + " is not merged (export runs on the fused copy)");
    return onnx::silu(g, convolution(g, name + ".merged", x, r.merged_weight(), r.merged_bias(), *r.merged_geometry()),
                      name);
}

std::string bottleneck(Graph& g, const RepNBottleneckImpl& b, const std::string& name, const std::string& x) {
    const std::string y = conv(g, *b.cv2, name + ".cv2", rep_conv(g, *b.cv1, name + ".cv1", x));
    return b.residual() ? g.op("Add", {x, y}, name + ".add") : y;
}

std::string rep_ncsp(Graph& g, const RepNCSPImpl& r, const std::string& name, const std::string& x) {
    std::string a = conv(g, *r.cv1, name + ".cv1", x);
    for (std::size_t i = 0; i < r.m->size(); ++i)
        a = bottleneck(g, *r.m->ptr<RepNBottleneckImpl>(i), name + ".m." + std::to_string(i), a);
    const std::string b = conv(g, *r.cv2, name + ".cv2", x);
    return conv(g, *r.cv3, name + ".cv3", g.op("Concat", {a, b}, name + ".cat", {{"axis", int64_t{1}}}));
}

// Channels [begin, end) of x.
std::string channels(Graph& g, const std::string& x, int64_t begin, int64_t end, const std::string& name) {
    return onnx::slice(g, x, 1, begin, end, name);
}

int64_t out_channels(const ConvImpl& c) {
    return c.conv->weight.size(0);
}

// ELAN and RepNCSPELAN: cv1's output, then two branches on its second half, concatenated (torch's
// chunk then cat of both halves is cv1's output itself).
template <class Branch>
std::string elan(Graph& g, const ConvImpl& cv1, const ConvImpl& cv4, const std::string& name, const std::string& x,
                 const Branch& second, const Branch& third) {
    const std::string y = conv(g, cv1, name + ".cv1", x);
    const int64_t c = out_channels(cv1);
    const std::string y2 = second(channels(g, y, c / 2, c, name + ".half"));
    const std::string y3 = third(y2);
    return conv(g, cv4, name + ".cv4", g.op("Concat", {y, y2, y3}, name + ".cat", {{"axis", int64_t{1}}}));
}

std::string elan_block(Graph& g, const std::shared_ptr<torch::nn::Module>& block, const std::string& name,
                       const std::string& x) {
    using Step = std::function<std::string(const std::string&)>;
    if (const auto e = std::dynamic_pointer_cast<ELANImpl>(block))
        return elan<Step>(
            g, *e->cv1, *e->cv4, name, x, [&](const std::string& v) { return conv(g, *e->cv2, name + ".cv2", v); },
            [&](const std::string& v) { return conv(g, *e->cv3, name + ".cv3", v); });
    const auto r = std::dynamic_pointer_cast<RepNCSPELANImpl>(block);
    auto sequence = [&](const torch::nn::Sequential& s, const std::string& path) {
        return Step([&g, s, path](const std::string& v) {
            return conv(g, *s->ptr<ConvImpl>(1), path + ".1", rep_ncsp(g, *s->ptr<RepNCSPImpl>(0), path + ".0", v));
        });
    };
    return elan<Step>(g, *r->cv1, *r->cv4, name, x, sequence(r->cv2, name + ".cv2"), sequence(r->cv3, name + ".cv3"));
}

// avg_pool2d(x, 2, 1, 0, ceil_mode=False, count_include_pad=True).
std::string smooth(Graph& g, const std::string& x, const std::string& name) {
    return g.op("AveragePool", {x}, name + ".avgpool",
                {{"kernel_shape", std::vector<int64_t>{2, 2}},
                 {"strides", std::vector<int64_t>{1, 1}},
                 {"pads", std::vector<int64_t>{0, 0, 0, 0}},
                 {"count_include_pad", int64_t{1}}});
}

std::string max_pool(Graph& g, const std::string& x, int64_t kernel, int64_t stride, int64_t pad,
                     const std::string& name) {
    return g.op("MaxPool", {x}, name,
                {{"kernel_shape", std::vector<int64_t>{kernel, kernel}},
                 {"strides", std::vector<int64_t>{stride, stride}},
                 {"pads", std::vector<int64_t>{pad, pad, pad, pad}}});
}

std::string downsample(Graph& g, const std::shared_ptr<DownsampleImpl>& block, const std::string& name,
                       const std::string& x) {
    if (const auto a = std::dynamic_pointer_cast<AConvImpl>(block))
        return conv(g, *a->cv, name + ".cv", smooth(g, x, name));
    const auto d = std::dynamic_pointer_cast<ADownImpl>(block);
    const std::string s = smooth(g, x, name);
    const int64_t half = d->cv1->conv->weight.size(1);
    const std::string a = conv(g, *d->cv1, name + ".cv1", channels(g, s, 0, half, name + ".first_half"));
    const std::string b =
        conv(g, *d->cv2, name + ".cv2",
             max_pool(g, channels(g, s, half, 2 * half, name + ".second_half"), 3, 2, 1, name + ".maxpool"));
    return g.op("Concat", {a, b}, name + ".cat", {{"axis", int64_t{1}}});
}

std::string spp_elan(Graph& g, const SPPELANImpl& s, const std::string& name, const std::string& x) {
    std::vector<std::string> features{conv(g, *s.cv1, name + ".cv1", x)};
    for (int i = 0; i < 3; ++i)
        features.push_back(max_pool(g, features.back(), 5, 1, 2, name + ".pool" + std::to_string(i)));
    return conv(g, *s.cv5, name + ".cv5", g.op("Concat", features, name + ".cat", {{"axis", int64_t{1}}}));
}

std::string concat(Graph& g, const std::vector<std::string>& parts, int64_t axis, const std::string& name) {
    return g.op("Concat", parts, name, {{"axis", axis}});
}

}  // namespace

std::string DDetectImpl::emit_onnx(Graph& g, const std::array<std::string, 3>& features,
                                   const std::array<std::pair<int64_t, int64_t>, 3>& sizes) {
    std::vector<std::string> levels;
    std::vector<torch::Tensor> shapes;  // empty maps of the levels' sizes, for the anchor grid
    const auto options = box_towers_[0].out->weight.options();
    for (std::size_t i = 0; i < features.size(); ++i) {
        auto tower = [&](const Tower& t, const std::string& path) {
            const std::string y = conv(g, *t.second, path + ".1", conv(g, *t.first, path + ".0", features[i]));
            return convolution(g, path + ".2", y, t.out->weight, t.out->bias, kernels::conv_geometry(*t.out));
        };
        const std::string level = concat(g,
                                         {tower(box_towers_[i], "head.cv2." + std::to_string(i)),
                                          tower(class_towers_[i], "head.cv3." + std::to_string(i))},
                                         1, "head.level" + std::to_string(i));
        // flatten(2): (B, C, H·W), the batch left as it comes.
        levels.push_back(g.op("Reshape",
                              {level, g.constant("head.level" + std::to_string(i) + ".shape",
                                                 torch::tensor({int64_t{0}, 4 * reg_max_ + nc_, int64_t{-1}}))},
                              "head.level" + std::to_string(i) + ".flat"));
        shapes.push_back(torch::empty({1, 1, sizes[i].first, sizes[i].second}, options));
    }
    const std::string all = concat(g, levels, 2, "head.cat");
    const kernels::DflAnchors grid = anchor_grid(shapes);
    const int64_t anchors = grid.points.size(2);
    const std::string dist = channels(g, all, 0, 4 * reg_max_, "head.dist");
    const std::string logits = channels(g, all, 4 * reg_max_, 4 * reg_max_ + nc_, "head.logits");
    // DFL: softmax over each side's reg_max bins, then the expectation Σ p·bin.
    const std::string bins = g.op(
        "Reshape", {dist, g.constant("head.dfl.shape", torch::tensor({int64_t{0}, int64_t{4}, reg_max_, anchors}))},
        "head.dfl.bins");
    const std::string probabilities = g.op("Softmax", {bins}, "head.dfl.softmax", {{"axis", int64_t{2}}});
    const std::string weighted =
        g.op("Mul", {probabilities, g.weight("head.dfl.project", grid.project)}, "head.dfl.weighted");
    const std::string distances =
        g.op("ReduceSum", {weighted, g.constant("head.dfl.axes", torch::tensor({int64_t{2}}))}, "head.dfl.distances",
             {{"keepdims", int64_t{0}}});
    const std::string points = g.weight("head.anchor_points", grid.points);
    const std::string lt = channels(g, distances, 0, 2, "head.lt");
    const std::string rb = channels(g, distances, 2, 4, "head.rb");
    const std::string corners =
        concat(g, {g.op("Sub", {points, lt}, "head.top_left"), g.op("Add", {points, rb}, "head.bottom_right")}, 1,
               "head.corners");
    const std::string boxes = g.op("Mul", {corners, g.weight("head.strides", grid.strides)}, "head.boxes");
    const std::string scores = g.op("Sigmoid", {logits}, "head.scores");
    return concat(g, {boxes, scores}, 1, "head.output");
}

std::vector<nn::OnnxOutput> YOLO9Impl::emit_onnx(Graph& g, const std::string& images, int64_t height, int64_t width) {
    const BackboneImpl& b = *backbone;
    std::string y = conv(g, *b.conv1, "backbone.conv1", conv(g, *b.conv0, "backbone.conv0", images));
    y = elan_block(g, b.elan1, "backbone.elan1", y);
    const std::string p3 = elan_block(g, b.elan2.ptr(), "backbone.elan2", downsample(g, b.down2, "backbone.down2", y));
    const std::string p4 = elan_block(g, b.elan3.ptr(), "backbone.elan3", downsample(g, b.down3, "backbone.down3", p3));
    const std::string p5 =
        spp_elan(g, *b.spp, "backbone.spp",
                 elan_block(g, b.elan4.ptr(), "backbone.elan4", downsample(g, b.down4, "backbone.down4", p4)));
    const NeckImpl& n = *neck;
    const std::string n4 = elan_block(g, n.elan_up1.ptr(), "neck.elan_up1",
                                      concat(g, {onnx::upsample_nearest2x(g, p5, "neck.up1"), p4}, 1, "neck.cat_up1"));
    const std::string out3 =
        elan_block(g, n.elan_up2.ptr(), "neck.elan_up2",
                   concat(g, {onnx::upsample_nearest2x(g, n4, "neck.up2"), p3}, 1, "neck.cat_up2"));
    const std::string out4 =
        elan_block(g, n.elan_down1.ptr(), "neck.elan_down1",
                   concat(g, {downsample(g, n.down1, "neck.down1", out3), n4}, 1, "neck.cat_down1"));
    const std::string out5 =
        elan_block(g, n.elan_down2.ptr(), "neck.elan_down2",
                   concat(g, {downsample(g, n.down2, "neck.down2", out4), p5}, 1, "neck.cat_down2"));
    const std::array<std::pair<int64_t, int64_t>, 3> sizes{
        std::pair{height / 8, width / 8}, std::pair{height / 16, width / 16}, std::pair{height / 32, width / 32}};
    int64_t anchors = 0;
    for (const auto& [h, w] : sizes) anchors += h * w;
    return {{head->emit_onnx(g, {out3, out4, out5}, sizes), "output", {4 + head->nc(), anchors}}};
}

}  // namespace libreyolo::models::yolo9
