// `libreyolo cfg`: the training options a run starts from, as Ultralytics' `yolo cfg` prints them.
#include <cstdio>
#include <set>
#include <string>
#include <vector>

#include "args.h"
#include "cli_common.h"
#include "libreyolo/errors.h"
#include "libreyolo/options.h"
#include "libreyolo/train.h"

namespace libreyolo::cli {
namespace {

const char* kCfgHelp = R"(libreyolo cfg — the training options a run starts from

  libreyolo cfg [model=NAME|FILE] [KEY=VALUE ...]
    prints train_config.yaml as `libreyolo train` with the same keys would write it: the model
    family's defaults (LibreYOLO's), then the keys given. Nothing is trained or downloaded.
  libreyolo cfg --markdown
    prints the table of every training option (docs/options.md).
)";

int run_cfg(const std::vector<std::string>& argv) {
    std::set<std::string> keys;
    for (const std::string& key : train_option_keys()) keys.insert(key);
    const Arguments args = parse_arguments(argv, keys, {"markdown"});
    if (args.flags.count("markdown")) {
        if (!args.values.empty()) throw InvalidArgument("--markdown: the table takes no keys");
        std::fputs(train_options_markdown().c_str(), stdout);
        return 0;
    }
    TrainOptions o = train_defaults(args.get("model", TrainOptions{}.model));
    set_train_options(o, {args.values.begin(), args.values.end()});
    std::fputs(train_options_yaml(o).c_str(), stdout);
    return 0;
}

}  // namespace

extern const Command kCfgCommand{"cfg", "print the training options a run starts from (train_config.yaml)", kCfgHelp,
                                 run_cfg};

}  // namespace libreyolo::cli
