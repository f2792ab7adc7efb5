#include "libreyolo/synth.h"

#include <opencv2/imgproc.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <numbers>

#include "data/augment.h"
#include "image/media_io.h"
#include "io/atomic_file.h"
#include "libreyolo/errors.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

using data::Rng;  // splitmix64: a seed gives the same dataset with any compiler

int integer(Rng& rng, int lo, int hi) {  // [lo, hi]
    return lo + rng.below(hi - lo + 1);
}
cv::Scalar colour(Rng& rng) {
    return {rng.uniform(0, 255), rng.uniform(0, 255), rng.uniform(0, 255)};
}

enum Shape { Circle, Square, Triangle, Star, Hexagon, Cross, kShapeCount };

struct Placed {
    int cls;
    cv::Rect2d box;
};

double iou(const cv::Rect2d& a, const cv::Rect2d& b) {
    const double inter = (a & b).area();
    return inter / (a.area() + b.area() - inter);
}

double luminance(const cv::Scalar& c) {
    return 0.114 * c[0] + 0.587 * c[1] + 0.299 * c[2];
}

void paint_background(cv::Mat& img, Rng& rng) {
    const cv::Scalar a = colour(rng), b = colour(rng);
    switch (integer(rng, 0, 3)) {
        case 0:
            img.setTo(a);
            break;
        case 1:  // vertical gradient
            for (int y = 0; y < img.rows; ++y) {
                const double t = static_cast<double>(y) / std::max(1, img.rows - 1);
                img.row(y).setTo(a * (1 - t) + b * t);
            }
            break;
        case 2: {  // stripes
            img.setTo(a);
            const int period = integer(rng, 8, 48);
            for (int x = 0; x < img.cols + img.rows; x += period)
                cv::line(img, {x, 0}, {x - img.rows, img.rows}, b, std::max(1, period / 3), cv::LINE_AA);
            break;
        }
        default: {  // coarse noise, blurred
            cv::Mat noise(std::max(2, img.rows / 16), std::max(2, img.cols / 16), CV_8UC3);
            auto* p = noise.ptr<std::uint8_t>();
            for (std::size_t i = 0; i < noise.total() * 3; ++i) p[i] = static_cast<std::uint8_t>(integer(rng, 40, 215));
            cv::resize(noise, img, img.size(), 0, 0, cv::INTER_CUBIC);
        }
    }
}

std::vector<cv::Point> polygon(Shape shape, cv::Point2d c, double r, double angle) {
    std::vector<cv::Point2d> unit;
    auto regular = [&](int k, double start) {
        for (int i = 0; i < k; ++i)
            unit.push_back(
                {std::cos(start + i * 2 * std::numbers::pi / k), std::sin(start + i * 2 * std::numbers::pi / k)});
    };
    switch (shape) {
        case Square:
            regular(4, std::numbers::pi / 4);
            break;
        case Triangle:
            regular(3, -std::numbers::pi / 2);
            break;
        case Hexagon:
            regular(6, 0);
            break;
        case Star:
            for (int i = 0; i < 10; ++i) {
                const double rr = i % 2 ? 0.45 : 1.0, a = -std::numbers::pi / 2 + i * std::numbers::pi / 5;
                unit.push_back({rr * std::cos(a), rr * std::sin(a)});
            }
            break;
        case Cross: {
            const double w = 0.33;
            unit = {{-w, -1}, {w, -1}, {w, -w}, {1, -w}, {1, w},   {w, w},
                    {w, 1},   {-w, 1}, {-w, w}, {-1, w}, {-1, -w}, {-w, -w}};
            break;
        }
        default:
            break;
    }
    std::vector<cv::Point> pts;
    const double ca = std::cos(angle), sa = std::sin(angle);
    for (const auto& u : unit)
        pts.emplace_back(static_cast<int>(std::lround(c.x + r * (u.x * ca - u.y * sa))),
                         static_cast<int>(std::lround(c.y + r * (u.x * sa + u.y * ca))));
    return pts;
}

// Draws one shape; returns its tight box in pixels.
cv::Rect2d draw_shape(cv::Mat& img, Shape shape, cv::Point2d c, double r, Rng& rng, const cv::Scalar& background) {
    cv::Scalar fill = colour(rng);
    for (int tries = 0; tries < 8 && std::abs(luminance(fill) - luminance(background)) < 60; ++tries)
        fill = colour(rng);
    const double angle = rng.uniform(0, 2 * std::numbers::pi);
    cv::Mat mask = cv::Mat::zeros(img.size(), CV_8U);
    if (shape == Circle) {
        cv::circle(mask, c, static_cast<int>(std::lround(r)), 255, cv::FILLED, cv::LINE_AA);
    } else {
        const std::vector<std::vector<cv::Point>> pts{polygon(shape, c, r, angle)};
        cv::fillPoly(mask, pts, 255, cv::LINE_AA);
    }
    cv::Mat layer(img.size(), img.type(), fill);
    if (integer(rng, 0, 2) == 0) {  // textured fill: darker stripes
        const int period = integer(rng, 4, 12);
        for (int x = 0; x < img.cols + img.rows; x += period)
            cv::line(layer, {x, 0}, {x - img.rows, img.rows}, fill * 0.55, std::max(1, period / 3));
    }
    layer.copyTo(img, mask);
    const cv::Rect bounds = cv::boundingRect(mask);
    return cv::Rect2d(bounds);
}

