#pragma once
// Datasets in LibreYOLO/Ultralytics YOLO format: the data YAML, image lists, label files, and the
// check that `libreyolo check` and training run over them.
#include <map>
#include <string>
#include <vector>

namespace libreyolo {

struct DatasetConfig {
    std::string yaml_path;
    std::string root;  // `path:` resolved against the YAML's folder
    // Each split's entries as written (folders, .txt lists, single images), resolved to absolute paths.
    std::vector<std::string> train, val, test;
    std::vector<std::string> names;  // index = class id
    // COCO JSON annotation files by split (`annotations: {train: ..., val: ...}`), resolved. A split
    // listed here takes its labels from the JSON, its images from the split's single folder.
    std::map<std::string, std::string> annotations;
};

// Reads a data YAML. Throws FileNotFound for a missing file and FormatError naming the file and
// the key for anything malformed (no `train`, names neither list nor dict, nc disagreeing, ...).
DatasetConfig load_dataset_config(const std::string& yaml_path);

// Image files named by sources: folders (recursive), .txt lists (one path a line, relative to the
// list's folder), single images. Sorted, without duplicates. Throws FileNotFound naming a missing
// source.
std::vector<std::string> list_images(const std::vector<std::string>& sources);

// The label file of an image: the last "/images/" becomes "/labels/", the extension ".txt".
std::string label_path_for(const std::string& image_path);

struct LabelBox {
    int cls = 0;
    float cx = 0, cy = 0, w = 0, h = 0;  // normalised to [0, 1]
    float area = -1;                     // pixels², a COCO annotation's own; < 0: the box's
};

struct LabelProblem {
    int line = 0;      // 1-based; 0 for the file as a whole
    std::string kind;  // "malformed", "out of range", "unknown class", "duplicate"
    std::string message;
};

struct LabelFile {
    std::vector<LabelBox> boxes;         // the rows that are usable
    std::vector<LabelProblem> problems;  // the rows that were dropped, and why
    int polygons = 0;                    // segment rows reduced to their box
};

// Parses `cls cx cy w h` rows (and `cls x1 y1 x2 y2 ...` polygon rows, reduced to their box).
// nc bounds the class ids. Bad rows are dropped and reported, never fatal.
LabelFile parse_label_text(const std::string& text, int nc);

// One image of a split and its labels, from YOLO .txt files or a COCO JSON.
struct LabelledImage {
    std::string image;
    std::string label_source;  // the .txt or .json the labels came from, "" when none
    LabelFile labels;
};

// Every image of split ("train", "val", "test") with its labels. COCO categories become classes
// 0..n-1 in ascending category-id order (LibreYOLO's COCODataset); crowd annotations are left out.
// Throws FileNotFound / FormatError naming the JSON file and the field at fault.
std::vector<LabelledImage> load_split_labels(const DatasetConfig& config, const std::string& split);

struct SplitReport {
    std::string split;
    int images = 0;          // image files listed
    int usable = 0;          // images that decode (or all, when not decoding)
    int labelled = 0;        // with at least one usable box
    int backgrounds = 0;     // no label file, or an empty one
    int corrupt_images = 0;  // cannot be decoded
    int boxes = 0;
    int polygons = 0;
    int malformed = 0, out_of_range = 0, unknown_class = 0, duplicates = 0;
    std::vector<std::string> problems;  // "file:line: message", one per problem found
};

struct DatasetReport {
    DatasetConfig config;
    std::vector<SplitReport> splits;  // train, val, then test when present
    // False when a split that training needs (train, val) has no usable image.
    bool usable() const;
};

// decode_images: also decode every image to find corrupt ones (slower, thorough).
DatasetReport check_dataset(const std::string& yaml_path, bool decode_images = true);

}  // namespace libreyolo
