#include "libreyolo/dataset.h"

#include <yaml-cpp/yaml.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "image/media_io.h"
#include "image/sources.h"
#include "libreyolo/errors.h"
#include "libreyolo/log.h"

namespace libreyolo {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void bad_key(const std::string& yaml, const std::string& key, const std::string& why) {
    throw FormatError(yaml + ": key '" + key + "': " + why);
}

std::vector<std::string> split_entries(const YAML::Node& node, const std::string& yaml, const std::string& key,
                                       const fs::path& root) {
    std::vector<std::string> out;
    auto add = [&](const YAML::Node& n) {
        if (!n.IsScalar() || n.Scalar().empty()) bad_key(yaml, key, "expected a path or a list of paths");
        fs::path p = n.Scalar();
        out.push_back((p.is_absolute() ? p : root / p).lexically_normal().string());
    };
    if (node.IsSequence()) {
        if (node.size() == 0) bad_key(yaml, key, "the list is empty");
        for (const auto& n : node) add(n);
    } else {
        add(node);
    }
    return out;
}

std::string read_text(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

DatasetConfig load_dataset_config(const std::string& yaml_path) {
    std::error_code ec;
    if (!fs::is_regular_file(yaml_path, ec)) throw FileNotFound("data: '" + yaml_path + "': no such file");
    YAML::Node doc;
    try {
        doc = YAML::LoadFile(yaml_path);
    } catch (const YAML::Exception& e) {
        throw FormatError(yaml_path + ": line " + std::to_string(e.mark.line + 1) + ": not valid YAML: " + e.msg);
    }
    if (!doc.IsMap()) throw FormatError(yaml_path + ": not a mapping of keys (path, train, val, names, ...)");

    // Dataset hubs add keys of their own (download, roboflow, license...): say so, do not refuse.
    static const std::set<std::string> known = {"path",  "train", "val",      "test",
                                                "names", "nc",    "download", "annotations"};
    for (const auto& kv : doc) {
        const std::string key = kv.first.as<std::string>();
        if (!known.count(key))
            log_warning("data",
                        yaml_path + ": key '" + key + "' is not used (known: path, train, val, test, names, nc)");
    }

    DatasetConfig c;
    c.yaml_path = fs::absolute(yaml_path).string();
    const fs::path yaml_dir = fs::absolute(yaml_path).parent_path();
    fs::path root = yaml_dir;
    if (doc["path"]) {
        if (!doc["path"].IsScalar()) bad_key(yaml_path, "path", "expected a folder");
        const fs::path p = doc["path"].Scalar();
        root = p.is_absolute() ? p : yaml_dir / p;
    }
    c.root = root.lexically_normal().string();

    if (!doc["train"]) bad_key(yaml_path, "train", "missing (the training images are required)");
    if (!doc["val"]) bad_key(yaml_path, "val", "missing (the validation images are required)");
    c.train = split_entries(doc["train"], yaml_path, "train", root);
    c.val = split_entries(doc["val"], yaml_path, "val", root);
    if (doc["test"] && !doc["test"].IsNull()) c.test = split_entries(doc["test"], yaml_path, "test", root);

    if (const YAML::Node ann = doc["annotations"]) {
        if (!ann.IsMap())
            bad_key(yaml_path, "annotations", "expected split: COCO JSON path (annotations: {train: a.json})");
        for (const auto& kv : ann) {
            const std::string split = kv.first.Scalar();
            if (split != "train" && split != "val" && split != "test")
                bad_key(yaml_path, "annotations", "split '" + split + "' is not train, val or test");
            c.annotations[split] = split_entries(kv.second, yaml_path, "annotations." + split, root).front();
        }
    }

    const YAML::Node names = doc["names"];
    if (!names) bad_key(yaml_path, "names", "missing (class names as a list or an index: name mapping)");
    if (names.IsSequence()) {
        for (const auto& n : names) {
            if (!n.IsScalar()) bad_key(yaml_path, "names", "every name must be a string");
            c.names.push_back(n.Scalar());
        }
    } else if (names.IsMap()) {
        std::map<int, std::string> by_index;
        for (const auto& kv : names) {
            int index = -1;
            try {
                index = kv.first.as<int>();
            } catch (const YAML::Exception&) {
            }
            if (index < 0 || !kv.second.IsScalar())
                bad_key(yaml_path, "names", "entry '" + kv.first.Scalar() + "' is not index: name");
            by_index[index] = kv.second.Scalar();
        }
        for (int i = 0; i < static_cast<int>(by_index.size()); ++i) {
            if (!by_index.count(i))
                bad_key(yaml_path, "names", "class " + std::to_string(i) + " has no name (indices must be 0..nc-1)");
            c.names.push_back(by_index[i]);
        }
    } else {
        bad_key(yaml_path, "names", "expected a list or an index: name mapping");
    }
    if (c.names.empty()) bad_key(yaml_path, "names", "no classes");
    if (doc["nc"]) {
        int nc = -1;
        try {
            nc = doc["nc"].as<int>();
        } catch (const YAML::Exception&) {
            bad_key(yaml_path, "nc", "not an integer");
        }
        if (nc != static_cast<int>(c.names.size()))
            bad_key(yaml_path, "nc",
                    std::to_string(nc) + " but names has " + std::to_string(c.names.size()) + " classes");
    }
    return c;
}

std::vector<std::string> list_images(const std::vector<std::string>& sources) {
    std::set<std::string> images;
    std::error_code ec;
    for (const auto& source : sources) {
        const fs::path s(source);
        if (fs::is_directory(s, ec)) {
            for (auto it = fs::recursive_directory_iterator(s, ec); it != fs::recursive_directory_iterator();
                 it.increment(ec))
                if (it->is_regular_file() && image::is_image_file(it->path())) images.insert(it->path().string());
        } else if (fs::is_regular_file(s, ec) && s.extension() == ".txt") {
            std::istringstream lines(read_text(s));
            std::string line;
            while (std::getline(lines, line)) {
                line.erase(line.find_last_not_of(" \t\r") + 1);
                if (line.empty()) continue;
                fs::path p(line);
                if (p.is_relative()) p = s.parent_path() / p;
                images.insert(p.lexically_normal().string());
            }
        } else if (fs::is_regular_file(s, ec) && image::is_image_file(s)) {
            images.insert(s.string());
        } else {
            throw FileNotFound("data: image source '" + source + "': no such folder, list or image");
        }
    }
    return {images.begin(), images.end()};
}

std::string label_path_for(const std::string& image_path) {
    std::string p = image_path;
    const std::string images = std::string(1, fs::path::preferred_separator) + "images" + fs::path::preferred_separator;
    if (const auto at = p.rfind(images); at != std::string::npos)
        p.replace(at, images.size(),
                  std::string(1, fs::path::preferred_separator) + "labels" + fs::path::preferred_separator);
    return fs::path(p).replace_extension(".txt").string();
}

LabelFile parse_label_text(const std::string& text, int nc) {
    LabelFile out;
    std::istringstream lines(text);
    std::string line;
    std::set<std::vector<float>> seen;
    for (int number = 1; std::getline(lines, line); ++number) {
        std::istringstream fields(line);
        std::vector<double> v;
        std::string token;
        bool numeric = true;
        while (fields >> token) {
            try {
                std::size_t used = 0;
                v.push_back(std::stod(token, &used));
                numeric &= used == token.size();
            } catch (const std::exception&) {
                numeric = false;
            }
        }
        if (v.empty() && numeric) continue;  // blank line
        auto problem = [&](const char* kind, const std::string& message) {
            out.problems.push_back({number, kind, message});
        };
        if (!numeric || (v.size() != 5 && (v.size() < 7 || v.size() % 2 == 0))) {
            problem("malformed", "expected 'class cx cy w h' or 'class x1 y1 x2 y2 ...', got '" + line + "'");
            continue;
        }
        if (v[0] < 0 || v[0] != std::floor(v[0])) {
            problem("malformed", "class '" + std::to_string(v[0]) + "' is not a non-negative integer");
            continue;
        }
        const int cls = static_cast<int>(v[0]);
        if (cls >= nc) {
            problem("unknown class",
                    "class " + std::to_string(cls) + " but the dataset has " + std::to_string(nc) + " classes");
            continue;
        }
        LabelBox box{cls, 0, 0, 0, 0};
        bool in_range = true;
        if (v.size() == 5) {
            box.cx = static_cast<float>(v[1]);
            box.cy = static_cast<float>(v[2]);
            box.w = static_cast<float>(v[3]);
            box.h = static_cast<float>(v[4]);
            in_range = box.w > 0 && box.h > 0 && box.cx - box.w / 2 >= -1e-3f && box.cx + box.w / 2 <= 1 + 1e-3f &&
                       box.cy - box.h / 2 >= -1e-3f && box.cy + box.h / 2 <= 1 + 1e-3f;
        } else {
            double x1 = 1, y1 = 1, x2 = 0, y2 = 0;
            for (std::size_t i = 1; i + 1 < v.size(); i += 2) {
                in_range &= v[i] >= 0 && v[i] <= 1 && v[i + 1] >= 0 && v[i + 1] <= 1;
                x1 = std::min(x1, v[i]), x2 = std::max(x2, v[i]), y1 = std::min(y1, v[i + 1]),
                y2 = std::max(y2, v[i + 1]);
            }
            box = {cls, static_cast<float>((x1 + x2) / 2), static_cast<float>((y1 + y2) / 2),
                   static_cast<float>(x2 - x1), static_cast<float>(y2 - y1)};
            in_range &= box.w > 0 && box.h > 0;
            ++out.polygons;
        }
        if (!in_range) {
            problem("out of range", "box outside the normalised [0, 1] image or of zero size: '" + line + "'");
            continue;
        }
        if (!seen.insert({static_cast<float>(cls), box.cx, box.cy, box.w, box.h}).second) {
            problem("duplicate", "same row as an earlier one, dropped");
            continue;
        }
        out.boxes.push_back(box);
    }
    return out;
}

namespace {

const std::vector<std::string>& split_sources(const DatasetConfig& c, const std::string& split) {
    if (split == "train") return c.train;
    if (split == "val") return c.val;
    if (split == "test") return c.test;
    throw InvalidArgument("split: '" + split + "' is not train, val or test");
}

std::vector<LabelledImage> load_coco_labels(const std::string& json_path, const std::vector<std::string>& sources,
                                            int nc) {
    std::error_code ec;
    if (!fs::is_regular_file(json_path, ec)) throw FileNotFound("annotations: '" + json_path + "': no such file");
    if (sources.size() != 1 || !fs::is_directory(sources.front(), ec))
        throw FormatError(json_path + ": a COCO JSON split needs one image folder as its split entry");
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(read_text(json_path));
    } catch (const nlohmann::json::exception& e) {
        throw FormatError(json_path + ": not JSON: " + e.what());
    }
    auto field = [&](const nlohmann::json& obj, const char* key, const std::string& where) -> const nlohmann::json& {
        if (!obj.is_object() || !obj.contains(key))
            throw FormatError(json_path + ": " + where + " has no '" + key + "'");
        return obj.at(key);
    };
    std::vector<int64_t> category_ids;
    for (const auto& c : field(doc, "categories", "the file"))
        category_ids.push_back(field(c, "id", "a category").get<int64_t>());
    std::sort(category_ids.begin(), category_ids.end());
    if (static_cast<int>(category_ids.size()) != nc)
        throw FormatError(json_path + ": " + std::to_string(category_ids.size()) + " categories but names has " +
                          std::to_string(nc) + " classes");
    std::map<int64_t, int> class_of;
    for (std::size_t i = 0; i < category_ids.size(); ++i) class_of[category_ids[i]] = static_cast<int>(i);

    std::map<int64_t, std::size_t> index_of;
    std::vector<LabelledImage> out;
    std::vector<std::pair<double, double>> size_of;
    for (const auto& img : field(doc, "images", "the file")) {
        const int64_t id = field(img, "id", "an image").get<int64_t>();
        index_of[id] = out.size();
        out.push_back(
            {(fs::path(sources.front()) / field(img, "file_name", "image " + std::to_string(id)).get<std::string>())
                 .string(),
             json_path,
             {}});
        size_of.emplace_back(field(img, "width", "image " + std::to_string(id)).get<double>(),
                             field(img, "height", "image " + std::to_string(id)).get<double>());
    }
    int number = 0;
    for (const auto& a : field(doc, "annotations", "the file")) {
        ++number;
        const std::string where = "annotation " + std::to_string(a.value("id", number));
        const auto it = index_of.find(field(a, "image_id", where).get<int64_t>());
        LabelledImage* target = it == index_of.end() ? nullptr : &out[it->second];
        if (!target)
            throw FormatError(json_path + ": " + where + " refers to image " + a["image_id"].dump() +
                              ", which is not listed");
        if (a.value("iscrowd", 0) != 0) continue;
        const auto cls = class_of.find(field(a, "category_id", where).get<int64_t>());
        const auto& bbox = field(a, "bbox", where);
        const auto [w, h] = size_of[it->second];
        if (cls == class_of.end()) {
            target->labels.problems.push_back(
                {number, "unknown class", where + ": category " + a["category_id"].dump() + " is not in categories"});
            continue;
        }
        if (!bbox.is_array() || bbox.size() != 4 || w <= 0 || h <= 0) {
            target->labels.problems.push_back({number, "malformed", where + ": bbox is not [x, y, w, h]"});
            continue;
        }
        const double x = bbox[0], y = bbox[1], bw = bbox[2], bh = bbox[3];
        if (bw <= 0 || bh <= 0 || x < -0.5 || y < -0.5 || x + bw > w + 0.5 || y + bh > h + 0.5) {
            target->labels.problems.push_back({number, "out of range", where + ": bbox outside the image or empty"});
            continue;
        }
        target->labels.boxes.push_back({cls->second, float((x + bw / 2) / w), float((y + bh / 2) / h), float(bw / w),
                                        float(bh / h),
                                        a.contains("area") && a["area"].is_number() ? a["area"].get<float>() : -1.0f});
    }
    return out;
}

}  // namespace

std::vector<LabelledImage> load_split_labels(const DatasetConfig& config, const std::string& split) {
    const std::vector<std::string>& sources = split_sources(config, split);
    const int nc = static_cast<int>(config.names.size());
    if (auto it = config.annotations.find(split); it != config.annotations.end())
        return load_coco_labels(it->second, sources, nc);
    std::vector<LabelledImage> out;
    for (const auto& image : list_images(sources)) {
        LabelledImage item{image, label_path_for(image), {}};
        std::error_code ec;
        if (fs::exists(item.label_source, ec))
            item.labels = parse_label_text(read_text(item.label_source), nc);
        else
            item.label_source.clear();
        out.push_back(std::move(item));
    }
    return out;
}

bool DatasetReport::usable() const {
    for (const auto& s : splits)
        if ((s.split == "train" || s.split == "val") && s.usable == 0) return false;
    return !splits.empty();
}

DatasetReport check_dataset(const std::string& yaml_path, bool decode_images) {
    DatasetReport report;
    report.config = load_dataset_config(yaml_path);
    std::vector<std::string> splits = {"train", "val"};
    if (!report.config.test.empty()) splits.push_back("test");
    for (const auto& name : splits) {
        SplitReport s;
        s.split = name;
        const std::vector<LabelledImage> images = load_split_labels(report.config, name);
        s.images = static_cast<int>(images.size());
        for (const auto& item : images) {
            if (decode_images && image::read_image(item.image).empty()) {
                ++s.corrupt_images;
                s.problems.push_back(item.image + ": cannot decode the image (corrupt, truncated or missing); skipped");
                continue;
            }
            ++s.usable;
            for (const auto& p : item.labels.problems) {
                s.problems.push_back(item.label_source + ":" + std::to_string(p.line) + ": " + p.kind + ": " +
                                     p.message);
                if (p.kind == "malformed")
                    ++s.malformed;
                else if (p.kind == "out of range")
                    ++s.out_of_range;
                else if (p.kind == "unknown class")
                    ++s.unknown_class;
                else if (p.kind == "duplicate")
                    ++s.duplicates;
            }
            s.boxes += static_cast<int>(item.labels.boxes.size());
            s.polygons += item.labels.polygons;
            if (item.labels.boxes.empty())
                ++s.backgrounds;
            else
                ++s.labelled;
        }
        report.splits.push_back(std::move(s));
    }
    return report;
}

}  // namespace libreyolo
