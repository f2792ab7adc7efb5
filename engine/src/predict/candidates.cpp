#include "predict/candidates.h"

#include "libreyolo/errors.h"

namespace libreyolo::predict {

PackedCandidates::PackedCandidates(const torch::Tensor& packed) : packed_(packed) {
    using kernels::CandidateLayout;
    if (packed.dim() != 1 || packed.scalar_type() != torch::kInt32 || packed.numel() < CandidateLayout::kHeaderWords)
        throw Error("candidates: not a decode_topk result (" + c10::str(packed.sizes()) + ")");
    const torch::Tensor header = packed.narrow(0, 0, CandidateLayout::kHeaderWords).to(torch::kCPU);
    layout_.anchors = header[0].item<int32_t>();
    layout_.classes = header[1].item<int32_t>();
    layout_.batch = header[2].item<int32_t>();
    if (layout_.anchors < 1 || layout_.classes < 1 || layout_.batch < 1 || layout_.words() != packed.numel())
        throw Error("candidates: header (" + std::to_string(layout_.anchors) + " anchors, " +
                    std::to_string(layout_.classes) + " classes, batch " + std::to_string(layout_.batch) +
                    ") does not match " + std::to_string(packed.numel()) + " words");
    const torch::Tensor counts = packed.narrow(0, layout_.count_word(0), layout_.batch).to(torch::kCPU);
    for (int64_t i = 0; i < layout_.batch; ++i) {
        const int64_t n = counts[i].item<int32_t>();
        if (n < 0 || n > layout_.anchors * layout_.classes)
            throw Error("candidates: image " + std::to_string(i) + " has a count of " + std::to_string(n));
        counts_.push_back(n);
    }
}

PackedCandidates::Selected PackedCandidates::select(int64_t image, const torch::Device& device) const {
    const int64_t n = count(image);
    const torch::Tensor pairs = packed_.narrow(0, layout_.pairs_begin(image), 2 * n).to(device).view({n, 2});
    const torch::Tensor index = pairs.select(1, 0).to(torch::kInt64);
    const torch::Tensor anchor = index.div(layout_.classes, "floor");
    Selected s;
    s.conf = pairs.select(1, 1).view(torch::kFloat32);
    s.class_ids = index.remainder(layout_.classes);
    if (n == 0) {
        s.boxes = torch::empty({0, 4}, s.conf.options());
        return s;
    }
    // Pairs come in anchor order: the boxes between the first and the last anchor are all it needs.
    const int64_t first = anchor[0].item<int64_t>(), last = anchor[n - 1].item<int64_t>();
    if (first < 0 || last >= layout_.anchors || last < first)
        throw Error("candidates: image " + std::to_string(image) + " names anchors " + std::to_string(first) + " to " +
                    std::to_string(last) + " of " + std::to_string(layout_.anchors));
    const torch::Tensor boxes = packed_.narrow(0, layout_.boxes_begin(image) + 4 * first, 4 * (last - first + 1))
                                    .to(device)
                                    .view(torch::kFloat32)
                                    .view({-1, 4});
    s.boxes = boxes.index_select(0, anchor - first);
    return s;
}

std::vector<Detection> PackedCandidates::detections(int64_t image, const PostprocessOptions& o) const {
    const int64_t n = count(image);
    if (n == 0) return {};
    const torch::Device where = n <= kHostCandidates ? torch::Device(torch::kCPU) : packed_.device();
    Selected s = select(image, where);
    return detections_of_candidates(std::move(s.boxes), std::move(s.conf), std::move(s.class_ids), o);
}

}  // namespace libreyolo::predict
