#pragma once
// The training options schema: every key of TrainOptions once, with its type, range or choices, help
// text and the families it applies to (as Ultralytics' cfg/default.yaml with get_cfg/check_cfg).
// The CLI's parsing, checks, --help and did-you-mean, the run's saved train_config.yaml and its
// resume state, the studio's Train form and docs/options.md all come from it. Families change
// defaults in their own folder (train_defaults), never here.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "libreyolo/train.h"

namespace libreyolo {

enum class OptionType {
    Bool,       // true/false (also 1/0, yes/no)
    Int,        // a whole number
    Float,      // a number
    FloatPair,  // low,high
    Text,       // a path, a name or a device list
    Choice,     // one of OptionSpec::choices
};

// Where an option shows: the CLI help's and docs' sections, the studio's rows (Basics on the form,
// the others under "More options").
enum class OptionSection { Basics, Optimisation, Augmentation, Run, Distributed };

struct OptionSpec {
    std::string key;
    std::vector<std::string> aliases;  // other names for it (min_lr_ratio for lrf)
    // LibreYOLO's TrainConfig name, which train_config.yaml uses, where it is not key (min_lr_ratio).
    std::string libreyolo_key;
    OptionType type = OptionType::Text;
    OptionSection section = OptionSection::Basics;
    std::string help;
    // Bounds of a number (or of both numbers of a pair); open: the bound itself is refused.
    std::optional<double> min, max;
    bool min_open = false, max_open = false;
    std::vector<std::string> choices;   // Choice: the names, as LibreYOLO spells them
    std::vector<std::string> families;  // the families it acts on; empty: every family
    // A resumed run takes the value from its checkpoint; false: the caller's (device, workers, ...).
    bool resumed = true;
    std::string flag;  // also given as --<flag> (cuda_graph: --cuda-graph)
    // The value as the CLI spells it ("16", "0.01", "true", "0.5,1.5", "AdamW").
    std::function<std::string(const TrainOptions&)> get;
    // Parses text into the field: throws InvalidArgument "key=text: why" for text of the wrong type
    // or a name not among choices (bounds are check()'s).
    std::function<void(TrainOptions&, const std::string&)> set;
    // Throws InvalidArgument naming the key when the value lies outside the bounds.
    void check(const TrainOptions& o) const;
    bool applies_to(std::string_view family) const;
    // "N >= 1", "F in [0, 1]", "SGD | Adam | AdamW", "LOW,HIGH > 0": what the value may be.
    std::string value_text() const;
};

const std::vector<OptionSpec>& train_option_schema();
// By key or alias; nullptr when neither.
const OptionSpec* find_train_option(std::string_view key);
// Every key and alias.
std::vector<std::string> train_option_keys();

// Sets the options named in values (key or alias, text as the CLI spells it). Throws InvalidArgument
// for an unknown key (with a did-you-mean), a key given with its alias, or text of the wrong type.
void set_train_options(TrainOptions& o, const std::vector<std::pair<std::string, std::string>>& values);
// Every option within its bounds, pairs ordered (low <= high), data named unless resuming: throws
// InvalidArgument naming the key.
void check_train_options(const TrainOptions& o);
// LibreYOLO's train_config.yaml (its TrainConfig.to_yaml: block style, schema order, its names for
// the keys it spells otherwise), every option.
std::string train_options_yaml(const TrainOptions& o);

// The defaults of spec over every trainable family and size (train_defaults), as help shows them:
// "0.0001; yolo9, yolox 0.0005", "0.5; deim m 0.1, l 0.05, x 0.01".
std::string train_option_defaults(const OptionSpec& spec);
// The key list of `libreyolo train --help`, by section.
std::string train_options_help();
// The table of docs/options.md.
std::string train_options_markdown();

std::string_view to_string(Optimizer optimizer);
std::string_view to_string(LrScheduler scheduler);

}  // namespace libreyolo
