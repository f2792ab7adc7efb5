#pragma once
// What the benchmark programs share: key=value arguments (plus --json), checked against their
// defaults, and the median of the timed runs.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

// "t,s,m" -> {"t", "s", "m"}: the list-valued arguments.
inline std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> items;
    std::string item;
    for (const char c : text + ",") {
        if (c != ',') {
            item += c;
        } else if (!item.empty()) {
            items.push_back(item);
            item.clear();
        }
    }
    return items;
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Fills args (pre-filled with every key and its default); false, after saying why, for an
// argument that is not a known key=value.
inline bool parse_bench_args(int argc, char** argv, const char* program, std::map<std::string, std::string>& args,
                             bool& json) {
    json = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--json") {
            json = true;
            continue;
        }
        const auto eq = a.find('=');
        if (eq == std::string::npos || !args.count(a.substr(0, eq))) {
            std::fprintf(stderr, "%s: bad argument '%s'\n", program, a.c_str());
            return false;
        }
        args[a.substr(0, eq)] = a.substr(eq + 1);
    }
    return true;
}
