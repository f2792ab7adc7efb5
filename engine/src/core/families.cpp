#include "libreyolo/families.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "libreyolo/errors.h"

namespace libreyolo {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Spellings that users of LibreYOLO and Ultralytics type for the same family.
struct FamilyAlias {
    const char* prefix;
    const char* family;
};
constexpr FamilyAlias kAliases[] = {
    {"libreyolo9", "yolo9"}, {"yolov9", "yolo9"}, {"yolo9", "yolo9"}, {"librertdetr", "rtdetr"}, {"rtdetr", "rtdetr"}};

}  // namespace

bool FamilyTraits::supports_cuda_graph_inference(std::string_view task) const {
    return cuda_graph_inference_tasks.count(std::string(task)) != 0;
}
bool FamilyTraits::supports_cuda_graph_training(std::string_view task) const {
    return cuda_graph_training_tasks.count(std::string(task)) != 0;
}

std::string ModelName::canonical() const {
    return family + "-" + size;
}

const std::vector<FamilyTraits>& registered_families() {
    static const std::vector<FamilyTraits> families = {
        // Inference graphs (detect): replay bit-identically for t/s/m/c, fp32/fp16, batch 1/8
        // (docs/graph-parity.md). Training graphs (detect): step-0 loss and BatchNorm buffers
        // bit-identical to eager (docs/graph-training-parity.md).
        // Quantization: LibreYOLO's fp8 recipe in simulation, first conv and head kept in float.
        FamilyTraits{"yolo9",
                     "YOLOv9",
                     {"t", "s", "m", "c"},
                     {"detect"},
                     640,
                     {"detect"},
                     {"detect"},
                     false,
                     {"fp8"},
                     {"head.", "backbone.conv0."}},
        // RT-DETR with PResNet backbones (LibreYOLO's LibreRTDETR r18/r34/r50): resized, not
        // letterboxed, to 640; NMS-free. Inference graphs: the whole forward replays
        // bit-identically (docs/graph-parity.md). Training graphs: the backbone and encoder,
        // the decoder eager (docs/graph-training-parity.md).
        FamilyTraits{"rtdetr",
                     "RT-DETR",
                     {"r18", "r34", "r50"},
                     {"detect"},
                     640,
                     {"detect"},
                     {"detect"},
                     false,
                     {},
                     {},
                     InputResize::Stretch,
                     true},
    };
    return families;
}

std::string canonical_family(std::string_view family) {
    const std::string f = lower_case(family);
    for (const auto& alias : kAliases)
        if (f == alias.prefix) return alias.family;
    return std::string(family);
}

const FamilyTraits& family_traits(std::string_view family) {
    for (const auto& f : registered_families())
        if (f.family == family) return f;
    std::string known;
    for (const auto& f : registered_families()) known += (known.empty() ? "" : ", ") + f.family;
    throw UnknownModel("unknown model family '" + std::string(family) + "' (known: " + known + ")");
}

std::vector<std::string> known_model_names() {
    std::vector<std::string> names;
    for (const auto& f : registered_families())
        for (const auto& s : f.sizes) names.push_back(f.family + "-" + s);
    return names;
}

std::string closest_match(std::string_view text, const std::vector<std::string>& candidates) {
    const std::string needle = lower_case(text);
    std::string best;
    std::size_t best_distance = std::string::npos;
    for (const auto& c : candidates) {
        const std::size_t d = edit_distance(needle, lower_case(c));
        if (d < best_distance) {
            best_distance = d;
            best = c;
        }
    }
    // Farther than a third of the word is a different word, not a typo.
    const std::size_t limit = std::max<std::size_t>(2, needle.size() / 3);
    return best_distance <= limit ? best : std::string();
}

bool looks_like_model_name(std::string_view text) {
    const std::string s = lower_case(text);
    if (s.find('/') != std::string::npos || s.find('.') != std::string::npos) return false;
    return s.rfind("yolo", 0) == 0 || s.rfind("libreyolo", 0) == 0 || s.rfind("rtdetr", 0) == 0 ||
           s.rfind("librertdetr", 0) == 0;
}

ModelName parse_model_name(std::string_view text) {
    const std::string s = lower_case(text);
    for (const auto& alias : kAliases) {
        const std::string prefix = alias.prefix;
        if (s.rfind(prefix, 0) != 0) continue;
        std::string size = s.substr(prefix.size());
        if (!size.empty() && (size[0] == '-' || size[0] == '_')) size.erase(0, 1);
        const FamilyTraits& traits = family_traits(alias.family);
        if (std::find(traits.sizes.begin(), traits.sizes.end(), size) != traits.sizes.end())
            return ModelName{traits.family, size, traits.tasks.front()};
        std::string sizes;
        for (const auto& z : traits.sizes) sizes += (sizes.empty() ? "" : ", ") + z;
        throw UnknownModel("unknown size '" + size + "' for model family " + traits.family + " in '" +
                           std::string(text) + "' (sizes: " + sizes + ")");
    }
    std::string message = "unknown model '" + std::string(text) + "'";
    const std::string suggestion = closest_match(text, known_model_names());
    if (!suggestion.empty()) message += ": did you mean '" + suggestion + "'?";
    std::string known;
    for (const auto& n : known_model_names()) known += (known.empty() ? "" : ", ") + n;
    throw UnknownModel(message + " (known: " + known + ")");
}

}  // namespace libreyolo