cv::Mat render_image(Rng& rng, int imgsz, int max_objects, std::vector<Placed>& placed) {
    const int width = imgsz;
    const int height = std::max(32, static_cast<int>(imgsz * rng.uniform(0.6, 1.0)));
    cv::Mat img(height, width, CV_8UC3);
    paint_background(img, rng);
    const cv::Scalar background = cv::mean(img);
    const int count = integer(rng, 1, std::max(1, max_objects));
    for (int i = 0, attempts = 0; i < count && attempts < count * 10; ++attempts) {
        const Shape shape = static_cast<Shape>(integer(rng, 0, kShapeCount - 1));
        const double r = rng.uniform(0.04, 0.2) * std::min(width, height);
        const cv::Point2d c(rng.uniform(r * 0.6, width - r * 0.6), rng.uniform(r * 0.6, height - r * 0.6));
        const cv::Rect2d guess(c.x - r, c.y - r, 2 * r, 2 * r);
        bool crowded = false;
        for (const auto& p : placed) crowded |= iou(p.box, guess) > 0.3;
        if (crowded) continue;  // some overlap is wanted, hidden objects are not
        const cv::Rect2d box = draw_shape(img, shape, c, r, rng, background);
        if (box.width >= 3 && box.height >= 3) placed.push_back({shape, box});
        ++i;
    }
    return img;
}

std::string label_lines(const std::vector<Placed>& placed, int width, int height) {
    std::string out;
    char line[128];
    for (const auto& p : placed) {
        std::snprintf(line, sizeof line, "%d %.6f %.6f %.6f %.6f\n", p.cls, (p.box.x + p.box.width / 2) / width,
                      (p.box.y + p.box.height / 2) / height, p.box.width / width, p.box.height / height);
        out += line;
    }
    return out;
}

}  // namespace

const std::vector<std::string>& synthetic_class_names() {
    static const std::vector<std::string> names = {"circle", "square", "triangle", "star", "hexagon", "cross"};
    return names;
}

SynthSummary render_synthetic_dataset(const SynthOptions& o) {
    if (o.out.empty()) throw InvalidArgument("out: name the dataset folder");
    if (o.n < 2)
        throw InvalidArgument("n: must be at least 2 (one train and one val image), got " + std::to_string(o.n));
    if (o.imgsz < 32) throw InvalidArgument("imgsz: must be at least 32, got " + std::to_string(o.imgsz));
    if (!(o.val_fraction > 0 && o.val_fraction < 1)) throw InvalidArgument("val: must be within (0, 1)");
    if (o.max_objects < 1) throw InvalidArgument("max_objects: must be at least 1");
    if (o.format != "jpg" && o.format != "png" && o.format != "bmp" && o.format != "ppm")
        throw InvalidArgument("format: '" + o.format + "' is not jpg, png, bmp or ppm");

    const fs::path root = fs::absolute(o.out);
    const int val = std::clamp(static_cast<int>(std::lround(o.n * o.val_fraction)), 1, o.n - 1);
    SynthSummary summary;
    summary.val_images = val;
    summary.train_images = o.n - val;
    for (const char* split : {"train", "val"}) {
        std::error_code ec;
        fs::create_directories(root / "images" / split, ec);
        fs::create_directories(root / "labels" / split, ec);
        if (ec) throw Error((root / "images" / split).string() + ": cannot create: " + ec.message());
    }
    for (int i = 0; i < o.n; ++i) {
        // Each image has its own stream, so image i does not depend on n.
        Rng rng(o.seed * 0x100000001b3ull + static_cast<std::uint64_t>(i) + 1);
        std::vector<Placed> placed;
        const cv::Mat img = render_image(rng, o.imgsz, o.max_objects, placed);
        const char* split = i < summary.train_images ? "train" : "val";
        char stem[32];
        std::snprintf(stem, sizeof stem, "%06d", i);
        image::write_image(root / "images" / split / (std::string(stem) + "." + o.format), img);
        const std::string labels = label_lines(placed, img.cols, img.rows);
        io::write_file_atomically(root / "labels" / split / (std::string(stem) + ".txt"),
                                  [&](std::ostream& out) { out << labels; });
        summary.objects += static_cast<int>(placed.size());
    }
    std::string yaml =
        "# Synthetic shapes: libreyolo synth n=" + std::to_string(o.n) + " imgsz=" + std::to_string(o.imgsz) +
        " seed=" + std::to_string(o.seed) + "\npath: " + root.string() +
        "\ntrain: images/train\nval: images/val\nnc: " + std::to_string(synthetic_class_names().size()) + "\nnames:\n";
    for (std::size_t c = 0; c < synthetic_class_names().size(); ++c)
        yaml += "  " + std::to_string(c) + ": " + synthetic_class_names()[c] + "\n";
    summary.data_yaml = (root / "data.yaml").string();
    io::write_file_atomically(summary.data_yaml, [&](std::ostream& out) { out << yaml; });
    return summary;
}

}  // namespace libreyolo
