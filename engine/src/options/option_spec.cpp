// What the schema's entries share: text to and from values, bounds, lookup by key or alias, and the
// saved train_config.yaml.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

#include "libreyolo/errors.h"
#include "libreyolo/families.h"
#include "libreyolo/image_size.h"
#include "options/option_fields.h"

namespace libreyolo {
namespace options {
namespace {

template <class T>
std::string shortest_text(T value) {
    char buffer[64];
    // Shortest round trip in %g's style, as Python's repr: 0.0001, 5e-06.
    const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::general);
    return ec == std::errc() ? std::string(buffer, end) : std::to_string(value);
}

std::string lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
    return text;
}

}  // namespace

std::string number_text(double value) {
    return shortest_text(value);
}

std::string number_text(float value) {
    return shortest_text(value);
}

bool parse_bool(const std::string& key, const std::string& text) {
    const std::string t = lower(text);
    if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
    if (t == "false" || t == "0" || t == "no" || t == "off") return false;
    throw InvalidArgument(key + "=" + text + ": '" + text + "' is not true or false");
}

int parse_int(const std::string& key, const std::string& text) {
    int value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || ptr != text.data() + text.size() || text.empty())
        throw InvalidArgument(key + "=" + text + ": '" + text + "' is not an integer");
    return value;
}

namespace {

double parse_number_in(const std::string& key, const std::string& part, const std::string& whole) {
    double value = 0;
    const char* first = part.data();
    if (!part.empty() && part.front() == '+') ++first;  // from_chars refuses the sign stod took
    const auto [ptr, ec] = std::from_chars(first, part.data() + part.size(), value);
    if (ec != std::errc() || ptr != part.data() + part.size() || part.empty() || !std::isfinite(value))
        throw InvalidArgument(key + "=" + whole + ": '" + part + "' is not a number");
    return value;
}

}  // namespace

double parse_number(const std::string& key, const std::string& text) {
    return parse_number_in(key, text, text);
}

std::array<float, 2> parse_pair(const std::string& key, const std::string& text) {
    std::string t = text;
    if (t.size() >= 2 && ((t.front() == '[' && t.back() == ']') || (t.front() == '(' && t.back() == ')')))
        t = t.substr(1, t.size() - 2);  // LibreYOLO's tuples written as Python or YAML lists
    const std::size_t comma = t.find(',');
    if (comma == std::string::npos || t.find(',', comma + 1) != std::string::npos)
        throw InvalidArgument(key + "=" + text + ": expected two numbers, low,high (such as " + key + "=0.5,1.5)");
    const auto trim = [](std::string s) {
        s.erase(0, s.find_first_not_of(' '));
        s.erase(s.find_last_not_of(' ') + 1);
        return s;
    };
    return {static_cast<float>(parse_number_in(key, trim(t.substr(0, comma)), text)),
            static_cast<float>(parse_number_in(key, trim(t.substr(comma + 1)), text))};
}

std::size_t parse_choice(const std::string& key, const std::string& text, const std::vector<std::string>& names) {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (lower(names[i]) == lower(text)) return i;
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
    const std::string close = closest_match(text, names);
    throw InvalidArgument(key + "=" + text + ": '" + text + "' is not one of " + list +
                          (close.empty() ? "" : " (did you mean '" + close + "'?)"));
}

}  // namespace options

namespace {

std::string bound_text(double v) {
    return options::number_text(v);
}

void check_number(const OptionSpec& spec, double value, const std::string& shown) {
    const bool low = spec.min && (spec.min_open ? !(value > *spec.min) : !(value >= *spec.min));
    const bool high = spec.max && (spec.max_open ? !(value < *spec.max) : !(value <= *spec.max));
    if (low || high) throw InvalidArgument(spec.key + "=" + shown + ": must be " + spec.value_text());
}

}  // namespace

void OptionSpec::check(const TrainOptions& o) const {
    const std::string text = get(o);
    switch (type) {
        case OptionType::Int:
        case OptionType::Float:
            check_number(*this, options::parse_number(key, text), text);
            break;
        case OptionType::FloatPair: {
            const std::array<float, 2> pair = options::parse_pair(key, text);
            check_number(*this, pair[0], text);
            check_number(*this, pair[1], text);
            if (pair[0] > pair[1]) throw InvalidArgument(key + "=" + text + ": needs low <= high");
            break;
        }
        default:
            break;
    }
}

