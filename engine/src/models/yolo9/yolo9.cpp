#include "models/yolo9/yolo9.h"

#include "graphs/concurrent_branches.h"
#include "kernels/decode_topk_slot.h"
#include "nn/flop_counter.h"

namespace libreyolo::models::yolo9 {

namespace F = torch::nn::functional;

namespace {

torch::Tensor upsample2x(const torch::Tensor& x) {
    return F::interpolate(
        x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{2.0, 2.0}).mode(torch::kNearest));
}

torch::Tensor forward_any(const std::shared_ptr<torch::nn::Module>& block, const torch::Tensor& x) {
    if (auto elan = std::dynamic_pointer_cast<ELANImpl>(block)) return elan->forward(x);
    return std::dynamic_pointer_cast<RepNCSPELANImpl>(block)->forward(x);
}

int64_t round_up(int64_t value, int64_t divisor) {
    return (value + divisor - 1) / divisor * divisor;
}

}  // namespace

BackboneImpl::BackboneImpl(const Config& cfg) {
    conv0 = register_module("conv0", Conv(ConvOptions(3, cfg.conv0_out, 3).stride(2)));
    conv1 = register_module("conv1", Conv(ConvOptions(cfg.conv0_out, cfg.conv1_out, 3).stride(2)));
    if (cfg.first_block_is_elan) {
        const int64_t part = cfg.first_block_out;
        elan1 =
            register_module("elan1", std::make_shared<ELANImpl>(cfg.conv1_out, part, part / 2, cfg.first_block_out));
    } else {
        const int64_t part = cfg.first_block_part;
        elan1 = register_module("elan1", std::make_shared<RepNCSPELANImpl>(cfg.conv1_out, part, part / 2,
                                                                           cfg.first_block_out, cfg.repeats));
    }
    int64_t previous = cfg.first_block_out;
    std::shared_ptr<DownsampleImpl>* downs[3] = {&down2, &down3, &down4};
    RepNCSPELAN* elans[3] = {&elan2, &elan3, &elan4};
    for (int i = 0; i < 3; ++i) {
        const Stage& st = cfg.stages[i];
        *downs[i] = register_module("down" + std::to_string(i + 2), make_downsample(cfg.adown, previous, st.down_out));
        *elans[i] = register_module("elan" + std::to_string(i + 2),
                                    RepNCSPELAN(st.down_out, st.part, st.part / 2, st.elan_out, cfg.repeats));
        previous = st.elan_out;
    }
    spp = register_module("spp", SPPELAN(previous, cfg.spp_out / 2, cfg.spp_out));
}

std::array<torch::Tensor, 3> BackboneImpl::forward(const torch::Tensor& x) {
    torch::Tensor y = forward_any(elan1, conv1(conv0(x)));
    torch::Tensor p3 = elan2(down2->forward(y));
    torch::Tensor p4 = elan3(down3->forward(p3));
    torch::Tensor p5 = spp(elan4(down4->forward(p4)));
    return {p3, p4, p5};
}

NeckImpl::NeckImpl(const Config& cfg) {
    const int64_t b3 = cfg.stages[0].elan_out, b4 = cfg.stages[1].elan_out, spp = cfg.spp_out;
    const int64_t n = cfg.repeats;
    auto elan = [n](int64_t in, const ElanWidth& w) { return RepNCSPELAN(in, w.part, w.part / 2, w.out, n); };
    elan_up1 = register_module("elan_up1", elan(spp + b4, cfg.neck_up1));
    elan_up2 = register_module("elan_up2", elan(cfg.neck_up1.out + b3, cfg.neck_up2));
    down1 = register_module("down1", make_downsample(cfg.adown, cfg.neck_up2.out, cfg.neck_down1_out));
    elan_down1 = register_module("elan_down1", elan(cfg.neck_down1_out + cfg.neck_up1.out, cfg.neck_down1));
    down2 = register_module("down2", make_downsample(cfg.adown, cfg.neck_down1.out, cfg.neck_down2_out));
    elan_down2 = register_module("elan_down2", elan(cfg.neck_down2_out + spp, cfg.neck_down2));
}

std::array<torch::Tensor, 3> NeckImpl::forward(const std::array<torch::Tensor, 3>& p) {
    torch::Tensor n4 = elan_up1(torch::cat({upsample2x(p[2]), p[1]}, 1));
    torch::Tensor out3 = elan_up2(torch::cat({upsample2x(n4), p[0]}, 1));
    torch::Tensor out4 = elan_down1(torch::cat({down1->forward(out3), n4}, 1));
    torch::Tensor out5 = elan_down2(torch::cat({down2->forward(out4), p[2]}, 1));
    return {out3, out4, out5};
}

