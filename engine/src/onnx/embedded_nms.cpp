#include "onnx/embedded_nms.h"

#include "onnx/layers.h"

#include <algorithm>
#include <vector>

namespace libreyolo::onnx {
namespace {

constexpr const char* kPrefix = "nms.";

class NmsBuilder {
public:
    explicit NmsBuilder(Graph& g) : g_(g) {}

    std::string op(const std::string& type, const std::vector<std::string>& inputs, const std::string& name,
                   const std::vector<Attribute>& attributes = {}) {
        return g_.op(type, inputs, kPrefix + name, attributes);
    }
    std::string scalar(const std::string& name, float v) { return g_.constant(kPrefix + name, torch::tensor(v)); }
    std::string ints(const std::string& name, const std::vector<int64_t>& v) { return int64s(g_, kPrefix + name, v); }
    // Columns [begin, end) of a 2-D value.
    std::string columns(const std::string& x, int64_t begin, int64_t end, const std::string& name) {
        return slice(g_, x, 1, begin, end, kPrefix + name);
    }
    // Column k of a 2-D value, as a 1-D value.
    std::string column(const std::string& x, int64_t k, const std::string& name) {
        return op("Squeeze", {columns(x, k, k + 1, name + ".slice"), ints(name + ".axes", {1})}, name);
    }
    std::string is_finite(const std::string& x, const std::string& name) {
        return op("Not", {op("Or", {op("IsNaN", {x}, name + ".nan"), op("IsInf", {x}, name + ".inf")}, name + ".bad")},
                  name);
    }
    std::string keep_where(const std::string& x, const std::string& mask, const std::string& name) {
        return op("Compress", {x, mask}, name, {{"axis", int64_t{0}}});
    }
    std::string concat(const std::vector<std::string>& parts, int64_t axis, const std::string& name) {
        return op("Concat", parts, name, {{"axis", axis}});
    }
    std::string unsqueeze(const std::string& x, int64_t axis, const std::string& name) {
        return op("Unsqueeze", {x, ints(name + ".axes", {axis})}, name);
    }

private:
    Graph& g_;
};

}  // namespace

std::string embedded_nms(Graph& g, const std::string& raw, const EmbeddedNms& p) {
    NmsBuilder b(g);
    const int64_t width = 4 + p.classes;
    // (1, 4 + nc, N) → (N, 4 + nc), in float32.
    std::string pred = b.op("Transpose", {raw}, "transpose", {{"perm", std::vector<int64_t>{0, 2, 1}}});
    pred = b.op("Reshape", {pred, b.ints("rows.shape", {p.anchors, width})}, "rows");
    if (g.float_type() != torch::kFloat32)
        pred = b.op("Cast", {pred}, "float32", {{"to", int64_t{1}}});  // TensorProto FLOAT
    const std::string boxes_all = b.op("Clip",
                                       {b.columns(pred, 0, 4, "boxes"), b.scalar("canvas.min", 0.0f),
                                        b.scalar("canvas.max", static_cast<float>(p.canvas))},
                                       "boxes.clamped");
    const std::string scores_all = b.columns(pred, 4, width, "scores");
    // Non-finite boxes become zeros, and their rows' scores (and non-finite scores) -1.
    const std::string box_finite = b.is_finite(boxes_all, "boxes.finite");
    const std::string safe_boxes = b.op("Where", {box_finite, boxes_all, b.scalar("zero", 0.0f)}, "boxes.safe");
    const std::string row_finite =
        b.op("Cast",
             {b.op("ReduceMin", {b.op("Cast", {box_finite}, "boxes.finite.int", {{"to", int64_t{6}}})},
                   "boxes.finite.rows", {{"axes", std::vector<int64_t>{1}}, {"keepdims", int64_t{1}}})},
             "boxes.finite.rows.bool", {{"to", int64_t{9}}});
    const std::string score_ok = b.op("And", {row_finite, b.is_finite(scores_all, "scores.finite")}, "scores.ok");
    const std::string safe_scores = b.op("Where", {score_ok, scores_all, b.scalar("minus_one", -1.0f)}, "scores.safe");

    // Multi-label candidates: the best max_candidates (anchor, class) scores, those above conf.
    const int64_t pairs = p.anchors * p.classes;
    const int64_t top = std::min(pairs, std::max(p.max_det, p.max_candidates));
    const std::string flat = b.op("Reshape", {safe_scores, b.ints("flat.shape", {-1})}, "scores.flat");
    const std::vector<std::string> best =
        g.node("TopK", {flat, b.ints("candidates.k", {top})}, std::string(kPrefix) + "candidates", 2,
               {{"axis", int64_t{0}}, {"largest", int64_t{1}}, {"sorted", int64_t{1}}});
    const std::string above = b.op("Greater", {best[0], b.scalar("conf", p.conf)}, "candidates.above_conf");
    const std::string scores = b.keep_where(best[0], above, "candidates.scores");
    const std::string flat_index = b.keep_where(best[1], above, "candidates.index");
    const std::string nc = g.constant(std::string(kPrefix) + "classes", torch::tensor(p.classes, torch::kInt64));
    const std::string anchor = b.op("Div", {flat_index, nc}, "candidates.anchor");
    const std::string cls_index =
        b.op("Sub", {flat_index, b.op("Mul", {anchor, nc}, "candidates.anchor_first")}, "candidates.class_index");
    std::string boxes = b.op("Gather", {safe_boxes, anchor}, "candidates.boxes", {{"axis", int64_t{0}}});
    std::string cls = b.op("Cast", {cls_index}, "candidates.class", {{"to", int64_t{1}}});
    // Boxes with area: x2 > x1 and y2 > y1.
    const std::string valid = b.op("And",
                                   {b.op("Greater", {b.column(boxes, 2, "x2"), b.column(boxes, 0, "x1")}, "wide"),
                                    b.op("Greater", {b.column(boxes, 3, "y2"), b.column(boxes, 1, "y1")}, "tall")},
                                   "candidates.valid");
    boxes = b.keep_where(boxes, valid, "valid.boxes");
    const std::string valid_scores = b.keep_where(scores, valid, "valid.scores");
    cls = b.keep_where(cls, valid, "valid.class");

    // Class-aware suppression: each class's boxes shifted by class · step, step wider than every box.
    const std::string lo = b.op("ReduceMin", {safe_boxes}, "range.min", {{"keepdims", int64_t{0}}});
    const std::string span =
        b.op("Sub", {b.op("ReduceMax", {safe_boxes}, "range.max", {{"keepdims", int64_t{0}}}), lo}, "range.span");
    const std::string one = b.scalar("one", 1.0f);
    const std::string step = b.op("Add", {b.op("Max", {span, one}, "range.at_least_one"), one}, "range.step");
    const std::string shifted = b.op("Add",
                                     {b.op("Sub", {boxes, lo}, "shift.origin"),
                                      b.op("Mul", {b.unsqueeze(cls, 1, "shift.class"), step}, "shift.offset")},
                                     "shift.boxes");
    const std::string selected =
        b.op("NonMaxSuppression",
             {b.unsqueeze(shifted, 0, "suppress.boxes"),
              b.op("Reshape", {valid_scores, b.ints("suppress.scores.shape", {1, 1, -1})}, "suppress.scores"),
              b.ints("suppress.max_output", {top}),
              g.constant(std::string(kPrefix) + "suppress.iou", torch::tensor({p.iou}))},
             "suppress", {{"center_point_box", int64_t{0}}});
    const std::string keep = b.column(selected, 2, "keep");

    // Rows [x1, y1, x2, y2, score, class], at least max_det of them (zeros), the best max_det kept.
    const std::string rows =
        b.concat({b.op("Gather", {boxes, keep}, "kept.boxes", {{"axis", int64_t{0}}}),
                  b.unsqueeze(b.op("Gather", {valid_scores, keep}, "kept.scores.flat", {{"axis", int64_t{0}}}), 1,
                              "kept.scores"),
                  b.unsqueeze(b.op("Gather", {cls, keep}, "kept.class.flat", {{"axis", int64_t{0}}}), 1, "kept.class")},
                 1, "kept");
    const std::string padded =
        b.concat({rows, g.constant(std::string(kPrefix) + "padding", torch::zeros({p.max_det, 6}))}, 0, "padded");
    const std::vector<std::string> order = g.node(
        "TopK", {b.column(padded, 4, "padded.scores"), b.ints("output.k", {p.max_det})}, std::string(kPrefix) + "order",
        2, {{"axis", int64_t{0}}, {"largest", int64_t{1}}, {"sorted", int64_t{1}}});
    const std::string detections = b.op("Gather", {padded, order[1]}, "detections.rows", {{"axis", int64_t{0}}});
    return b.op("Reshape", {detections, b.ints("detections.shape", {1, p.max_det, 6})}, "detections");
}

}  // namespace libreyolo::onnx
