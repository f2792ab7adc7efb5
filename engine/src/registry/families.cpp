#include "libreyolo/families.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "libreyolo/errors.h"
#include "registry/family_definition.h"

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

bool is_alias(const registry::FamilyDefinition& definition, std::string_view name) {
    return std::find(definition.aliases.begin(), definition.aliases.end(), name) != definition.aliases.end();
}

struct NamePrefix {
    std::string prefix;
    const registry::FamilyDefinition* family;
};

// Every family's name and aliases, longest first, so that a name is read by the longest prefix it
// starts with whichever family registered it.
const std::vector<NamePrefix>& name_prefixes() {
    static const std::vector<NamePrefix> prefixes = [] {
        std::vector<NamePrefix> all;
        for (const auto& definition : registry::family_definitions()) {
            all.push_back({definition.traits.family, &definition});
            for (const auto& alias : definition.aliases) all.push_back({alias, &definition});
        }
        std::stable_sort(all.begin(), all.end(),
                         [](const NamePrefix& a, const NamePrefix& b) { return a.prefix.size() > b.prefix.size(); });
        return all;
    }();
    return prefixes;
}

}  // namespace

int FamilyTraits::default_imgsz_for(std::string_view size) const {
    auto it = size_imgsz.find(std::string(size));
    return it == size_imgsz.end() ? default_imgsz : it->second;
}
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
    static const std::vector<FamilyTraits> families = [] {
        std::vector<FamilyTraits> traits;
        for (const auto& f : registry::family_definitions()) traits.push_back(f.traits);
        return traits;
    }();
    return families;
}

std::string canonical_family(std::string_view family) {
    const std::string f = lower_case(family);
    for (const auto& definition : registry::family_definitions())
        if (f == definition.traits.family || is_alias(definition, f)) return definition.traits.family;
    return std::string(family);
}

const FamilyTraits& family_traits(std::string_view family) {
    return registry::family_definition(family).traits;
}

std::vector<std::string> known_model_names() {
    std::vector<std::string> names;
    for (const auto& f : registered_families())
        for (const auto& s : f.sizes) names.push_back(f.family + "-" + s);
    return names;
}

std::string model_names_summary(bool trainable_only) {
    std::string summary;
    for (const auto& f : registered_families()) {
        if (trainable_only && !f.trainable) continue;
        summary += (summary.empty() ? "" : ", ") + f.family + "-";
        for (std::size_t i = 0; i < f.sizes.size(); ++i) summary += (i ? "|" : "") + f.sizes[i];
    }
    return summary;
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
    // LibreYOLO's and Ultralytics' names all start so, which lets an unknown one ("yolo11n") get a
    // "did you mean" instead of "no such file".
    if (s.starts_with("yolo") || s.starts_with("libre")) return true;
    return std::any_of(name_prefixes().begin(), name_prefixes().end(),
                       [&](const NamePrefix& p) { return s.starts_with(p.prefix); });
}

ModelName parse_model_name(std::string_view text) {
    const std::string s = lower_case(text);
    for (const auto& [prefix, family] : name_prefixes()) {
        if (!s.starts_with(prefix)) continue;
        std::string size = s.substr(prefix.size());
        if (!size.empty() && (size[0] == '-' || size[0] == '_')) size.erase(0, 1);
        const FamilyTraits& traits = family->traits;
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

namespace registry {

std::vector<FamilyDefinition> with_derived_traits(std::vector<FamilyDefinition> definitions) {
    for (auto& d : definitions) d.traits.trainable = static_cast<bool>(d.make_recipe);
    return definitions;
}

const FamilyDefinition& family_definition(std::string_view family) {
    for (const auto& f : family_definitions())
        if (f.traits.family == family) return f;
    std::string known;
    for (const auto& f : family_definitions()) known += (known.empty() ? "" : ", ") + f.traits.family;
    throw UnknownModel("unknown model family '" + std::string(family) + "' (known: " + known + ")");
}

}  // namespace registry
}  // namespace libreyolo
