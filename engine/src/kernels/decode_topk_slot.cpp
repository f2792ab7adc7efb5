#include "kernels/decode_topk_slot.h"

#include <limits>

#include "kernels/dfl_decode.h"
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
#include "kernels/cuda/decode_topk_cuda.h"
#include "kernels/in_tree_cuda.h"
#endif

namespace libreyolo::kernels {

CandidateLayout candidate_layout(const std::vector<torch::Tensor>& levels, const DflHead& head) {
    if (levels.empty() || levels.size() != head.strides.size())
        throw InvalidArgument("decode_topk: " + std::to_string(levels.size()) + " level maps for " +
                              std::to_string(head.strides.size()) + " strides");
    CandidateLayout layout;
    layout.batch = levels[0].size(0);
    layout.classes = head.classes;
    for (const torch::Tensor& level : levels) {
        if (level.dim() != 4 || level.size(0) != layout.batch || level.size(1) != 4 * head.reg_max + head.classes ||
            level.scalar_type() != levels[0].scalar_type() || level.device() != levels[0].device())
            throw InvalidArgument("decode_topk: level maps must be (B, 4·reg_max + classes, H, W) = (" +
                                  std::to_string(layout.batch) + ", " +
                                  std::to_string(4 * head.reg_max + head.classes) +
                                  ", H, W), one dtype and device; got " + c10::str(level.sizes()));
        layout.anchors += level.size(2) * level.size(3);
    }
    // Pair indices are int32, and so are the word offsets the host reads.
    if (layout.anchors * layout.classes > std::numeric_limits<int32_t>::max() ||
        layout.words() > std::numeric_limits<int32_t>::max())
        throw InvalidArgument("decode_topk: " + std::to_string(layout.anchors) + " anchors × " +
                              std::to_string(layout.classes) + " classes × batch " + std::to_string(layout.batch) +
                              " is too many candidates for int32 offsets");
    return layout;
}

torch::Tensor decode_topk_reference(const std::vector<torch::Tensor>& levels, const DflHead& head, double conf) {
    const CandidateLayout layout = candidate_layout(levels, head);
    const int64_t batch = layout.batch, anchors = layout.anchors, pairs = anchors * layout.classes;
    std::vector<torch::Tensor> maps;
    for (const torch::Tensor& level : levels) maps.push_back(level.to(torch::kFloat32));
    const torch::Tensor decoded =
        kernels::dfl_decode(maps, kernels::dfl_anchors(maps, head.strides, head.reg_max), head.reg_max, head.classes);

    const auto int32 = levels[0].options().dtype(torch::kInt32);
    torch::Tensor packed = torch::zeros({layout.words()}, int32);
    packed.narrow(0, 0, 1).fill_(anchors);
    packed.narrow(0, 1, 1).fill_(layout.classes);
    packed.narrow(0, 2, 1).fill_(batch);
    const torch::Tensor images =
        packed.narrow(0, layout.images_begin(), batch * layout.image_words()).view({batch, layout.image_words()});
    images.narrow(1, 0, 4 * anchors)
        .view(torch::kFloat32)
        .view({batch, anchors, 4})
        .copy_(decoded.narrow(1, 0, 4).transpose(1, 2));

    // Row-major (anchor, class), LibreYOLO's nonzero order: a pair's place is the number of pairs
    // above conf before it; the others go to one spare slot past the end, dropped.
    const torch::Tensor scores = decoded.narrow(1, 4, layout.classes).transpose(1, 2).reshape({batch, pairs});
    const torch::Tensor above = scores > conf;
    packed.narrow(0, layout.count_word(0), batch).copy_(above.sum(1));
    const torch::Tensor place = torch::where(above, above.cumsum(1) - 1, pairs);
    const torch::Tensor index = torch::arange(pairs, int32).expand({batch, pairs});
    const torch::Tensor indices = torch::zeros({batch, pairs + 1}, int32).scatter_(1, place, index);
    const torch::Tensor bits = torch::zeros({batch, pairs + 1}, int32).scatter_(1, place, scores.view(torch::kInt32));
    const torch::Tensor pair_view = images.narrow(1, 4 * anchors, 2 * pairs).view({batch, pairs, 2});
    pair_view.select(2, 0).copy_(indices.narrow(1, 0, pairs));
    pair_view.select(2, 1).copy_(bits.narrow(1, 0, pairs));
    return packed;
}

Slot<DecodeTopkSignature>& decode_topk_slot() {
    static Slot<DecodeTopkSignature>& slot = []() -> Slot<DecodeTopkSignature>& {
        static Slot<DecodeTopkSignature> s("decode_topk",
                                           "DFL head maps -> decoded boxes and the (anchor, class) candidates over "
                                           "conf, in nonzero order, packed: (levels, head, conf) -> int32 candidates",
                                           &decode_topk_reference);
#ifdef LIBREYOLO_HAVE_CUDA_KERNELS
        register_in_tree_cuda(s, "cuda", &cuda::decode_topk, &cuda::decode_topk_accepts);
#endif
        return s;
    }();
    return slot;
}

}  // namespace libreyolo::kernels
