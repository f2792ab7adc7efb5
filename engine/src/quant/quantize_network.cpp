#include "quant/quantize_network.h"

#include <nlohmann/json.hpp>

#include "libreyolo/errors.h"

namespace libreyolo::quant {

bool keeps_high_precision(const std::string& name, const std::vector<std::string>& keep) {
    for (const auto* patterns : {&keep, &kAlwaysKeepHighPrecision})
        for (const std::string& pattern : *patterns)
            if (!pattern.empty() && name.find(pattern) != std::string::npos) return true;
    return false;
}

namespace {

template <typename Accept>
std::vector<NamedConv> convs_where(torch::nn::Module& root, Accept accept) {
    std::vector<NamedConv> found;
    for (const auto& item : root.named_modules("", /*include_self=*/false)) {
        auto conv = std::dynamic_pointer_cast<QuantConv2dImpl>(item.value());
        if (conv && accept(item.key(), *conv)) found.push_back({item.key(), conv});
    }
    return found;
}

}  // namespace

std::vector<NamedConv> selectable_convs(torch::nn::Module& root, const std::vector<std::string>& keep) {
    return convs_where(
        root, [&](const std::string& name, const QuantConv2dImpl&) { return !keeps_high_precision(name, keep); });
}

std::vector<NamedConv> prepared_convs(torch::nn::Module& root) {
    return convs_where(root, [](const std::string&, const QuantConv2dImpl& conv) { return conv.prepared(); });
}

std::string manifest_json(const QuantInfo& info) {
    nlohmann::json j = {
        {"schema", info.schema},
        {"recipe", info.recipe},
        {"keep_high_precision", info.keep_high_precision},
        {"execution", info.execution},
        {"state", info.state},
        {"calibrated", info.calibrated},
        {"calib_data", info.calib_data.empty() ? nlohmann::json(nullptr) : nlohmann::json(info.calib_data)},
        {"calib_samples", info.calib_samples},
        {"calib_algorithm",
         info.calib_algorithm.empty() ? nlohmann::json(nullptr) : nlohmann::json(info.calib_algorithm)},
        {"module_count", info.module_count},
        {"module_counts", info.module_counts},
    };
    return j.dump();
}

QuantInfo parse_manifest(const std::string& text, const std::string& source) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {
        throw FormatError(source + ": checkpoint field 'quant' is not JSON");
    }
    if (!j.is_object()) throw FormatError(source + ": checkpoint field 'quant' is not a JSON object");
    QuantInfo info;
    auto field = [&](const char* key, auto& out, bool required) {
        auto it = j.find(key);
        if (it == j.end() || it->is_null()) {
            if (required) throw FormatError(source + ": checkpoint field 'quant' has no '" + key + "'");
            return;
        }
        try {
            it->get_to(out);
        } catch (const nlohmann::json::exception&) {
            throw FormatError(source + ": checkpoint field 'quant." + key + "' has the wrong type");
        }
    };
    field("schema", info.schema, false);
    field("recipe", info.recipe, true);
    field("keep_high_precision", info.keep_high_precision, true);
    field("execution", info.execution, false);
    field("state", info.state, false);
    field("calibrated", info.calibrated, false);
    field("calib_data", info.calib_data, false);
    field("calib_samples", info.calib_samples, false);
    field("calib_algorithm", info.calib_algorithm, false);
    field("module_count", info.module_count, false);
    field("module_counts", info.module_counts, false);
    if (info.state != "prepared")
        throw NotSupported(source + ": a " + info.state +
                           " quantized checkpoint (packed weights) cannot be loaded; only prepared (simulation) ones");
    return info;
}

}  // namespace libreyolo::quant
