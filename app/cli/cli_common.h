#pragma once
// Pieces that several `libreyolo` commands share.
#include <string>
#include <vector>

#include "args.h"
#include "libreyolo/model.h"

namespace libreyolo::cli {

// One `libreyolo <name>` command: its help text and what it runs (returns the exit code).
struct Command {
    const char* name;
    const char* summary;
    const char* help;
    int (*run)(const std::vector<std::string>& argv);
    // Help made when asked (from the options schema), in place of help.
    std::string (*make_help)() = nullptr;
};

const std::vector<Command>& commands();

std::string with_thousands(long long n);
// The middle value (the mean of the two middle ones for an even count); 0 for none.
double median(std::vector<double> values);
// The bundled sample image ($LIBREYOLO_SAMPLE_IMAGE overrides).
std::string default_sample_image();
// One warning when model has random weights.
void warn_if_random(const Model& model);

// The keys predict and track share (conf, iou, imgsz, max_det, classes, vid_stride, save, project,
// name, exist_ok, cuda_graph, fuse) into o; an absent key leaves o's value.
void read_predict_keys(const Arguments& args, PredictOptions& o);

// After predict or track with CUDA graphs on: the graphs captured and how often they replayed.
void print_graph_summary(const Model& model, GraphMode mode);

// Whether stderr is a terminal: progress lines redrawn with \r are only for one (as tqdm does);
// a log file gets the per-epoch lines alone.
bool progress_on_stderr();

}  // namespace libreyolo::cli
