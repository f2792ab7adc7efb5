#include "registry/network_spec.h"

#include <algorithm>

#include "libreyolo/errors.h"
#include "nn/attention_policy.h"

namespace libreyolo::registry {

nn::Detector build_network(const NetworkSpec& spec) {
    const FamilyDefinition& family = family_definition(spec.name.family);
    const FamilyTraits& traits = family.traits;
    if (std::find(traits.tasks.begin(), traits.tasks.end(), spec.name.task) == traits.tasks.end())
        throw UnknownModel("model family " + traits.family + " has no task '" + spec.name.task + "'");
    nn::Detector net = family.build(spec);
    nn::set_fused_attention(*net, traits.fused_attention_default);
    return net;
}

NetworkSpec infer_network_spec(const WeightMap& weights, const io::CheckpointMeta& meta, const std::string& source) {
    const FamilyDefinition* family = nullptr;
    if (!meta.model_family.empty()) {
        family = &family_definition(canonical_family(meta.model_family));
    } else {
        for (const FamilyDefinition& candidate : family_definitions())
            if (candidate.recognises(weights)) {
                family = &candidate;
                break;
            }
        if (!family) {
            std::string known;
            for (const FamilyDefinition& f : family_definitions())
                known += (known.empty() ? "" : ", ") + f.traits.family;
            throw FormatError(source +
                              ": cannot tell the model family: no 'model_family' field, and the tensor names are " +
                              "those of none of " + known);
        }
    }
    NetworkSpec spec;
    spec.name.family = family->traits.family;
    spec.name.task = meta.task.empty() ? family->traits.tasks.front() : meta.task;
    family->infer_spec(weights, meta, source, spec);
    return spec;
}

}  // namespace libreyolo::registry
