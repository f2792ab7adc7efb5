#include <cctype>

#include "libreyolo/cuda_graph.h"
#include "libreyolo/errors.h"

namespace libreyolo {

GraphMode parse_graph_mode(const std::string& text) {
    std::string t;
    for (char c : text) t += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (t == "false" || t == "off" || t == "0" || t == "no") return GraphMode::Off;
    if (t == "true" || t == "on" || t == "1" || t == "yes") return GraphMode::On;
    if (t == "auto") return GraphMode::Auto;
    throw InvalidArgument("cuda_graph: '" + text + "' is not true, auto or false");
}

const char* to_string(GraphMode mode) {
    switch (mode) {
        case GraphMode::On:
            return "true";
        case GraphMode::Auto:
            return "auto";
        default:
            return "false";
    }
}

}  // namespace libreyolo
