#include "io/checkpoint.h"

#include <nlohmann/json.hpp>

#include <sstream>

#include "core/shape_text.h"
#include "libreyolo/errors.h"

namespace libreyolo::io {
namespace {

// First few names of a list, then how many more: errors stay readable for 1,338-key models.
std::string first_names(const std::vector<std::string>& keys, std::size_t shown = 5) {
    std::string out;
    for (std::size_t i = 0; i < keys.size() && i < shown; ++i) out += (i ? ", " : "") + keys[i];
    if (keys.size() > shown) out += " … and " + std::to_string(keys.size() - shown) + " more";
    return out;
}

int parse_int_field(const std::map<std::string, std::string>& md, const std::string& key, const std::string& source) {
    const std::string& text = md.at(key);
    try {
        std::size_t used = 0;
        const int value = std::stoi(text, &used);
        if (used != text.size() || value < 0) throw std::invalid_argument(text);
        return value;
    } catch (const std::exception&) {
        throw FormatError(source + ": checkpoint field '" + key + "' is '" + text + "', not a non-negative integer");
    }
}

}  // namespace

std::vector<std::string> default_names(int nc) {
    std::vector<std::string> names;
    for (int i = 0; i < nc; ++i) names.push_back("class_" + std::to_string(i));
    return names;
}

std::map<std::string, std::string> to_metadata(const CheckpointMeta& meta) {
    nlohmann::json names = nlohmann::json::object();
    for (std::size_t i = 0; i < meta.names.size(); ++i) names[std::to_string(i)] = meta.names[i];
    return {{"format", "pt"},  // what safetensors' own loaders expect to find
            {"schema_version", meta.schema_version},
            {"libreyolo_version", meta.libreyolo_version},
            {"model_family", meta.model_family},
            {"size", meta.size},
            {"task", meta.task},
            {"nc", std::to_string(meta.nc)},
            {"names", names.dump()},
            {"imgsz", std::to_string(meta.imgsz)}};
}

CheckpointMeta from_metadata(const std::map<std::string, std::string>& md, const std::string& source) {
    CheckpointMeta meta;
    auto get = [&](const char* key, std::string& out) {
        if (auto it = md.find(key); it != md.end()) out = it->second;
    };
    get("schema_version", meta.schema_version);
    get("libreyolo_version", meta.libreyolo_version);
    get("model_family", meta.model_family);
    get("size", meta.size);
    get("task", meta.task);
    meta.nc = md.count("nc") ? parse_int_field(md, "nc", source) : 0;
    // Absent: 0, and Model::load takes the family's default for the size (YOLOX-n's is 416).
    meta.imgsz = md.count("imgsz") ? parse_int_field(md, "imgsz", source) : 0;
    if (auto it = md.find("names"); it != md.end()) {
        nlohmann::json names;
        try {
            names = nlohmann::json::parse(it->second);
        } catch (const nlohmann::json::exception&) {
            throw FormatError(source + ": checkpoint field 'names' is not JSON");
        }
        if (names.is_array()) {
            for (const auto& n : names) {
                if (!n.is_string()) throw FormatError(source + ": checkpoint field 'names' holds a non-string name");
                meta.names.push_back(n.get<std::string>());
            }
        } else if (names.is_object()) {
            std::map<int, std::string> by_index;
            for (auto n = names.begin(); n != names.end(); ++n) {
                int index = -1;
                try {
                    index = std::stoi(n.key());
                } catch (const std::exception&) {
                }
                if (index < 0 || !n.value().is_string())
                    throw FormatError(source + ": checkpoint field 'names' has entry '" + n.key() +
                                      "' that is not index → name");
                by_index[index] = n.value().get<std::string>();
            }
            const int count = by_index.empty() ? 0 : by_index.rbegin()->first + 1;
            meta.names = default_names(count);
            for (const auto& [i, n] : by_index) meta.names[i] = n;
        } else {
            throw FormatError(source + ": checkpoint field 'names' is neither a list nor a dict");
        }
    }
    return meta;
}

std::map<std::string, torch::Tensor> state_dict(const torch::nn::Module& module) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& p : module.named_parameters(/*recurse=*/true)) out[p.key()] = p.value();
    for (const auto& b : module.named_buffers(/*recurse=*/true)) out[b.key()] = b.value();
    return out;
}

void load_state_dict(torch::nn::Module& module, const std::map<std::string, torch::Tensor>& weights,
                     const std::string& source) {
    std::map<std::string, torch::Tensor> target = state_dict(module);
    std::vector<std::string> missing, unexpected, mismatched;
    for (const auto& [key, tensor] : target) {
        auto it = weights.find(key);
        // A BatchNorm's step counter may be absent, as PyTorch's BatchNorm loading allows: LibreYOLO's
        // RT-DETR-r50 checkpoints have FrozenBatchNorm2d in the backbone, which has none.
        if (it == weights.end() && key.ends_with(".num_batches_tracked")) continue;
        if (it == weights.end())
            missing.push_back(key);
        else if (!it->second.sizes().equals(tensor.sizes()))
            mismatched.push_back(key + " (file " + shape_text(it->second.sizes()) + ", model " +
                                 shape_text(tensor.sizes()) + ")");
    }
    // And the other way: a checkpoint of a network LibreYOLO built from scratch has trainable
    // BatchNorms, with counters, where the loaded form (D-FINE-l/x's and DEIM-l/x's backbone) has
    // frozen ones; the counter means nothing at inference, and LibreYOLO skips it too.
    for (const auto& [key, tensor] : weights)
        if (!target.count(key) && !key.ends_with(".num_batches_tracked")) unexpected.push_back(key);

    if (!mismatched.empty() || !missing.empty() || !unexpected.empty()) {
        std::string message = source + ": weights do not fit the model:";
        if (!mismatched.empty()) message += "\n  shape mismatch: " + first_names(mismatched);
        if (!missing.empty()) message += "\n  missing keys: " + first_names(missing);
        if (!unexpected.empty()) message += "\n  unexpected keys: " + first_names(unexpected);
        throw WeightsMismatch(message);
    }
    torch::NoGradGuard no_grad;
    for (auto& [key, tensor] : target)
        if (const auto it = weights.find(key); it != weights.end()) tensor.copy_(it->second.to(tensor.scalar_type()));
}

}  // namespace libreyolo::io
