// train_defaults: LibreYOLO's per-family training configuration (its TRAIN_CONFIG classes).
#include <filesystem>

#include "io/checkpoint.h"
#include "io/torch_checkpoint.h"
#include "libreyolo/families.h"
#include "libreyolo/pretrained.h"
#include "libreyolo/train.h"
#include "registry/network_spec.h"

namespace libreyolo {
namespace {

// The family and size of model; family "" when model is neither a model name nor a file (train()
// says what is wrong with it).
ModelName architecture_of(const std::string& model) {
    if (looks_like_model_name(model)) return parse_model_name(model);
    if (!std::filesystem::is_regular_file(model))  // LibreYOLO's file name not downloaded yet, or a typo
        return is_pretrained_file_name(model) ? parse_model_name(std::filesystem::path(model).stem().string())
                                              : ModelName{};
    const io::TensorFile file = io::read_weights_layout(model);  // names and shapes: no weights read
    return registry::infer_network_spec(file.tensors, io::from_metadata(file.metadata, model), model).name;
}

}  // namespace

TrainOptions train_defaults(const std::string& model) {
    TrainOptions o;
    o.model = model;
    const ModelName name = architecture_of(model);
    if (name.family.empty()) return o;
    const registry::FamilyDefinition& definition = registry::family_definition(name.family);
    if (definition.training_defaults) definition.training_defaults(o, name.size);
    return o;
}

}  // namespace libreyolo
