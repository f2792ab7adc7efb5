// The public tracker (libreyolo/track.h): configuration checks and the Tracker over ByteTracker.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <map>

#include "libreyolo/errors.h"
#include "libreyolo/track.h"
#include "track/byte_tracker.h"

namespace libreyolo {
namespace {

std::string tracker_name(std::string name) {
    for (const char* suffix : {".yaml", ".yml"})
        if (name.size() > std::string(suffix).size() && name.ends_with(suffix))
            name.resize(name.size() - std::string(suffix).size());
    return name;
}

void check_unit(const char* name, double v) {
    if (!(v >= 0.0 && v <= 1.0))
        throw InvalidArgument(std::string(name) + ": must be within [0, 1], got " + std::to_string(v));
}

double parse_number(const std::string& key, const std::string& text) {
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(v))
        throw InvalidArgument(key + ": expected a number, got '" + text + "'");
    return v;
}

int parse_integer(const std::string& key, const std::string& text) {
    const double v = parse_number(key, text);
    if (v != std::floor(v) || std::abs(v) > 1e9)
        throw InvalidArgument(key + ": expected a whole number, got '" + text + "'");
    return static_cast<int>(v);
}

bool parse_bool(const std::string& key, const std::string& text) {
    if (text == "true" || text == "True" || text == "1") return true;
    if (text == "false" || text == "False" || text == "0") return false;
    throw InvalidArgument(key + ": expected true or false, got '" + text + "'");
}

using Setter = std::function<void(TrackerConfig&, const std::string& key, const std::string& value)>;

const std::map<std::string, Setter>& setters() {
    static const std::map<std::string, Setter> table = [] {
        std::map<std::string, Setter> t;
        auto unit = [](float TrackerConfig::*field) {
            return [field](TrackerConfig& c, const std::string& k, const std::string& v) {
                c.*field = static_cast<float>(parse_number(k, v));
            };
        };
        t["tracker"] = [](TrackerConfig& c, const std::string&, const std::string& v) { c.tracker = v; };
        t["track_high_thresh"] = unit(&TrackerConfig::track_high_thresh);
        t["track_low_thresh"] = unit(&TrackerConfig::track_low_thresh);
        t["new_track_thresh"] = unit(&TrackerConfig::new_track_thresh);
        t["match_thresh"] = unit(&TrackerConfig::match_thresh);
        t["match_thresh_low"] = unit(&TrackerConfig::match_thresh_low);
        t["match_thresh_unconfirmed"] = unit(&TrackerConfig::match_thresh_unconfirmed);
        t["track_buffer"] = [](TrackerConfig& c, const std::string& k, const std::string& v) {
            c.track_buffer = parse_integer(k, v);
        };
        t["frame_rate"] = [](TrackerConfig& c, const std::string& k, const std::string& v) {
            c.frame_rate = parse_number(k, v);
        };
        t["fuse_score"] = [](TrackerConfig& c, const std::string& k, const std::string& v) {
            c.fuse_score = parse_bool(k, v);
        };
        t["minimum_consecutive_frames"] = [](TrackerConfig& c, const std::string& k, const std::string& v) {
            c.minimum_consecutive_frames = parse_integer(k, v);
        };
        t["enable_cmc"] = [](TrackerConfig& c, const std::string& k, const std::string& v) {
            c.enable_cmc = parse_bool(k, v);
        };
        return t;
    }();
    return table;
}

}  // namespace

void validate(const TrackerConfig& c) {
    const std::string name = tracker_name(c.tracker);
    if (name != "bytetrack" && name != "botsort")
        throw InvalidArgument("tracker: unknown tracker '" + c.tracker + "'; choose bytetrack or botsort");
    check_unit("track_high_thresh", c.track_high_thresh);
    check_unit("track_low_thresh", c.track_low_thresh);
    check_unit("new_track_thresh", c.new_track_thresh);
    check_unit("match_thresh", c.match_thresh);
    check_unit("match_thresh_low", c.match_thresh_low);
    check_unit("match_thresh_unconfirmed", c.match_thresh_unconfirmed);
    if (!(c.frame_rate > 0) || !std::isfinite(c.frame_rate))
        throw InvalidArgument("frame_rate: must be > 0, got " + std::to_string(c.frame_rate));
    if (c.track_buffer < 0) throw InvalidArgument("track_buffer: must be >= 0, got " + std::to_string(c.track_buffer));
    if (c.minimum_consecutive_frames < 1)
        throw InvalidArgument("minimum_consecutive_frames: must be >= 1, got " +
                              std::to_string(c.minimum_consecutive_frames));
    if (c.track_high_thresh < c.track_low_thresh)
        throw InvalidArgument("track_high_thresh (" + std::to_string(c.track_high_thresh) +
                              ") must be >= track_low_thresh (" + std::to_string(c.track_low_thresh) + ")");
    if (c.enable_cmc)
        throw NotSupported(
            "enable_cmc: camera-motion compensation is not implemented; botsort runs motion-only "
            "(enable_cmc=false)");
}

bool set_tracker_field(TrackerConfig& config, const std::string& key, const std::string& value) {
    const auto it = setters().find(key);
    if (it == setters().end()) return false;
    it->second(config, key, value);
    return true;
}

std::vector<std::string> tracker_field_names() {
    std::vector<std::string> names;
    for (const auto& [name, setter] : setters()) names.push_back(name);
    return names;
}

struct Tracker::State {
    TrackerConfig config;
    track::ByteTracker core;
    explicit State(const TrackerConfig& c) : config(c), core(c) {}
};

static TrackerConfig normalised(TrackerConfig c) {
    validate(c);
    c.tracker = tracker_name(c.tracker);
    return c;
}

Tracker::Tracker(const TrackerConfig& config) : state_(std::make_unique<State>(normalised(config))) {}
Tracker::~Tracker() = default;
Tracker::Tracker(Tracker&&) noexcept = default;
Tracker& Tracker::operator=(Tracker&&) noexcept = default;

std::vector<Detection> Tracker::update(const std::vector<Detection>& detections) {
    std::vector<int> index_of;
    return update(detections, index_of);
}

std::vector<Detection> Tracker::update(const std::vector<Detection>& detections, std::vector<int>& index_of) {
    index_of.clear();
    std::vector<Detection> out;
    for (const auto& t : state_->core.update(detections)) {
        Detection d = detections[static_cast<std::size_t>(t.detection_index)];
        d.track_id = static_cast<int>(t.track_id);
        out.push_back(d);
        index_of.push_back(t.detection_index);
    }
    return out;
}

void Tracker::reset() {
    state_->core.reset();
}
const TrackerConfig& Tracker::config() const {
    return state_->config;
}
int Tracker::frames_seen() const {
    return state_->core.frame_id();
}

}  // namespace libreyolo
