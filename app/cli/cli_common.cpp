#include "cli_common.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "libreyolo/bundled.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo::cli {

bool progress_on_stderr() {
    static const bool tty = ::isatty(STDERR_FILENO) != 0;
    return tty;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    const std::size_t n = values.size();
    std::sort(values.begin(), values.end());
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

std::string with_thousands(long long n) {
    const std::string digits = std::to_string(n < 0 ? -n : n);
    std::string out = n < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

std::string default_sample_image() {
    if (const char* env = std::getenv("LIBREYOLO_SAMPLE_IMAGE")) return env;
    return bundled_file("resources/samples/shapes.png");
}

void warn_if_random(const Model& model) {
    const ModelInfo info = model.info();
    if (!info.pretrained)
        log_warning("model", info.family + "-" + info.size +
                                 " has random weights (pretrained=false), so its detections are meaningless");
}

void read_predict_keys(const Arguments& args, PredictOptions& o) {
    o.conf = args.get_float("conf", o.conf);
    o.iou = args.get_float("iou", o.iou);
    o.imgsz = args.get_int("imgsz", o.imgsz);
    o.max_det = args.get_int("max_det", o.max_det);
    o.classes = args.get_int_list("classes");
    o.vid_stride = args.get_int("vid_stride", o.vid_stride);
    o.save = args.get_bool("save", o.save);
    o.project = args.get("project", o.project);
    o.name = args.get("name", o.name);
    o.exist_ok = args.get_bool("exist_ok", o.exist_ok);
    o.cuda_graph = parse_graph_mode(args.get("cuda_graph", "false"));
    o.fuse = args.get_bool("fuse", o.fuse);
}

void print_graph_summary(const Model& model, GraphMode mode) {
    if (mode == GraphMode::Off) return;
    // Replays are what make the graph worth it; say how many there were (zero is visible).
    std::int64_t replays = 0;
    const std::vector<GraphInfo> graphs = model.graph_info();
    std::ostringstream line;
    for (const auto& g : graphs) {
        replays += g.replays;
        char row[200];
        std::snprintf(row, sizeof row, "%s%s %s%s (%lld replays, %d kernels, captured in %.0f ms",
                      line.tellp() ? "; " : "", g.key.c_str(), g.dtype.c_str(), g.fused ? " fused" : "",
                      static_cast<long long>(g.replays), g.kernels, g.capture_ms);
        line << row;
        // A family split at seams: say how the forward was divided.
        if (g.eager_stages > 0)
            std::snprintf(row, sizeof row, ", %d graphs + %d eager stages)", g.graphs, g.eager_stages);
        else
            std::snprintf(row, sizeof row, ")");
        line << row;
    }
    std::fprintf(stderr, "CUDA graphs (cuda_graph=%s): %zu captured, %lld replays%s%s\n", to_string(mode),
                 graphs.size(), static_cast<long long>(replays), graphs.empty() ? "" : ": ", line.str().c_str());
}

}  // namespace libreyolo::cli
