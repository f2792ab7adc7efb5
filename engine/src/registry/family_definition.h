#pragma once
// Everything the engine knows about one model family, in one record. A family's folder fills it
// (engine/src/models/<family>/family.cpp) and models/registered_families.cpp lists the records:
// no other file names a family (docs/architecture.md, "Adding a family").
#include <torch/torch.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "io/checkpoint.h"
#include "libreyolo/families.h"
#include "libreyolo/train.h"
#include "nn/detector.h"

namespace libreyolo::training {
class FamilyRecipe;
}

namespace libreyolo::registry {

using WeightMap = std::map<std::string, torch::Tensor>;

// What a network is built from: family × size × task, the class count, and builder parameters that
// weights may carry.
struct NetworkSpec {
    ModelName name;
    int64_t nc = 80;
    int64_t class_hidden = 0;  // 0: the family's default class-tower width for nc
};

struct FamilyDefinition {
    // What the CLI and the studio see (libreyolo/families.h): sizes, tasks, graph support per task,
    // the fused-attention default, quantization recipes, how an image becomes the input.
    FamilyTraits traits;
    // Lower-case spellings users of LibreYOLO and Ultralytics type for the family, besides
    // traits.family ("yolov9", "libreyolo9"); a model name is an alias followed by a size.
    std::vector<std::string> aliases;
    // Whether weights with these keys and shapes are the family's (a header's meta tensors are
    // enough): how a checkpoint without a model_family field is recognised.
    std::function<bool(const WeightMap&)> recognises;
    // Fills spec's size, nc and builder parameters from the weights and the checkpoint's fields
    // (family and task are set). Throws FormatError naming source when they disagree or tell nothing.
    std::function<void(const WeightMap&, const io::CheckpointMeta&, const std::string& source, NetworkSpec& spec)>
        infer_spec;
    std::function<nn::Detector(const NetworkSpec&)> build;
    // LibreYOLO's TRAIN_CONFIG for the family, applied over TrainOptions{}; empty: the shared ones.
    std::function<void(TrainOptions&, const std::string& size)> training_defaults;
    // The training loop's view of the family (train/family_recipe.h); empty: it cannot be trained.
    std::function<std::unique_ptr<training::FamilyRecipe>(const nn::Detector&, int nc)> make_recipe;
    // ONNX export: the lowest opset its network's emit_onnx writes, which is the default (0: it has
    // no exporter), and whether nms=true can put NonMaxSuppression after its output.
    int onnx_opset = 0;
    bool onnx_embedded_nms = false;
};

// The registered families, in the order of models/registered_families.cpp.
const std::vector<FamilyDefinition>& family_definitions();

// What the registry derives from each definition for its traits (trainable: it has a recipe).
std::vector<FamilyDefinition> with_derived_traits(std::vector<FamilyDefinition> definitions);

// Throws UnknownModel naming the family and the known ones when absent.
const FamilyDefinition& family_definition(std::string_view family);

}  // namespace libreyolo::registry
