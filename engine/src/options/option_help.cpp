// The schema as people read it: `libreyolo train --help` and docs/options.md, with each option's
// defaults over every trainable family and size.
#include <algorithm>
#include <map>
#include <sstream>

#include "libreyolo/families.h"
#include "libreyolo/options.h"

namespace libreyolo {
namespace {

struct FamilyValues {
    std::string family;
    std::vector<std::pair<std::string, std::string>> by_size;  // (size, value)
};

std::string shown(const std::string& value) {
    return value.empty() ? "none" : value;
}

// The value most entries share (the first of them on a tie).
template <class Range, class Value>
std::string most_common(const Range& entries, Value value_of) {
    std::map<std::string, int> count;
    std::string best;
    int most = 0;
    for (const auto& e : entries)
        if (const int c = ++count[value_of(e)]; c > most) most = c, best = value_of(e);
    return best;
}

// "n,s 0.5, m 0.1": the sizes whose value is not skip, grouped by value in size order.
std::string sizes_text(const FamilyValues& f, const std::string& skip) {
    std::vector<std::pair<std::string, std::string>> groups;  // (sizes, value)
    for (const auto& [size, value] : f.by_size) {
        if (value == skip) continue;
        if (!groups.empty() && groups.back().second == value)
            groups.back().first += "," + size;
        else
            groups.emplace_back(size, value);
    }
    std::string text;
    for (const auto& [sizes, value] : groups) text += (text.empty() ? "" : ", ") + sizes + " " + shown(value);
    return text;
}

std::vector<FamilyValues> defaults_by_family(const OptionSpec& spec) {
    std::vector<FamilyValues> out;
    for (const FamilyTraits& traits : registered_families()) {
        if (!traits.trainable || !spec.applies_to(traits.family)) continue;
        FamilyValues f{traits.family, {}};
        for (const std::string& size : traits.sizes)
            f.by_size.emplace_back(size, spec.get(train_defaults(ModelName{traits.family, size}.canonical())));
        out.push_back(std::move(f));
    }
    return out;
}

std::string metavar(const OptionSpec& spec) {
    switch (spec.type) {
        case OptionType::Bool:
            return "BOOL";
        case OptionType::Int:
            return "N";
        case OptionType::Float:
            return "F";
        case OptionType::FloatPair:
            return "LOW,HIGH";
        case OptionType::Choice: {
            std::string names;
            for (const auto& c : spec.choices) names += (names.empty() ? "" : "|") + c;
            return names;
        }
        case OptionType::Text:
            break;
    }
    return "TEXT";
}

std::string families_text(const OptionSpec& spec) {
    std::string names;
    for (const auto& f : spec.families) names += (names.empty() ? "" : ", ") + family_traits(f).display_name;
    return names;
}

const char* section_title(OptionSection section) {
    switch (section) {
        case OptionSection::Basics:
            return "basics";
        case OptionSection::Optimisation:
            return "optimisation";
        case OptionSection::Augmentation:
            return "augmentation";
        case OptionSection::Run:
            return "the run";
        case OptionSection::Distributed:
            return "distributed (batch is the global batch, split over the ranks; rank 0 logs, validates and saves)";
    }
    return "";
}

// words wrapped to width, every line after the first indented by indent.
std::string wrapped(const std::string& words, std::size_t first_column, std::size_t indent, std::size_t width = 100) {
    std::istringstream in(words);
    std::string word, out;
    std::size_t column = first_column;
    bool first = true;
    while (in >> word) {
        if (!first && column + 1 + word.size() > width) {
            out += "\n" + std::string(indent, ' ');
            column = indent;
        } else if (!first) {
            out += " ";
            ++column;
        }
        out += word;
        column += word.size();
        first = false;
    }
    return out;
}

}  // namespace

std::string train_option_defaults(const OptionSpec& spec) {
    if (spec.key == "model") return spec.get(TrainOptions{});  // the model sets the others' defaults
    const std::vector<FamilyValues> families = defaults_by_family(spec);
    std::vector<std::pair<std::string, std::string>> all;  // every (family, size value)
    for (const auto& f : families)
        for (const auto& [size, value] : f.by_size) all.emplace_back(f.family, value);
    if (all.empty()) return shown(spec.get(TrainOptions{}));
    // Each family's most common value; the value most families share leads.
    std::vector<std::pair<std::string, std::string>> family_value;
    for (const auto& f : families)
        family_value.emplace_back(f.family, most_common(f.by_size, [](const auto& e) { return e.second; }));
    const std::string lead = most_common(family_value, [](const auto& e) { return e.second; });
    std::string text = shown(lead);
    // Families whose sizes agree on another value, grouped by value ("yolo9, yolox 0.0005").
    std::vector<std::pair<std::string, std::string>> others;  // (families, value)
    for (std::size_t i = 0; i < families.size(); ++i) {
        const std::string& value = family_value[i].second;
        if (value == lead) continue;
        const auto group = std::find_if(others.begin(), others.end(), [&](const auto& g) { return g.second == value; });
        if (group == others.end())
            others.emplace_back(families[i].family, value);
        else
            group->first += ", " + families[i].family;
    }
    for (const auto& [names, value] : others) text += "; " + names + " " + shown(value);
    // Sizes that differ from their family's value ("deim m 0.1, l 0.05").
    for (std::size_t i = 0; i < families.size(); ++i)
        if (const std::string sizes = sizes_text(families[i], family_value[i].second); !sizes.empty())
            text += "; " + families[i].family + " " + sizes;
    return text;
}

std::string train_options_help() {
    std::string out;
    OptionSection section = OptionSection::Basics;
    bool first = true;
    for (const OptionSpec& spec : train_option_schema()) {
        if (first || spec.section != section) {
            section = spec.section;
            out += std::string(first ? "" : "\n") + section_title(section) + ":\n";
            first = false;
        }
        std::string head = "  " + spec.key + "=" + metavar(spec);
        if (!spec.flag.empty()) head += ", --" + spec.flag;
        head = head.size() < 26 ? head + std::string(26 - head.size(), ' ') : head + "\n" + std::string(26, ' ');
        std::string text = spec.help;
        if (!spec.families.empty()) text = families_text(spec) + ": " + text;
        for (const auto& alias : spec.aliases) text += " (" + alias + "=" + metavar(spec) + " too)";
        text += " [" + train_option_defaults(spec) + "]";
        out += head + wrapped(text, 26, 26) + "\n";
    }
    return out;
}

std::string train_options_markdown() {
    const auto cell = [](std::string text) {
        for (std::size_t at = 0; (at = text.find('|', at)) != std::string::npos; at += 2) text.replace(at, 1, "\\|");
        return text;
    };
    std::string out =
        "| key | value | default | families | what it does |\n"
        "|---|---|---|---|---|\n";
    for (const OptionSpec& spec : train_option_schema()) {
        std::string key = "`" + spec.key + "`";
        for (const auto& alias : spec.aliases) key += ", `" + alias + "`";
        if (!spec.flag.empty()) key += ", `--" + spec.flag + "`";
        out += "| " + key + " | " + cell(spec.value_text()) + " | " + cell(train_option_defaults(spec)) + " | " +
               (spec.families.empty() ? "all" : families_text(spec)) + " | " + cell(spec.help) +
               (spec.resumed ? "" : " (a resumed run takes it from the command, not the checkpoint)") + " |\n";
    }
    return out;
}

}  // namespace libreyolo
