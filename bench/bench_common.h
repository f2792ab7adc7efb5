#pragma once
// key=value arguments of the benchmark programs (plus --json), checked against their defaults.
#include <cstdio>
#include <map>
#include <string>

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
