#include "args.h"

#include <charconv>

#include "libreyolo/errors.h"
#include "libreyolo/families.h"

namespace libreyolo::cli {
namespace {

std::string suggestion_for(const std::string& word, const std::set<std::string>& known, const std::string& prefix) {
    const std::string close = closest_match(word, std::vector<std::string>(known.begin(), known.end()));
    return close.empty() ? std::string() : " (did you mean '" + prefix + close + "'?)";
}

std::string known_list(const std::set<std::string>& known, const std::string& prefix) {
    std::string out;
    for (const auto& k : known) out += (out.empty() ? "" : ", ") + prefix + k;
    return out;
}

}  // namespace

std::string Arguments::get(const std::string& key, const std::string& fallback) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : it->second;
}

int Arguments::get_int(const std::string& key, int fallback) const {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    int value = 0;
    const std::string& s = it->second;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (ec != std::errc() || ptr != s.data() + s.size())
        throw InvalidArgument(key + "=" + s + ": '" + s + "' is not an integer");
    return value;
}

namespace {

double parse_number(const std::string& key, const std::string& text, const std::string& whole) {
    try {
        std::size_t used = 0;
        const double value = std::stod(text, &used);
        if (used == text.size()) return value;
    } catch (const std::exception&) {
    }
    throw InvalidArgument(key + "=" + whole + ": '" + text + "' is not a number");
}

}  // namespace

float Arguments::get_float(const std::string& key, float fallback) const {
    return static_cast<float>(get_double(key, fallback));
}

double Arguments::get_double(const std::string& key, double fallback) const {
    auto it = values.find(key);
    return it == values.end() ? fallback : parse_number(key, it->second, it->second);
}

std::vector<int> Arguments::get_int_list(const std::string& key) const {
    auto it = values.find(key);
    if (it == values.end()) return {};
    std::string s = it->second;
    if (s.size() >= 2 && s.front() == '[' && s.back() == ']') s = s.substr(1, s.size() - 2);
    std::vector<int> out;
    std::size_t at = 0;
    while (at <= s.size()) {
        const std::size_t comma = std::min(s.find(',', at), s.size());
        const std::string item = s.substr(at, comma - at);
        const double v = parse_number(key, item, it->second);
        if (v != static_cast<double>(static_cast<int>(v)))
            throw InvalidArgument(key + "=" + it->second + ": expected whole numbers such as " + key + "=0,2");
        out.push_back(static_cast<int>(v));
        at = comma + 1;
    }
    return out;
}

bool Arguments::get_bool(const std::string& key, bool fallback) const {
    auto it = values.find(key);
    if (it == values.end()) return fallback;
    std::string s = it->second;
    for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (s == "true" || s == "1" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "0" || s == "no" || s == "off") return false;
    throw InvalidArgument(key + "=" + it->second + ": expected true or false");
}

Arguments parse_arguments(const std::vector<std::string>& argv, const std::set<std::string>& known_keys,
                          const std::set<std::string>& known_flags, std::size_t allow_positional) {
    Arguments args;
    for (std::size_t at = 0; at < argv.size(); ++at) {
        const std::string& token = argv[at];
        if (token.rfind("--", 0) == 0) {
            std::string flag = token.substr(2);
            if (const auto eq = flag.find('='); eq != std::string::npos) {
                // --key=value is accepted as key=value, for users coming from argparse tools.
                const std::string key = flag.substr(0, eq);
                if (known_keys.count(key)) {
                    if (!args.values.emplace(key, flag.substr(eq + 1)).second)
                        throw InvalidArgument("argument '" + key + "' is given twice");
                    continue;
                }
            }
            // LibreYOLO spells flags with dashes (--cuda-graph); keys use underscores.
            if (!known_flags.count(flag))
                throw InvalidArgument("unknown flag '" + token + "'" + suggestion_for(flag, known_flags, "--") +
                                      (known_flags.empty() ? "" : "; flags: " + known_list(known_flags, "--")));
            args.flags.insert(flag);
            continue;
        }
        const auto eq = token.find('=');
        if (eq == std::string::npos) {
            if (args.positional.size() < allow_positional) {
                args.positional.push_back(token);
                continue;
            }
            // `conf 0.4` (argparse habit): the key and its value written apart.
            if (known_keys.count(token)) {
                const bool value_follows = at + 1 < argv.size() && argv[at + 1].find('=') == std::string::npos &&
                                           argv[at + 1].rfind("--", 0) != 0;
                throw InvalidArgument("argument '" + token + "' has no value: write '" + token + "=" +
                                      (value_follows ? argv[at + 1] : "VALUE") + "'");
            }
            throw InvalidArgument("argument '" + token + "' is not key=value" + suggestion_for(token, known_keys, "") +
                                  "; keys: " + known_list(known_keys, ""));
        }
        const std::string key = token.substr(0, eq);
        const std::string value = token.substr(eq + 1);
        if (key.empty()) throw InvalidArgument("argument '" + token + "' has no key before '='");
        if (value.empty()) throw InvalidArgument("argument '" + token + "' has no value after '='");
        if (!known_keys.count(key))
            throw InvalidArgument("unknown key '" + key + "'" + suggestion_for(key, known_keys, "") +
                                  "; keys: " + known_list(known_keys, ""));
        if (!args.values.emplace(key, value).second) throw InvalidArgument("argument '" + key + "' is given twice");
    }
    return args;
}

}  // namespace libreyolo::cli
