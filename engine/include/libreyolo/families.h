#pragma once
// The family registry as the CLI and the studio see it: which families, sizes and tasks exist
// and what each declares (traits). Construction of networks stays inside the engine.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace libreyolo {

// How an image becomes the network's square input: LibreYOLO's YOLO letterbox (aspect kept,
// top-left, grey padding; resized by OpenCV's bilinear, or by Pillow's as its YOLOX preprocess
// does) or its DETR resize (stretched to the square, by OpenCV's bilinear as its RT-DETR
// preprocess does, or by Pillow's as its D-FINE and DEIM preprocess).
enum class InputResize { Letterbox, LetterboxPil, Stretch, StretchPil };

inline bool is_stretch(InputResize how) {
    return how == InputResize::Stretch || how == InputResize::StretchPil;
}

struct FamilyTraits {
    std::string family;              // "yolo9"
    std::string display_name;        // "YOLOv9"
    std::vector<std::string> sizes;  // "t", "s", "m", "c"
    std::vector<std::string> tasks;  // "detect"
    // LibreYOLO's FILENAME_PREFIX: the published weights of a size are <prefix><size>.pt
    // ("LibreYOLO9t.pt"); empty when LibreYOLO publishes none for the family.
    std::string weights_prefix;
    int default_imgsz = 640;
    // Sizes whose default input differs (LibreYOLO's INPUT_SIZES: YOLOX n and t take 416).
    std::map<std::string, int> size_imgsz;
    // Tasks whose forward is proven to replay bit-identically under CUDA graph capture.
    // Empty until the inference-graph work marks a family (spec: SUPPORTS_CUDA_GRAPH).
    std::set<std::string> cuda_graph_inference_tasks;
    // Tasks whose training step may be captured.
    std::set<std::string> cuda_graph_training_tasks;
    // Whether its attention modules start on the fused kernels (SDPA): only where fused and manual
    // outputs are byte-identical (a test checks it with fused_attention_is_byte_exact); else manual,
    // the equation LibreYOLO's port runs, and Model::set_fused_attention opts in.
    bool fused_attention_default = false;
    // Model::quantize recipes (quantize.h) and the module-name patterns that stay in float by
    // default (LibreYOLO's _FAMILY_KEEP_HIGH_PRECISION: first layer and head).
    std::set<std::string> quant_recipes;
    std::vector<std::string> quant_keep_high_precision;
    InputResize input_resize = InputResize::Letterbox;
    // Detections are the best max_det (query, class) scores, with no NMS (the DETR line).
    bool nms_free = false;
    // NMS candidates are each box's best class above conf (LibreYOLO's YOLOX postprocess), not
    // every class above conf capped at 30,000 (its YOLOv9 postprocess).
    bool best_class_only = false;
    // Whether `train` accepts the family (it has a training recipe); the registry sets it.
    bool trainable = false;

    int default_imgsz_for(std::string_view size) const;
    bool supports_cuda_graph_inference(std::string_view task) const;
    bool supports_cuda_graph_training(std::string_view task) const;
};

// A resolved model name: family × size × task.
struct ModelName {
    std::string family;
    std::string size;
    std::string task = "detect";
    std::string canonical() const;  // "yolo9-t"
};

const std::vector<FamilyTraits>& registered_families();
// Throws UnknownModel naming the family (with the known ones) when absent.
const FamilyTraits& family_traits(std::string_view family);

// True when text looks like a model name rather than a path ("yolo9-t", "yolov9t", "LibreYOLO9t").
bool looks_like_model_name(std::string_view text);
// Parses "yolo9-t", "yolo9t", "yolov9-t", "LibreYOLO9t" (case-insensitive). Throws UnknownModel
// with a "did you mean" suggestion for unknown families or sizes.
ModelName parse_model_name(std::string_view text);

// The registry's name for a family as checkpoints spell it ("LibreYOLO9", "yolov9", "LibreRTDETR",
// case-insensitive); any other text comes back unchanged (family_traits then names the known ones).
std::string canonical_family(std::string_view family);

// All canonical names ("yolo9-t", ...), for help texts and suggestions.
std::vector<std::string> known_model_names();
// The model names in short, family by family: "yolo9-t|s|m|c, rtdetr-r18|r34|r50, ..."; only the
// trainable families' when trainable_only.
std::string model_names_summary(bool trainable_only = false);

// The closest of candidates to text by edit distance, or "" when none is close.
std::string closest_match(std::string_view text, const std::vector<std::string>& candidates);

}  // namespace libreyolo