bool OptionSpec::applies_to(std::string_view family) const {
    return families.empty() || std::find(families.begin(), families.end(), family) != families.end();
}

std::string OptionSpec::value_text() const {
    std::string what;
    switch (type) {
        case OptionType::Bool:
            return "true or false";
        case OptionType::Text:
            return "text";
        case OptionType::Choice:
            for (const auto& c : choices) what += (what.empty() ? "" : " | ") + c;
            return what;
        case OptionType::Int:
            what = "an integer";
            break;
        case OptionType::Float:
            what = "a number";
            break;
        case OptionType::FloatPair:
            what = "low,high";
            break;
    }
    if (min && max)
        return what + " in " + (min_open ? "(" : "[") + bound_text(*min) + ", " + bound_text(*max) +
               (max_open ? ")" : "]");
    if (min) return what + (min_open ? " > " : " >= ") + bound_text(*min);
    if (max) return what + (max_open ? " < " : " <= ") + bound_text(*max);
    return what;
}

const OptionSpec* find_train_option(std::string_view key) {
    for (const OptionSpec& spec : train_option_schema()) {
        if (spec.key == key) return &spec;
        for (const auto& alias : spec.aliases)
            if (alias == key) return &spec;
    }
    return nullptr;
}

std::vector<std::string> train_option_keys() {
    std::vector<std::string> keys;
    for (const OptionSpec& spec : train_option_schema()) {
        keys.push_back(spec.key);
        keys.insert(keys.end(), spec.aliases.begin(), spec.aliases.end());
    }
    return keys;
}

void set_train_options(TrainOptions& o, const std::vector<std::pair<std::string, std::string>>& values) {
    std::set<std::string> given;  // canonical keys, to refuse a key with its alias
    for (const auto& [key, text] : values) {
        const OptionSpec* spec = find_train_option(key);
        if (!spec) {
            const std::string close = closest_match(key, train_option_keys());
            throw InvalidArgument(key + ": not a training option" +
                                  (close.empty() ? "" : " (did you mean '" + close + "'?)"));
        }
        if (!given.insert(spec->key).second) {
            std::string names = spec->key;
            for (const auto& a : spec->aliases) names += ", " + a;
            throw InvalidArgument(names + ": the same setting given twice; keep one");
        }
        spec->set(o, text);
    }
}

void check_train_options(const TrainOptions& o) {
    if (o.data.empty() && !o.resume) throw InvalidArgument("data: name the dataset YAML");
    for (const OptionSpec& spec : train_option_schema()) spec.check(o);
    check_image_size(o.imgsz);
}

namespace {

// Text that YAML would read as another type (a bool, a number, null) is quoted, as PyYAML does.
bool reads_as_another_type(const std::string& text) {
    static const std::set<std::string> words = {"", "~", "null", "true", "false", "yes", "no", "on", "off"};
    if (words.count(options::lower(text))) return true;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

std::string train_options_yaml(const TrainOptions& o) {
    YAML::Emitter out;
    out << YAML::BeginMap;
    for (const OptionSpec& spec : train_option_schema()) {
        const std::string text = spec.get(o);
        out << YAML::Key << (spec.libreyolo_key.empty() ? spec.key : spec.libreyolo_key) << YAML::Value;
        switch (spec.type) {
            case OptionType::Bool:
                out << (text == "true");
                break;
            case OptionType::Int:
            case OptionType::Float:
                out << text;  // the shortest text that reads back to the value
                break;
            case OptionType::FloatPair:
                out << YAML::BeginSeq << text.substr(0, text.find(',')) << text.substr(text.find(',') + 1)
                    << YAML::EndSeq;
                break;
            case OptionType::Text:
            case OptionType::Choice:
                if (reads_as_another_type(text)) out << YAML::DoubleQuoted;
                out << text;
                break;
        }
    }
    out << YAML::EndMap;
    return std::string(out.c_str()) + "\n";
}

}  // namespace libreyolo
