// `libreyolo track`.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>
#include <sstream>

#include "args.h"
#include "cli_common.h"
#include "frame_window.h"
#include "libreyolo/errors.h"
#include "libreyolo/live_source.h"
#include "libreyolo/track.h"
#include "model_argument.h"

namespace libreyolo::cli {
namespace fs = std::filesystem;
namespace {

const char* kTrackHelp = R"(libreyolo track — follow objects across the frames of a video

Detects every frame in order and links the detections into tracks (ByteTrack by default): each
box gets a track id that stays with its object from frame to frame.

keys (defaults in brackets):
  model=NAME|FILE   as in predict [the demo model]
  pretrained=BOOL, download=BOOL   as in predict
  source=PATH       a video file, a folder or glob of images taken as consecutive frames, a camera
                    index (source=0), a stream URL (rtsp://, rtmp://, http(s)://, .m3u8) or a
                    .streams file with one source per line (each tracked on its own); a live
                    source runs until Ctrl-C
  tracker=NAME      bytetrack or botsort (motion only) [bytetrack]
  track_conf=F      the first association stage's threshold (track_high_thresh) [0.25]
  conf=F            detector threshold [the tracker's track_low_thresh, 0.1, so that unsure boxes
                    reach the second stage]
  iou=F, imgsz=N, max_det=N, device=D, half=BOOL, fuse=BOOL, cuda_graph=MODE   as in predict
                    (cuda_graph=auto captures once: every frame of a video has one size)
  classes=LIST      track only these class ids, such as classes=0,2 [all]
  vid_stride=N      track every Nth frame [1]
  fps=F             frame rate of an image sequence (a video has its own) [30]
  save=BOOL         write the annotated video (ids and short trails) under project/name [false]
  show=BOOL         show each annotated frame in a window as it comes (q or Esc stops) [false]
  project=DIR       [runs/track]
  name=NAME         run folder, numbered when it exists [track]
  exist_ok=BOOL     reuse project/name [false]
tracker keys (LibreYOLO's names and defaults):
  track_high_thresh=0.25 track_low_thresh=0.1 new_track_thresh=0.25 match_thresh=0.8
  match_thresh_low=0.5 match_thresh_unconfirmed=0.7 track_buffer=30 frame_rate=30
  fuse_score=true minimum_consecutive_frames=1
flags:
  --json            print results as JSON on stdout (boxes carry "track_id")
)";

int run_track(const std::vector<std::string>& argv) {
    std::set<std::string> keys = {"source",   "conf",       "track_conf", "iou",        "imgsz", "max_det", "classes",
                                  "device",   "vid_stride", "fps",        "save",       "show",  "project", "name",
                                  "exist_ok", "half",       "fuse",       "cuda_graph", "model"};
    for (const auto& k : model_argument_keys()) keys.insert(k);
    for (const auto& k : tracker_field_names()) keys.insert(k);
    keys.erase("enable_cmc");
    const Arguments args = parse_arguments(argv, keys, {"json"});
    if (!args.has("source"))
        throw InvalidArgument("source: give the video (or folder of images) to track, such as source=clip.mp4");

    TrackOptions o;
    PredictOptions& p = o.predict;
    read_predict_keys(args, p);
    o.track_conf = args.get_float("track_conf", o.track_conf);
    o.fps = args.get_double("fps", o.fps);
    for (const auto& field : tracker_field_names())
        if (args.has(field)) {
            set_tracker_field(o.tracker, field, args.get(field));
            o.tracker_fields_set.push_back(field);
        }
    const bool json = args.flags.count("json") != 0;
    const std::string source = args.get("source");

    Model model = load_model_argument(args, default_model(), args.get("device", "auto"));
    warn_if_random(model);
    if (args.get_bool("half", false)) model.set_dtype("float16");

    std::vector<Result> kept;  // for --json only: a live stream is endless
    std::vector<double> infer;
    std::set<int> ids;
    std::string saved_to;
    auto print = [&](const Result& r) {
        for (const auto& d : r.boxes) ids.insert(d.track_id);
        if (!r.saved_to.empty()) saved_to = r.saved_to;
        infer.push_back(r.speed.inference_ms);
        if (json) {
            kept.push_back(r);
            return true;
        }
        std::ostringstream line;
        line << "frame " << r.frame << " " << r.path << ": " << r.orig_w << "x" << r.orig_h << " ";
        if (r.boxes.empty()) line << "(no tracks) ";
        for (const auto& d : r.boxes) line << "#" << d.track_id << " " << r.class_name(d.cls) << ", ";
        char ms[32];
        std::snprintf(ms, sizeof ms, "%.1fms", r.speed.inference_ms);
        std::cout << line.str() << ms << "\n";
        for (const auto& d : r.boxes) {
            char box[200];
            std::snprintf(box, sizeof box, "  #%-5d %-14s %.3f  [%.1f, %.1f, %.1f, %.1f]\n", d.track_id,
                          r.class_name(d.cls).c_str(), d.conf, d.x1, d.y1, d.x2, d.y2);
            std::cout << box;
        }
        std::cout.flush();
        return true;
    };
    std::unique_ptr<FrameWindows> windows = FrameWindows::open_if(args.get_bool("show", false));
    stop_on_interrupt();  // Ctrl-C ends the video or stream cleanly, the saved video finished
    model.track(source, o, print);
    windows.reset();
    if (json) {
        std::cout << to_json(kept) << "\n";
    } else if (!infer.empty()) {
        std::printf("Tracked %zu frames, %zu ids; %.1fms inference per frame (median) on %s\n", infer.size(),
                    ids.size(), median(infer), model.info().device.c_str());
    }
    print_graph_summary(model, p.cuda_graph);
    if (!saved_to.empty()) std::cerr << "Results saved to " << saved_to << "\n";
    if (infer.empty()) {
        std::cerr << "error: no frame of '" << source << "' could be read\n";
        return 1;
    }
    return 0;
}

}  // namespace

extern const Command kTrackCommand{"track", "follow objects across video frames (ByteTrack, BoT-SORT) with ids",
                                   kTrackHelp, run_track};

}  // namespace libreyolo::cli
