#pragma once
// Reading a family's architecture off its tensor names and shapes (families' infer_spec).
#include <torch/torch.h>

#include <map>
#include <string>

namespace libreyolo::models {

// The first dimension of weights[key], or -1 when absent or a scalar.
inline int64_t first_dim(const std::map<std::string, torch::Tensor>& w, const std::string& key) {
    auto it = w.find(key);
    return it == w.end() || it->second.dim() == 0 ? -1 : it->second.size(0);
}

// Whether some key starts with prefix and contains infix after it.
inline bool has_key_with(const std::map<std::string, torch::Tensor>& w, const std::string& prefix,
                         const std::string& infix = "") {
    for (auto it = w.lower_bound(prefix); it != w.end() && it->first.starts_with(prefix); ++it)
        if (it->first.find(infix, prefix.size()) != std::string::npos) return true;
    return false;
}

}  // namespace libreyolo::models
