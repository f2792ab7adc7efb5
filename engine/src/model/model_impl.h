#pragma once
// What a libreyolo::Model holds. Internal: tests and engine code reach the network through it.
#include <torch/torch.h>

#include <optional>

#include "graphs/graph_runner.h"
#include "io/checkpoint.h"
#include "kernels/letterbox_slot.h"
#include "libreyolo/model.h"
#include "libreyolo/quantize.h"
#include "registry/network_spec.h"

namespace libreyolo {

struct KeptTrack;  // track/track_runner.cpp: the tracker that track(persist=true) continues

struct Model::Impl {
    nn::Detector net;
    registry::NetworkSpec spec;
    io::CheckpointMeta meta;  // names, imgsz and the other checkpoint fields
    torch::Device device{torch::kCPU};
    torch::Dtype dtype = torch::kFloat32;  // of the weights, and so of the input
    graphs::GraphRunner graphs;
    std::string source;  // weights file or "random init"
    bool pretrained = false;
    std::optional<QuantInfo> quant;       // set while the network's convolutions are quantized
    std::optional<bool> fused_attention;  // set_fused_attention's last choice, for the copy below
    // The inference copy with BatchNorm folded (Model::fuse), channels-last (its input too), built
    // on first use, with graphs of its own; dropped whenever the network changes.
    nn::Detector fused;
    int fused_blocks = 0;
    graphs::GraphRunner fused_graphs;
    std::shared_ptr<KeptTrack> kept_track;

    // The network's forward for an input already on the device and in the dtype, through the
    // model's graphs as mode says. With candidates_over (fuse only; has_fused_candidates), the fused
    // copy's forward ends in its candidate selection over that conf and returns the packed
    // candidates (kernels/decode_topk_slot.h): the graph's own tensor, valid until the next call.
    torch::Tensor forward(const torch::Tensor& input, GraphMode mode, bool fuse = false,
                          std::optional<float> candidates_over = std::nullopt);
    // The fused copy's forward from 8-bit pixels on the device ((B, 3, H, W) uint8, a channels-last
    // view of RGB rows): the letterbox slot, then the network (and the candidates, as forward),
    // recorded in one graph per pixel shape and canvas (and conf) when mode says so.
    torch::Tensor forward_pixels(const torch::Tensor& pixels, const kernels::InputCanvas& canvas, GraphMode mode,
                                 std::optional<float> candidates_over = std::nullopt);
    // Whether the fused forward can end in the candidate selection: a CUDA device and a family
    // with a candidate plan (nn::DetectorImpl::candidate_plan), unless LIBREYOLO_FUSED_CANDIDATES=0
    // (comparisons) says no.
    bool has_fused_candidates();
    nn::DetectorImpl& fused_network();  // builds the copy when there is none
    // The network changed (device, dtype, weights, attention, quantization): every graph goes,
    // and the fused copy with them.
    void network_changed();
    graphs::ForwardPlan forward_plan();  // the network's stages, as the graphs capture them
    graphs::GraphTarget graph_target() const;
    // The fused copy's plan, ending in the candidate selection when candidates_over is set (which
    // the target's task then names, so that each conf has its graphs).
    graphs::ForwardPlan fused_plan(std::optional<float> candidates_over, graphs::GraphTarget& target);
    static graphs::ReplayOutput replay_output(std::optional<float> candidates_over);
    int input_size(int imgsz) const;  // Model::input_size
};

}  // namespace libreyolo
