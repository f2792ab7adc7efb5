#include "train/results_csv.h"

#include <charconv>
#include <cmath>
#include <fstream>

#include "io/atomic_file.h"

namespace libreyolo::training {
namespace {

const char* kMetricName = "metrics/mAP50-95";

std::string header(const std::vector<std::string>& loss_names, std::size_t lr_groups) {
    std::string h =
        "epoch,time,train/loss,validated,is_best,current_metric,current_metric_name,best_metric,best_metric_name,"
        "best_epoch";
    for (const auto& name : loss_names) h.append(",train/").append(name).append("_loss");
    for (std::size_t g = 0; g < lr_groups; ++g) h.append(",lr/group").append(std::to_string(g));
    for (const auto& column : metric_columns(ValResult{})) h.append(",").append(column.first);
    return h;
}

// Shortest round-trip digits, and "2.0" rather than "2" for whole numbers, as Python writes floats.
std::string number(double v) {
    char buf[32];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    std::string s(buf, end);
    if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos) s += ".0";
    return s;
}

}  // namespace

// Rows end in CRLF: LibreYOLO writes the file with Python's csv module, whose default that is.
ResultsCsv::ResultsCsv(std::filesystem::path path, int resume_from, std::vector<std::string> loss_names,
                       std::size_t lr_groups)
    : path_(std::move(path)),
      loss_parts_(loss_names.size()),
      lr_groups_(lr_groups),
      text_(header(loss_names, lr_groups) + "\r\n") {
    if (resume_from <= 0) return;
    std::ifstream in(path_);
    std::string line;
    std::getline(in, line);  // an older header is replaced by ours
    while (std::getline(in, line)) {
        int epoch = 0;
        std::from_chars(line.data(), line.data() + line.size(), epoch);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (epoch >= 1 && epoch < resume_from) text_ += line + "\r\n";
    }
}

void ResultsCsv::append(const EpochRow& r) {
    const bool validated = r.val != nullptr, any_best = r.best_map50_95 >= 0;
    std::vector<std::string> cells = {std::to_string(r.epoch),
                                      number(r.seconds),
                                      number(r.loss),
                                      validated ? "1" : "0",
                                      r.is_best ? "1" : "0",
                                      validated ? number(r.val->metrics.map50_95) : "",
                                      validated ? kMetricName : "",
                                      any_best ? number(r.best_map50_95) : "",
                                      any_best ? kMetricName : "",
                                      any_best ? std::to_string(r.best_epoch) : ""};
    for (std::size_t i = 0; i < loss_parts_; ++i)
        cells.push_back(i < r.loss_parts.size() ? number(r.loss_parts[i]) : "");
    for (std::size_t g = 0; g < lr_groups_; ++g) cells.push_back(g < r.lr.size() ? number(r.lr[g]) : "");
    for (const auto& [name, value] : metric_columns(validated ? *r.val : ValResult{}))
        cells.push_back(validated ? number(value) : "");
    for (std::size_t i = 0; i < cells.size(); ++i) text_.append(i ? "," : "").append(cells[i]);
    text_ += "\r\n";
    io::write_file_atomically(path_, [&](std::ostream& out) { out << text_; });
}

}  // namespace libreyolo::training
