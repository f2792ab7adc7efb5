#pragma once
// Ultralytics/LibreYOLO-style arguments: `libreyolo <command> key=value ... --flag`.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace libreyolo::cli {

struct Arguments {
    std::string command;
    std::map<std::string, std::string> values;  // key=value
    std::set<std::string> flags;                // --flag
    std::vector<std::string> positional;        // bare words after the command (convert in out)

    bool has(const std::string& key) const { return values.count(key) != 0; }
    std::string get(const std::string& key, const std::string& fallback = "") const;
    // Typed getters throw InvalidArgument naming the key and the bad text.
    int get_int(const std::string& key, int fallback) const;
    float get_float(const std::string& key, float fallback) const;
    double get_double(const std::string& key, double fallback) const;
    bool get_bool(const std::string& key, bool fallback) const;
    // "0,2", "[0,2]" or "1": whole numbers; empty when the key is absent.
    std::vector<int> get_int_list(const std::string& key) const;
};

// allow_positional: how many bare words the command takes. Throws InvalidArgument for a
// malformed token, a repeated key, or a key/flag that the command does not know (with a
// "did you mean" for near misses).
Arguments parse_arguments(const std::vector<std::string>& argv, const std::set<std::string>& known_keys,
                          const std::set<std::string>& known_flags, std::size_t allow_positional = 0);

}  // namespace libreyolo::cli