DDetectImpl::DDetectImpl(int64_t nc, const std::array<int64_t, 3>& channels, int64_t class_hidden, int64_t reg_max)
    : nc_(nc), reg_max_(reg_max) {
    TORCH_CHECK(nc > 0, "nc must be positive, got ", nc);
    constexpr int64_t box_groups = 4;
    const int64_t box_out = 4 * reg_max;
    const int64_t box_hidden = std::max({round_up(channels[0] / 4, box_groups), box_out, reg_max});
    class_hidden_ = class_hidden > 0 ? class_hidden : std::max(channels[0], std::min<int64_t>(nc, 100));

    cv2 = register_module("cv2", torch::nn::ModuleList());
    cv3 = register_module("cv3", torch::nn::ModuleList());
    for (int64_t ch : channels) {
        Tower box{Conv(ConvOptions(ch, box_hidden, 3)), Conv(ConvOptions(box_hidden, box_hidden, 3).groups(box_groups)),
                  quant::QuantConv2d(torch::nn::Conv2dOptions(box_hidden, box_out, 1).groups(box_groups))};
        Tower cls{Conv(ConvOptions(ch, class_hidden_, 3)), Conv(ConvOptions(class_hidden_, class_hidden_, 3)),
                  quant::QuantConv2d(torch::nn::Conv2dOptions(class_hidden_, nc, 1))};
        {
            // Detection prior (MMT Detection.__init__): boxes start at 1, classes at -10.
            torch::NoGradGuard no_grad;
            box.out->bias.fill_(1.0);
            cls.out->bias.fill_(-10.0);
        }
        cv2->push_back(torch::nn::Sequential(box.first, box.second, box.out));
        cv3->push_back(torch::nn::Sequential(cls.first, cls.second, cls.out));
        box_towers_.push_back(box);
        class_towers_.push_back(cls);
    }
}

torch::Tensor DDetectImpl::Tower::forward(const torch::Tensor& x) {
    torch::Tensor y = out->forward(second->forward(first->forward(x)));
    nn::count_conv_flops(*out, y);
    return y;
}

// The last 1x1 convolution stays LibTorch's (convolution, then bias): through cuDNN's fused engines
// YOLOv9-t's float16 graph was slower, 1.67 against 1.59 ms at batch 1 and 3.24 against 2.72 ms at
// batch 8 (H200, cuDNN's first-ranked engines; docs/fuse-bench.md).
void DDetectImpl::Tower::forward_into(const torch::Tensor& x, const torch::Tensor& out_slice) {
    out_slice.copy_(forward(x));
}

std::vector<torch::Tensor> DDetectImpl::forward_raw_in_place(const std::array<torch::Tensor, 3>& features) {
    const int64_t box_channels = 4 * reg_max_;
    std::vector<torch::Tensor> raw;
    std::vector<graphs::Branch> towers;
    for (size_t i = 0; i < features.size(); ++i) {
        const torch::Tensor& x = features[i];
        raw.push_back(torch::empty({x.size(0), box_channels + nc_, x.size(2), x.size(3)},
                                   x.options().memory_format(torch::MemoryFormat::ChannelsLast)));
        const torch::Tensor box = raw.back().slice(1, 0, box_channels), cls = raw.back().slice(1, box_channels);
        towers.push_back([this, i, &x, box] {
            box_towers_[i].forward_into(x, box);
            return torch::Tensor();
        });
        towers.push_back([this, i, &x, cls] {
            class_towers_[i].forward_into(x, cls);
            return torch::Tensor();
        });
    }
    graphs::run_concurrently(features[0].device(), towers);
    return raw;
}

std::vector<torch::Tensor> DDetectImpl::forward_raw(const std::array<torch::Tensor, 3>& features) {
    if (box_towers_[0].first->folded()) return forward_raw_in_place(features);
    std::vector<torch::Tensor> raw;
    for (size_t i = 0; i < features.size(); ++i)
        raw.push_back(torch::cat({box_towers_[i].forward(features[i]), class_towers_[i].forward(features[i])}, 1));
    return raw;
}

kernels::DflAnchors DDetectImpl::anchor_grid(const std::vector<torch::Tensor>& raw) {
    std::vector<int64_t> sizes;
    for (const torch::Tensor& level : raw) sizes.insert(sizes.end(), {level.size(2), level.size(3)});
    const std::vector<torch::Tensor> grid = anchor_grids_.get(ConstantTableCache::key(raw[0], sizes), [&] {
        const kernels::DflAnchors a = kernels::dfl_anchors(raw, dfl_head().strides, reg_max_);
        return std::vector<torch::Tensor>{a.points, a.strides, a.project};
    });
    return {grid[0], grid[1], grid[2]};
}

torch::Tensor DDetectImpl::decode(const std::vector<torch::Tensor>& raw) {
    return kernels::dfl_decode(raw, anchor_grid(raw), reg_max_, nc_);
}

kernels::DflHead DDetectImpl::dfl_head() const {
    return {std::vector<double>(strides_.begin(), strides_.end()), reg_max_, nc_};
}

YOLO9Impl::YOLO9Impl(const std::string& size, int64_t nc, int64_t class_hidden) : size_(size) {
    const Config& cfg = config_for(size);
    backbone = register_module("backbone", Backbone(cfg));
    neck = register_module("neck", Neck(cfg));
    head = register_module("head", DDetect(nc, cfg.head_channels, class_hidden));
}

std::vector<torch::Tensor> YOLO9Impl::forward_raw(const torch::Tensor& images) {
    return head->forward_raw(neck(backbone(images)));
}

torch::Tensor YOLO9Impl::forward(const torch::Tensor& images) {
    return head->decode(forward_raw(images));
}

graphs::ForwardPlan YOLO9Impl::candidate_plan(float conf) {
    return graphs::single_stage_plan([this, conf](const torch::Tensor& images) {
        return kernels::decode_topk_slot()(forward_raw(images), head->dfl_head(), conf);
    });
}

}  // namespace libreyolo::models::yolo9
