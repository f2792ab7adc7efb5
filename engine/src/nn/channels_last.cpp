#include "nn/channels_last.h"

namespace libreyolo::nn {

int to_channels_last(torch::nn::Module& net) {
    torch::NoGradGuard no_grad;
    int changed = 0;
    auto convert = [&changed](torch::Tensor& t) {
        if (!t.defined() || t.dim() != 4 || t.is_contiguous(torch::MemoryFormat::ChannelsLast)) return;
        t.set_data(t.contiguous(torch::MemoryFormat::ChannelsLast));
        ++changed;
    };
    for (auto& p : net.parameters(/*recurse=*/true)) convert(p);
    for (auto& b : net.buffers(/*recurse=*/true)) convert(b);
    return changed;
}

}  // namespace libreyolo::nn
