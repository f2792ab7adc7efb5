// Frames per second of tracking a 1280x720 stream: frames rendered into host memory beforehand
// (moving shapes of the synthetic set's kinds, so the demo model finds them), then each one through
// Model::track (upload, forward, NMS, ByteTrack) with persist, timed by the wall clock. One row per
// configuration: eager, CUDA graph, and the fused path with a graph, in float32 and float16.
//   bench_track_fps [model=PATH] [device=cuda] [frames=300] [warmup=30] [width=1280] [height=720] [--json]
#include <opencv2/imgproc.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bench_common.h"
#include "libreyolo/errors.h"
#include "libreyolo/model.h"
#include "libreyolo/track.h"
#include "libreyolo/version.h"

namespace {

struct Shape {
    cv::Point2d pos, vel;
    double size;
    int kind;  // 0 circle, 1 square, 2 triangle
    cv::Scalar colour;
};

// Frames of shapes moving at constant speed and bouncing off the edges.
std::vector<cv::Mat> render_frames(int count, int width, int height) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    std::vector<Shape> shapes;
    for (int i = 0; i < 10; ++i)
        shapes.push_back({{unit(rng) * (width - 200) + 100, unit(rng) * (height - 200) + 100},
                          {unit(rng) * 12 - 6, unit(rng) * 12 - 6},
                          40 + unit(rng) * 60,
                          i % 3,
                          cv::Scalar(50 + unit(rng) * 200, 50 + unit(rng) * 200, 50 + unit(rng) * 200)});
    std::vector<cv::Mat> frames;
    for (int f = 0; f < count; ++f) {
        cv::Mat frame(height, width, CV_8UC3, cv::Scalar(235, 235, 235));
        for (auto& s : shapes) {
            s.pos += s.vel;
            if (s.pos.x < s.size || s.pos.x > width - s.size) s.vel.x = -s.vel.x;
            if (s.pos.y < s.size || s.pos.y > height - s.size) s.vel.y = -s.vel.y;
            const cv::Point c(static_cast<int>(s.pos.x), static_cast<int>(s.pos.y));
            const int r = static_cast<int>(s.size / 2);
            if (s.kind == 0) {
                cv::circle(frame, c, r, s.colour, cv::FILLED, cv::LINE_AA);
            } else if (s.kind == 1) {
                cv::rectangle(frame, cv::Rect(c.x - r, c.y - r, 2 * r, 2 * r), s.colour, cv::FILLED);
            } else {
                const std::vector<cv::Point> tri = {{c.x, c.y - r}, {c.x - r, c.y + r}, {c.x + r, c.y + r}};
                cv::fillConvexPoly(frame, tri, s.colour, cv::LINE_AA);
            }
        }
        frames.push_back(frame);
    }
    return frames;
}

}  // namespace

int main(int argc, char** argv) {
    std::map<std::string, std::string> args = {{"model", libreyolo::default_model()},
                                               {"device", "cuda"},
                                               {"frames", "300"},
                                               {"warmup", "30"},
                                               {"width", "1280"},
                                               {"height", "720"}};
    bool json = false;
    if (!parse_bench_args(argc, argv, "bench_track_fps", args, json)) return 2;
    try {
        const int count = std::stoi(args["frames"]), warmup = std::stoi(args["warmup"]);
        const std::vector<cv::Mat> frames =
            render_frames(warmup + count, std::stoi(args["width"]), std::stoi(args["height"]));
        struct Config {
            const char* dtype;
            libreyolo::GraphMode graph;
            bool fuse;
        };
        const Config configs[] = {
            {"float32", libreyolo::GraphMode::Off, false}, {"float32", libreyolo::GraphMode::On, false},
            {"float32", libreyolo::GraphMode::On, true},   {"float16", libreyolo::GraphMode::Off, false},
            {"float16", libreyolo::GraphMode::On, false},  {"float16", libreyolo::GraphMode::On, true}};
        for (const Config& c : configs) {
            libreyolo::Model model = libreyolo::Model::load(args["model"], args["device"]);
            model.set_dtype(c.dtype);
            libreyolo::TrackOptions o;
            o.predict.cuda_graph = c.graph;
            o.predict.fuse = c.fuse;
            std::vector<double> frame_ms;
            std::set<int> ids;
            std::size_t boxes = 0;
            const auto start = std::chrono::steady_clock::now();
            auto measured_from = start;
            for (int i = 0; i < warmup + count; ++i) {
                if (i == warmup) measured_from = std::chrono::steady_clock::now();
                const cv::Mat& f = frames[static_cast<std::size_t>(i)];
                const libreyolo::ImageView view{f.data, f.cols, f.rows, static_cast<int>(f.step),
                                                libreyolo::PixelFormat::BGR8};
                o.persist = i > 0;
                const auto t0 = std::chrono::steady_clock::now();
                const std::vector<libreyolo::Result> r = model.track(std::vector<libreyolo::ImageView>{view}, o);
                const double ms =
                    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
                if (i < warmup) continue;
                frame_ms.push_back(ms);
                boxes += r.front().boxes.size();
                for (const auto& d : r.front().boxes) ids.insert(d.track_id);
            }
            const double seconds =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - measured_from).count();
            const double fps = count / seconds;
            const auto info = model.info();
            const char* mode = c.fuse ? "fused + graph" : (c.graph == libreyolo::GraphMode::On ? "graph" : "eager");
            if (json)
                std::printf(
                    "{\"kind\": \"track_fps\", \"impl\": \"libreyolo-studio %s (libtorch %s)\", \"model\": \"%s-%s\", "
                    "\"device\": \"%s\", \"dtype\": \"%s\", \"mode\": \"%s\", \"frames\": %d, \"width\": %d, "
                    "\"height\": %d, \"fps\": %.2f, \"median_frame_ms\": %.3f, \"boxes_per_frame\": %.2f, "
                    "\"ids\": %zu}\n",
                    libreyolo::version().c_str(), libreyolo::torch_version().c_str(), info.family.c_str(),
                    info.size.c_str(), info.device.c_str(), c.dtype, mode, count, frames[0].cols, frames[0].rows, fps,
                    median(frame_ms), static_cast<double>(boxes) / count, ids.size());
            else
                std::printf("%s-%s %s %-14s %7.1f FPS  %6.2f ms/frame median  %.1f boxes/frame  %zu ids\n",
                            info.family.c_str(), info.size.c_str(), c.dtype, mode, fps, median(frame_ms),
                            static_cast<double>(boxes) / count, ids.size());
            std::fflush(stdout);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_track_fps: %s\n", e.what());
        return 1;
    }
    return 0;
}
