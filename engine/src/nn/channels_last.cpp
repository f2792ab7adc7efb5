#include "nn/channels_last.h"

namespace libreyolo::nn {

void to_channels_last(torch::nn::Module& net) {
    torch::NoGradGuard no_grad;
    auto convert = [](torch::Tensor& t) {
        if (t.defined() && t.dim() == 4) t.set_data(t.contiguous(torch::MemoryFormat::ChannelsLast));
    };
    for (auto& p : net.parameters(/*recurse=*/true)) convert(p);
    for (auto& b : net.buffers(/*recurse=*/true)) convert(b);
}

}  // namespace libreyolo::nn
